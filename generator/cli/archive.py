"""Commands on the archive: init, import, list, show, baseline, migrate, log."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import (
    EXIT_REFUSED,
    cli,
    echo_lines,
    json_option,
    open_archive,
    printed,
    root_option,
    warn_unknown,
)
from generator.errors import Refused

if TYPE_CHECKING:
    pass


def _progress(files: list[Path]) -> AbstractContextManager[Iterable[Path]]:
    """A progress bar on a terminal; the files as they are anywhere else."""
    if sys.stderr.isatty():
        return click.progressbar(files, label="Reading", file=sys.stderr)
    return nullcontext(files)


@cli.command()
@click.argument("folder", default=".", type=click.Path(path_type=Path, file_okay=False))
def init(folder: Path) -> int:
    """Make FOLDER (default: here) an archive: runs/, a runsite.toml, a .gitignore for what a
    build leaves, and a git repository when FOLDER is in none. Commits them.

    Where git knows no identity, a new repository commits as the archive's own; in a
    repository that was there, init says how to name one and makes nothing.

    Example: runsite init evals
    """
    from generator.archive import init_archive

    started = init_archive(folder)
    click.echo(f"{folder}: an archive{', in a new git repository' if started.repository else ''}")
    if started.identity:
        click.echo(
            f"runsite: git has no identity, so this archive commits as {started.identity}; "
            f"git -C {folder} config user.name (and user.email) changes it",
            err=True,
        )
    return 0


@cli.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--skip-invalid", is_flag=True, help="Archive the valid documents; list the rest.")
@click.option(
    "--tenant", help="The tenant of each Inspect log or promptfoo eval (else runsite.toml's)."
)
@click.option(
    "--suite", help="The suite of each Inspect log or promptfoo eval (else its task or config's)."
)
@root_option
def import_(
    paths: tuple[Path, ...],
    skip_invalid: bool,
    tenant: str | None,
    suite: str | None,
    root: Path | None,
) -> int:
    """Archive run documents, Inspect AI logs and promptfoo evals: files, folders, digline
    stores (.digline/), .eval and .json logs, promptfoo's .json and .jsonl, in one commit.

    One bad document refuses the whole batch, naming every bad file. A store's baseline
    becomes its suite's reference. An Inspect log is judged by runsite.toml's [inspect]
    thresholds. A promptfoo eval is a run per prompt × provider. Exit 64 if anything was
    refused or skipped.

    Example: runsite import logs/ --tenant acme
    """
    from generator.archive.names import unfit
    from generator.archive.views import admission_lines
    from generator.importers import files_of, read_files
    from generator.importers.options import Options

    for option, name in (("--tenant", tenant), ("--suite", suite)):
        problem = unfit(name) if name is not None else None
        if problem:
            raise Refused(f"{option}: {problem}")
    archive = open_archive(root)
    files = files_of(paths)
    config = archive.config
    options = Options(tenant, suite, config.inspect, config.promptfoo, config.limits)
    with _progress(files) as reading:
        batch = read_files(reading, options)
    for arrival in batch.arrivals:
        warn_unknown(Path(arrival.source), arrival.reading.unknown)
    done = archive.receive(batch.arrivals, batch.refused, skip_invalid)
    for refusal in done.refused:
        click.echo(f"runsite: {refusal}", err=True)
    if done.refused and not skip_invalid:
        valid = f"; --skip-invalid archives the {done.held} valid" if done.held else ""
        click.echo(f"runsite: nothing archived{valid}", err=True)
        return EXIT_REFUSED
    echo_lines(admission_lines(done))
    return EXIT_REFUSED if done.refused else 0


@cli.command("list")
@click.option("--suite", help="Only this suite: SUITE, or TENANT/SUITE.")
@json_option
@root_option
def list_(suite: str | None, as_json: bool, root: Path | None) -> int:
    """The archived runs, newest first; * marks each suite's baseline.

    Example: runsite list --suite support --json
    """
    from generator.archive.views import listing, listing_lines

    entries = listing(*open_archive(root).runs(suite))
    return printed(entries, as_json, listing_lines)


@cli.command()
@click.argument("suite")
@json_option
@root_option
def board(suite: str, as_json: bool, root: Path | None) -> int:
    """A suite's targets side by side: the latest run of each over the same rules, each check's
    pass rate with its Wilson interval, cost per case, and which gaps are beyond chance (exact
    McNemar against each check's best, Holm's correction); ◆ marks the targets no other beats
    on both pass rate and cost.

    Example: runsite board support --json
    """
    from generator.archive.board_view import board_lines, suite_board
    from generator.document.redact import redact

    archive = open_archive(root)
    listed, _ = archive.runs(suite)
    runs = [redact(archive.document(run).run, archive.config.disclosure) for run in listed]
    return printed(suite_board(runs), as_json, board_lines)


@cli.command()
@click.argument("run")
@json_option
@root_option
def show(run: str, as_json: bool, root: Path | None) -> int:
    """One run, summarised from its redacted view (what runsite.toml discloses, no more).

    RUN is a key, a path, latest, latest~N, or SUITE@latest[~N].

    Example: runsite show support@latest
    """
    from generator.archive.views import summary, summary_lines

    facts = summary(open_archive(root).show(run, Path.cwd()))
    return printed(facts, as_json, summary_lines)


@cli.group()
def baseline() -> None:
    """The reference run of each suite, kept in the archive and committed."""


@baseline.command("set")
@click.argument("run")
@root_option
def baseline_set(run: str, root: Path | None) -> int:
    """Make RUN its suite's baseline.

    Example: runsite baseline set support@latest
    """
    chosen, commit = open_archive(root).set_baseline(run, Path.cwd())
    state = "set" if commit else "was already"
    click.echo(f"baseline of {chosen.tenant}/{chosen.suite} {state}: {chosen.key}")
    return 0


@baseline.command("show")
@click.argument("suite", required=False)
@root_option
def baseline_show(suite: str | None, root: Path | None) -> int:
    """Each suite's baseline, or SUITE's alone.

    Example: runsite baseline show support
    """
    from generator.archive.views import suite_lines

    echo_lines(suite_lines(open_archive(root).baselines(suite)))
    return 0


@baseline.command("clear")
@click.argument("suite")
@root_option
def baseline_clear(suite: str, root: Path | None) -> int:
    """Leave SUITE (SUITE or TENANT/SUITE) without a baseline.

    Example: runsite baseline clear acme/support
    """
    from generator.archive import label

    cleared, commit = open_archive(root).clear_baseline(suite)
    click.echo(f"{label(cleared)}: {'baseline cleared' if commit else 'had no baseline'}")
    return 0


@cli.command()
@click.option("--dry-run", is_flag=True, help="Say what would be rewritten; write nothing.")
@root_option
def migrate(dry_run: bool, root: Path | None) -> int:
    """Rewrite archived documents older than schema 23 at schema 23, in one commit.

    Without it, reading migrates in memory and the archived bytes stay as they arrived.

    Example: runsite migrate --dry-run
    """
    from generator.archive.views import migration_lines

    done = open_archive(root).migrate(dry_run)
    for refusal in done.refused:
        click.echo(f"runsite: {refusal}", err=True)
    echo_lines(migration_lines(done, dry_run))
    return EXIT_REFUSED if done.refused else 0


@cli.command()
@json_option
@root_option
def log(as_json: bool, root: Path | None) -> int:
    """What arrived in the archive when, read from git history, newest first.

    Example: runsite log --json
    """
    from generator.archive.views import history, history_lines

    entries = history(open_archive(root).history())
    return printed(entries, as_json, history_lines)
