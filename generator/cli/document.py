"""Commands on run documents outside the archive: validate, redact, schema."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import EXIT_REFUSED, cli, warn_unknown
from generator.errors import DocumentRefused

if TYPE_CHECKING:
    from generator.document.model import Run
    from generator.document.redacted import RedactedRun


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> int:
    """Read and migrate run documents in memory; report each one's schema or its error.

    Folders are searched for *.json. Exit 0 when every document is valid, 64 otherwise.

    Example: runsite validate runs/
    """
    from generator.document.model import SCHEMA
    from generator.files import document_paths, read_document

    refused = 0
    for path in document_paths(paths):
        try:
            reading = read_document(path)
        except DocumentRefused as error:
            refused += 1
            click.echo(str(error))
            continue
        cases = len(reading.run.results)
        click.echo(f"{path}: schema {reading.declared_schema} → {SCHEMA}, {cases} cases")
        warn_unknown(path, reading.unknown)
    return EXIT_REFUSED if refused else 0


@cli.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--disclose-tool-names", is_flag=True, help="Publish the names of tools called.")
def redact(path: Path, disclose_tool_names: bool) -> int:
    """Print the redacted projection of a run document as canonical JSON.

    A redacted run given again is narrowed, never widened.

    Example: runsite redact runs/acme/support/2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json
    """
    from generator.document.codec import redacted_bytes
    from generator.document.disclosure import Disclosure
    from generator.document.redact import redact as redact_run

    disclosure = Disclosure(tool_names=disclose_tool_names)
    source = _read_source(path)
    sys.stdout.buffer.write(redacted_bytes(redact_run(source, disclosure)))
    return 0


@cli.command()
@click.option("--redacted", is_flag=True, help="The schema of the redacted projection.")
def schema(redacted: bool) -> int:
    """Print the JSON Schema of the run document (schema 23), generated from the models.

    Example: runsite schema --redacted > redacted-run.schema.json
    """
    from generator.document.codec import canonical
    from generator.document.model import Run
    from generator.document.redacted import RedactedRun
    from generator.document.schema import json_schema

    model = RedactedRun if redacted else Run
    sys.stdout.buffer.write(canonical(json_schema(model)))
    return 0


def _read_source(path: Path) -> Run | RedactedRun:
    """A run document, migrated and validated, or a redacted one, as the file holds it."""
    from generator.document.codec import parse_object, read_redacted
    from generator.files import read_bytes, read_document

    try:
        if "disclosure" in parse_object(read_bytes(path)):
            return read_redacted(read_bytes(path))
        reading = read_document(path)
    except DocumentRefused as error:
        raise error.located(str(path)) from None
    warn_unknown(path, reading.unknown)
    return reading.run
