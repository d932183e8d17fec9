"""The ``runsite`` command: parse, make one call into the package, print, return an exit code.

One handler serves every command: a refusal prints one line on stderr and exits 64; a click
usage error exits 64 as well (2 means "could not be judged" here); anything else is a defect of
runsite, printed with its traceback, exit 70.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from generator import __version__
from generator.errors import DocumentRefused, Refused, RunsiteError

if TYPE_CHECKING:
    from generator.document.model import Run
    from generator.document.redacted import RedactedRun
    from generator.reading import Reading

if TYPE_CHECKING:
    from generator.archive import Archive

Command = TypeVar("Command", bound=Callable[..., Any])

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


def _root_option(command: Command) -> Command:
    return click.option(
        "--root",
        type=click.Path(path_type=Path, file_okay=False),
        help="The archive's folder (default: the nearest one with a runsite.toml, here or above).",
    )(command)


def _json_option(command: Command) -> Command:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(
        command
    )


def _open(root: Path | None) -> Archive:
    from generator.archive import Archive

    return Archive.open(root, Path.cwd())


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
@click.argument("suite_file", metavar="SUITE.toml", type=click.Path(path_type=Path))
@click.option("--meta", multiple=True, metavar="K=V", help="Annotate the run (repeatable).")
@click.option("--no-archive", is_flag=True, help="Do not archive the run; write it with --out.")
@click.option("--out", type=click.Path(path_type=Path), help="Also write the run document here.")
@_root_option
def run(
    suite_file: Path, meta: tuple[str, ...], no_archive: bool, out: Path | None, root: Path | None
) -> int:
    """Run a suite, print the run key, and archive the run document.

    Exit 0, or 2 when nothing could be judged.

    Example: runsite run examples/support/suite.toml --meta ticket=OPS-12
    """
    from generator.suite.host import measure

    metadata = dict(_pair(item) for item in meta)
    _check_kept(no_archive, out)
    archive = None if no_archive else _open(root)
    measured = measure(suite_file, _now(), metadata, _case_progress)
    return _keep(measured, archive, out, f"runsite run {suite_file}")


@cli.command()
@click.argument("suite_file", metavar="SUITE.toml", type=click.Path(path_type=Path))
@click.option(
    "--run", "stored_run", required=True, metavar="RUN", help="The stored run to judge again."
)
@click.option("--meta", multiple=True, metavar="K=V", help="Annotate the run (repeatable).")
@click.option("--no-archive", is_flag=True, help="Do not archive the run; write it with --out.")
@click.option("--out", type=click.Path(path_type=Path), help="Also write the run document here.")
@_root_option
def replay(
    suite_file: Path,
    stored_run: str,
    meta: tuple[str, ...],
    no_archive: bool,
    out: Path | None,
    root: Path | None,
) -> int:
    """Judge a stored run's recorded answers again with the suite's current checks.

    The target is not called. Exit 0, or 2 when nothing could be judged.

    Example: runsite replay examples/agent/suite.toml --run latest
    """
    from generator.files import read_document
    from generator.suite.host import rejudge

    _check_kept(no_archive, out)
    archive = None if no_archive else _open(root)
    given = Path(stored_run)
    stored = (
        read_document(given).run
        if given.is_file()
        else (archive or _open(root)).read(stored_run, Path.cwd())
    )
    metadata = dict(_pair(item) for item in meta)
    replayed = rejudge(suite_file, stored, _now(), metadata)
    return _keep(replayed, archive, out, f"runsite replay {suite_file}")


def _now() -> str:
    """The moment a run starts: UTC, with microseconds and its offset."""
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="microseconds")


def _check_kept(no_archive: bool, out: Path | None) -> None:

    if no_archive and out is None:
        raise Refused("--no-archive: give --out FILE, or the run would be lost")


def _keep(measured: Any, archive: Archive | None, out: Path | None, source: str) -> int:
    """Write and archive a run that was just made, print its key, and give its exit code."""
    from generator.document.codec import run_bytes
    from generator.suite.runner import nothing_judged

    if out is not None:
        out.write_bytes(run_bytes(measured))
    if archive is not None:
        archive.keep(measured, source)
    click.echo(measured.key)
    return 2 if nothing_judged(measured) else 0


def _pair(item: str) -> tuple[str, str]:

    key, equals, value = item.partition("=")
    if not equals or not key:
        raise Refused("--meta: takes KEY=VALUE")
    return key, value


def _case_progress(total: int) -> Callable[[Any], None] | None:
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


def _print(value: Any, as_json: bool, lines: Callable[[Any], Iterable[str]]) -> int:
    """``value`` as canonical JSON, or as ``lines`` render it for a terminal; exit 0."""
    from generator.document.codec import canonical

    if as_json:
        sys.stdout.buffer.write(canonical(value))
    else:
        _echo_lines(lines(value))
    return 0


def _echo_lines(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(line)


def _progress(files: list[Path]) -> AbstractContextManager[Iterable[Path]]:
    """A progress bar on a terminal; the files as they are anywhere else."""
    if sys.stderr.isatty():
        return click.progressbar(files, label="Reading", file=sys.stderr)
    return nullcontext(files)


@cli.command()
@click.argument("folder", default=".", type=click.Path(path_type=Path, file_okay=False))
def init(folder: Path) -> int:
    """Make FOLDER (default: here) an archive: runs/, a runsite.toml, and a git repository
    when FOLDER is in none. Commits both.

    Example: runsite init evals
    """
    from generator.archive import init_archive

    created = init_archive(folder)
    click.echo(f"{folder}: an archive{', in a new git repository' if created else ''}")
    return 0


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--skip-invalid", is_flag=True, help="Archive the valid documents; list the rest.")
@_root_option
def import_(paths: tuple[Path, ...], skip_invalid: bool, root: Path | None) -> int:
    """Archive run documents: files, folders, and digline stores (.digline/), in one commit.

    One bad document refuses the whole batch, naming every bad file. A store's baseline
    becomes its suite's reference. Exit 64 if anything was refused or skipped.

    Example: runsite import ~/project/.digline
    """
    from generator.archive.views import admission_lines
    from generator.importers import files_of, read_files

    archive = _open(root)
    files = files_of(paths)
    with _progress(files) as reading:
        batch = read_files(reading)
    for arrival in batch.arrivals:
        _warn_unknown(Path(arrival.source), arrival.reading.unknown)
    done = archive.receive(batch.arrivals, batch.refused, skip_invalid)
    for refusal in done.refused:
        click.echo(f"runsite: {refusal}", err=True)
    if done.refused and not skip_invalid:
        click.echo("runsite: nothing archived; --skip-invalid archives the valid ones", err=True)
        return EXIT_REFUSED
    _echo_lines(admission_lines(done))
    return EXIT_REFUSED if done.refused else 0


@cli.command("list")
@click.option("--suite", help="Only this suite: SUITE, or TENANT/SUITE.")
@_json_option
@_root_option
def list_(suite: str | None, as_json: bool, root: Path | None) -> int:
    """The archived runs, newest first; * marks each suite's baseline.

    Example: runsite list --suite support --json
    """
    from generator.archive.views import listing, listing_lines

    entries = listing(*_open(root).runs(suite))
    return _print(entries, as_json, listing_lines)


@cli.command()
@click.argument("run")
@_json_option
@_root_option
def show(run: str, as_json: bool, root: Path | None) -> int:
    """One run, summarised from its redacted view (what runsite.toml discloses, no more).

    RUN is a key, a path, latest, latest~N, or SUITE@latest[~N].

    Example: runsite show support@latest
    """
    from generator.archive.views import summary, summary_lines

    facts = summary(_open(root).show(run, Path.cwd()))
    return _print(facts, as_json, summary_lines)


@cli.group()
def baseline() -> None:
    """The reference run of each suite, kept in the archive and committed."""


@baseline.command("set")
@click.argument("run")
@_root_option
def baseline_set(run: str, root: Path | None) -> int:
    """Make RUN its suite's baseline.

    Example: runsite baseline set support@latest
    """
    chosen, commit = _open(root).set_baseline(run, Path.cwd())
    state = "set" if commit else "was already"
    click.echo(f"baseline of {chosen.tenant}/{chosen.suite} {state}: {chosen.key}")
    return 0


@baseline.command("show")
@click.argument("suite", required=False)
@_root_option
def baseline_show(suite: str | None, root: Path | None) -> int:
    """Each suite's baseline, or SUITE's alone.

    Example: runsite baseline show support
    """
    from generator.archive.views import suite_lines

    _echo_lines(suite_lines(_open(root).baselines(suite)))
    return 0


@baseline.command("clear")
@click.argument("suite")
@_root_option
def baseline_clear(suite: str, root: Path | None) -> int:
    """Leave SUITE (SUITE or TENANT/SUITE) without a baseline.

    Example: runsite baseline clear acme/support
    """
    from generator.archive import label

    cleared, commit = _open(root).clear_baseline(suite)
    click.echo(f"{label(cleared)}: {'baseline cleared' if commit else 'had no baseline'}")
    return 0


@cli.command()
@click.option("--dry-run", is_flag=True, help="Say what would be rewritten; write nothing.")
@_root_option
def migrate(dry_run: bool, root: Path | None) -> int:
    """Rewrite archived documents older than schema 23 at schema 23, in one commit.

    Without it, reading migrates in memory and the archived bytes stay as they arrived.

    Example: runsite migrate --dry-run
    """
    from generator.archive.views import migration_lines

    done = _open(root).migrate(dry_run)
    for refusal in done.refused:
        click.echo(f"runsite: {refusal}", err=True)
    _echo_lines(migration_lines(done, dry_run))
    return EXIT_REFUSED if done.refused else 0


@cli.command()
@_json_option
@_root_option
def log(as_json: bool, root: Path | None) -> int:
    """What arrived in the archive when, read from git history, newest first.

    Example: runsite log --json
    """
    from generator.archive.views import history, history_lines

    entries = history(_open(root).history())
    return _print(entries, as_json, history_lines)


@cli.command()
@click.argument("run")
@click.option("--against", metavar="RUN", help="Read the run against this reference run.")
@click.option("--baseline", is_flag=True, help="Read the run against its suite's baseline.")
@click.option("--locale", default="en", show_default=True, help="Language of the prose: en, it.")
@click.option("--json", "as_json", is_flag=True, help="The facts as JSON (output_version 1).")
@_root_option
def explain(
    run: str, against: str | None, baseline: bool, locale: str, as_json: bool, root: Path | None
) -> int:
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
    measured = _run_at(run, root)
    reference = _run_at(against, root) if against is not None else None
    if baseline:
        reference = _run_at(_open(root).baseline_of(measured.tenant, measured.suite), root)
    reading = explain_run(measured, reference)
    _print_reading(reading, locale, as_json)
    return reading.exit_code


@cli.command()
@click.argument("left")
@click.argument("right")
@click.option("--locale", default="en", show_default=True, help="Language of the prose: en, it.")
@click.option("--json", "as_json", is_flag=True, help="The facts as JSON (output_version 1).")
@_root_option
def diff(left: str, right: str, locale: str, as_json: bool, root: Path | None) -> int:
    """Put two runs of the same rules and judge side by side; neither is the reference.

    Always exit 0, unless the runs cannot be compared (different tenants, rules or judges): 64.

    Example: runsite diff runs/acme/support/<key>.json runs/acme/support/<other>.json --json
    """
    from generator.reading import catalog
    from generator.reading import diff as diff_runs

    catalog(locale)
    _print_reading(diff_runs(_run_at(left, root), _run_at(right, root)), locale, as_json)
    return 0


def _run_at(reference: str, root: Path | None) -> RedactedRun:
    """The run a RUN argument names, as the reading sees it: redacted under the archive's
    disclosure. RUN is a path to a document (full or redacted), or a reference the archive
    resolves: a key, ``latest``, ``latest~N``, ``SUITE@latest``."""
    from generator.document.redact import redact as redact_run

    path = Path(reference)
    if path.is_file():
        return redact_run(_read_source(path))
    archive = _open(root)
    return redact_run(archive.read(reference, Path.cwd()), archive.config.disclosure)


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
