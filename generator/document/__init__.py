"""The run document: its model at schema 23, the migration chain, and the redaction boundary."""
