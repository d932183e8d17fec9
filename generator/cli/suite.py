"""Commands that measure: run a suite, replay a stored run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from generator.cli.group import cli, open_archive, progress_bar, root_option
from generator.errors import Refused

if TYPE_CHECKING:
    from generator.archive import Archive


_concurrency = click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="How many calls (of the target or a judge) may be made at once.",
)


@cli.command()
@click.argument("suite_file", metavar="SUITE.toml", type=click.Path(path_type=Path))
@click.option("--meta", multiple=True, metavar="K=V", help="Annotate the run (repeatable).")
@click.option("--no-archive", is_flag=True, help="Do not archive the run; write it with --out.")
@click.option("--out", type=click.Path(path_type=Path), help="Also write the run document here.")
@_concurrency
@root_option
def run(
    suite_file: Path,
    meta: tuple[str, ...],
    no_archive: bool,
    out: Path | None,
    concurrency: int,
    root: Path | None,
) -> int:
    """Run a suite, print the run key, and archive the run document.

    Then, on stderr, how its verdicts went, and the first reason a target or a judge could
    not be reached. Exit 0, or 2 when nothing could be judged.

    Example: runsite run examples/support/suite.toml --meta ticket=OPS-12 --concurrency 4
    """
    from generator.suite.host import measure

    metadata = dict(_pair(item) for item in meta)
    archive = _checked(no_archive, out, root)
    with progress_bar("cases") as progress:
        clash = archive.clash if archive else None
        measured = measure(suite_file, _now(), metadata, progress, concurrency, clash)
    return _keep(measured, archive, out, f"runsite run {suite_file}")


@cli.command()
@click.argument("suite_file", metavar="SUITE.toml", type=click.Path(path_type=Path))
@click.option(
    "--run", "stored_run", required=True, metavar="RUN", help="The stored run to judge again."
)
@click.option("--meta", multiple=True, metavar="K=V", help="Annotate the run (repeatable).")
@click.option("--no-archive", is_flag=True, help="Do not archive the run; write it with --out.")
@click.option("--out", type=click.Path(path_type=Path), help="Also write the run document here.")
@_concurrency
@root_option
def replay(
    suite_file: Path,
    stored_run: str,
    meta: tuple[str, ...],
    no_archive: bool,
    out: Path | None,
    concurrency: int,
    root: Path | None,
) -> int:
    """Judge a stored run's recorded answers again with the suite's current checks.

    The target is not called. Exit 0, or 2 when nothing could be judged.

    Example: runsite replay examples/agent/suite.toml --run latest
    """
    from generator.files import read_document
    from generator.suite.host import rejudge

    archive = _checked(no_archive, out, root)
    given = Path(stored_run)
    stored = (
        read_document(given).run
        if given.is_file()
        else (archive or open_archive(root)).read(stored_run, Path.cwd())
    )
    metadata = dict(_pair(item) for item in meta)
    clash = archive.clash if archive else None
    replayed = rejudge(suite_file, stored, _now(), metadata, concurrency, clash)
    return _keep(replayed, archive, out, f"runsite replay {suite_file}")


def _now() -> str:
    """The moment a run starts: UTC, with microseconds and its offset."""
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="microseconds")


def _checked(no_archive: bool, out: Path | None, root: Path | None) -> Archive | None:
    """The archive a run will be kept in, refused before anything runs if it could not be
    (no archive, HEAD off its branch); None with --no-archive, which needs --out."""
    if no_archive:
        if out is None:
            raise Refused("--no-archive: give --out FILE, or the run would be lost")
        return None
    archive = open_archive(root)
    archive.check_branch()
    return archive


def _keep(measured: Any, archive: Archive | None, out: Path | None, source: str) -> int:
    """Write and archive a run that was just made, print its key, and give its exit code."""
    from generator.document.codec import run_bytes
    from generator.document.disclosure import NOTHING
    from generator.document.redact import redact
    from generator.site.writer import tallied
    from generator.suite.runner import nothing_judged, unreached

    if out is not None:
        out.write_bytes(run_bytes(measured))
    if archive is not None:
        archive.keep(measured, source)
    click.echo(measured.key)
    disclosure = archive.config.disclosure if archive is not None else NOTHING
    click.echo(tallied(redact(measured, disclosure), "en"), err=True)
    reason = unreached(measured)
    if reason is not None:
        click.echo(f"runsite: the first check not judged: {reason}", err=True)
    return 2 if nothing_judged(measured) else 0


def _pair(item: str) -> tuple[str, str]:

    key, equals, value = item.partition("=")
    if not equals or not key:
        raise Refused("--meta: takes KEY=VALUE")
    return key, value
