"""The ``runsite`` command: parse, make one call into the package, print, return an exit code.

One handler serves every command: a refusal prints one line on stderr and exits 64; a click
usage error exits 64 as well (2 means "could not be judged" here); anything else is a defect of
runsite, printed with its traceback, exit 70.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from generator import __version__
from generator.errors import DocumentRefused, Refused, RunsiteError

if TYPE_CHECKING:
    from generator.document.model import Run
    from generator.document.redacted import RedactedRun
    from generator.reading import Reading

EXIT_REFUSED = 64
EXIT_INTERNAL = 70


class _Runsite(click.Group):
    """The group whose ``main`` maps every failure to its exit code, for every command."""

    def main(self, *args: Any, **kwargs: Any) -> NoReturn:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except RunsiteError as error:
            click.echo(f"runsite: {error}", err=True)
            code = error.exit_code
        except click.exceptions.Exit as done:
            code = done.exit_code
        except click.ClickException as error:
            click.echo(f"runsite: {error.format_message()}", err=True)
            code = EXIT_REFUSED
        except click.Abort:
            code = EXIT_REFUSED
        except Exception:
            traceback.print_exc()
            click.echo("runsite: internal error (a defect of runsite, not of the input)", err=True)
            code = EXIT_INTERNAL
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_Runsite, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="runsite", message="%(prog)s %(version)s")
def cli() -> None:
    """Run or import LLM evaluation suites, archive every run, publish a redacted site."""


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
        _warn_unknown(path, reading.unknown)
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
    from generator.document.redact import redact as redact_run
    from generator.document.redacted import Disclosure

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

    model = RedactedRun if redacted else Run
    sys.stdout.buffer.write(canonical(model.model_json_schema()))
    return 0


@cli.command()
@click.argument("run")
@click.option("--against", metavar="RUN", help="Read the run against this reference run.")
@click.option("--baseline", is_flag=True, help="Read the run against its suite's baseline.")
@click.option("--locale", default="en", show_default=True, help="Language of the prose: en, it.")
@click.option("--json", "as_json", is_flag=True, help="The facts as JSON (output_version 1).")
def explain(run: str, against: str | None, baseline: bool, locale: str, as_json: bool) -> int:
    """Say what a run measured, alone or against a reference: facts, never advice.

    Exit 0 when nothing got worse, 1 when something got worse than the reference (only with a
    reference), 2 when something could not be judged. The JSON carries no prose, so --locale
    does not change it.

    Example: runsite explain runs/acme/support/<key>.json --against runs/acme/support/<ref>.json --locale it
    """
    from generator.reading import catalog
    from generator.reading import explain as explain_run

    catalog(locale)
    if against is not None and baseline:
        raise click.UsageError("--against and --baseline name the reference twice; give one")
    if baseline:
        raise Refused(
            "--baseline: the archive that keeps each suite's baseline is not built yet; "
            "give the reference as --against PATH"
        )
    reading = explain_run(_run_at(run), None if against is None else _run_at(against))
    _print_reading(reading, locale, as_json)
    return reading.exit_code


@cli.command()
@click.argument("left")
@click.argument("right")
@click.option("--locale", default="en", show_default=True, help="Language of the prose: en, it.")
@click.option("--json", "as_json", is_flag=True, help="The facts as JSON (output_version 1).")
def diff(left: str, right: str, locale: str, as_json: bool) -> int:
    """Put two runs of the same rules and judge side by side; neither is the reference.

    Always exit 0, unless the runs cannot be compared (different tenants, rules or judges): 64.

    Example: runsite diff runs/acme/support/<key>.json runs/acme/support/<other>.json --json
    """
    from generator.reading import catalog
    from generator.reading import diff as diff_runs

    catalog(locale)
    _print_reading(diff_runs(_run_at(left), _run_at(right)), locale, as_json)
    return 0


def _run_at(reference: str) -> RedactedRun:
    """The run a RUN argument names, as the reading sees it: redacted, nothing disclosed.

    RUN is a path to a run document (full or already redacted) until the archive resolves run
    keys, ``latest`` and ``suite@latest``; this is the one place that will change then.
    """
    from generator.document.redact import redact as redact_run

    path = Path(reference)
    if not path.is_file():
        raise Refused(
            f"{reference}: no such run document (run keys and latest wait for the archive; "
            "give a path)"
        )
    return redact_run(_read_source(path))


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
    _warn_unknown(path, reading.unknown)
    return reading.run


def _print_reading(reading: Reading, locale: str, as_json: bool) -> None:
    from generator.document.codec import canonical
    from generator.reading import as_json as reading_json
    from generator.reading import text

    if as_json:
        sys.stdout.buffer.write(canonical(reading_json(reading)))
    else:
        click.echo(text(reading, locale), nl=False)


def _warn_unknown(path: Path, unknown: Sequence[str]) -> None:
    if unknown:
        keys = ", ".join(unknown)
        click.echo(f"runsite: {path}: kept but never published, unknown keys: {keys}", err=True)


def main() -> None:
    """The console entry point."""
    cli.main(prog_name="runsite")
