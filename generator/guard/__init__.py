"""The leak guard: every byte an output writes is searched for the payload of the runs it was
made from, and a hit refuses the output.

Outputs are redacted by construction; this is the "checked anyway" half. Importing this package
loads nothing heavy: ``runsite build`` starts the check of its kept pages (``kept_check``)
before anything else, so that the check's own imports run beside the build's.
"""
