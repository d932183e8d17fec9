"""The ``runsite`` command: parse, make one call into the package, print, return an exit code.

One handler serves every command: a refusal prints one line on stderr and exits 64; a click
usage error exits 64 as well (2 means "could not be judged" here); anything else is a defect of
runsite, printed with its traceback, exit 70.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from generator import __version__
from generator.errors import DocumentRefused, RunsiteError

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
    from generator.document.codec import parse_object, read_redacted, redacted_bytes
    from generator.document.model import Run
    from generator.document.redact import redact as redact_run
    from generator.document.redacted import Disclosure, RedactedRun
    from generator.files import read_bytes, read_document

    disclosure = Disclosure(tool_names=disclose_tool_names)
    try:
        if "disclosure" in parse_object(read_bytes(path)):
            source: Run | RedactedRun = read_redacted(read_bytes(path))
        else:
            reading = read_document(path)
            _warn_unknown(path, reading.unknown)
            source = reading.run
    except DocumentRefused as error:
        raise error.located(str(path)) from None
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
@click.argument("suite_file", metavar="SUITE.toml", type=click.Path(path_type=Path))
@click.option("--meta", multiple=True, metavar="K=V", help="Annotate the run (repeatable).")
@click.option("--no-archive", is_flag=True, help="Do not archive the run; write it with --out.")
@click.option("--out", type=click.Path(path_type=Path), help="Also write the run document here.")
def run(suite_file: Path, meta: tuple[str, ...], no_archive: bool, out: Path | None) -> int:
    """Run a suite, print the run key, and archive the run document.

    Exit 0, or 2 when nothing could be judged.

    Example: runsite run examples/support/suite.toml --meta ticket=OPS-12
    """
    from generator.suite.host import measure

    metadata = dict(_pair(item) for item in meta)
    measured = measure(suite_file, _now(), metadata, _progress)
    return _keep(measured, no_archive, out)


@cli.command()
@click.argument("suite_file", metavar="SUITE.toml", type=click.Path(path_type=Path))
@click.option(
    "--run", "stored_run", required=True, metavar="RUN", help="The stored run to judge again."
)
@click.option("--meta", multiple=True, metavar="K=V", help="Annotate the run (repeatable).")
@click.option("--no-archive", is_flag=True, help="Do not archive the run; write it with --out.")
@click.option("--out", type=click.Path(path_type=Path), help="Also write the run document here.")
def replay(
    suite_file: Path, stored_run: str, meta: tuple[str, ...], no_archive: bool, out: Path | None
) -> int:
    """Judge a stored run's recorded answers again with the suite's current checks.

    The target is not called. Exit 0, or 2 when nothing could be judged.

    Example: runsite replay examples/agent/suite.toml --run latest
    """
    from generator.files import read_document
    from generator.suite.host import rejudge

    stored = read_document(Path(stored_run)).run
    metadata = dict(_pair(item) for item in meta)
    return _keep(rejudge(suite_file, stored, _now(), metadata), no_archive, out)


def _now() -> str:
    """The moment a run starts: UTC, with microseconds and its offset."""
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="microseconds")


def _keep(measured: Any, no_archive: bool, out: Path | None) -> int:
    """Write and archive a run that was just made, print its key, and give its exit code."""
    from generator.document.codec import run_bytes
    from generator.errors import Refused
    from generator.suite.runner import nothing_judged

    if no_archive and out is None:
        raise Refused("--no-archive: give --out FILE, or the run would be lost")
    if not no_archive:
        raise Refused("the archive is not written yet: use --no-archive --out FILE")
    if out is not None:
        out.write_bytes(run_bytes(measured))
    click.echo(measured.key)
    return 2 if nothing_judged(measured) else 0


def _pair(item: str) -> tuple[str, str]:
    from generator.errors import Refused

    key, equals, value = item.partition("=")
    if not equals or not key:
        raise Refused("--meta: takes KEY=VALUE")
    return key, value


def _progress(total: int) -> Callable[[Any], None] | None:
    """A progress bar on stderr when it is a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        return None
    bar = click.progressbar(length=total, label="cases", file=sys.stderr)
    bar.__enter__()

    def advance(_: Any) -> None:
        bar.update(1)
        if bar.pos >= total:
            bar.__exit__(None, None, None)

    return advance


def _warn_unknown(path: Path, unknown: Sequence[str]) -> None:
    if unknown:
        keys = ", ".join(unknown)
        click.echo(f"runsite: {path}: kept but never published, unknown keys: {keys}", err=True)


def main() -> None:
    """The console entry point."""
    cli.main(prog_name="runsite")
