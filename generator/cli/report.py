"""The command that hands a result over: report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import cli, open_archive, root_option

if TYPE_CHECKING:
    from generator.report import Format


@cli.command()
@click.argument("run", required=False)
@click.option("--board", "suite", metavar="SUITE", help="A suite's board in place of a run.")
@click.option("--against", metavar="RUN", help="Compare the run with this run, its reference.")
@click.option("--baseline", is_flag=True, help="Compare the run with its suite's baseline.")
@click.option("--locale", default="en", show_default=True, help="Language of the report: en, it.")
@click.option(
    "--format",
    "kind",
    type=click.Choice(["html", "markdown"]),
    default="html",
    show_default=True,
    help="One HTML file, or the summary as GitHub-flavoured Markdown.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The file to write (default: standard output).",
)
@root_option
def report(
    run: str | None,
    suite: str | None,
    against: str | None,
    baseline: bool,
    locale: str,
    kind: str,
    out: Path | None,
    root: Path | None,
) -> int:
    """Write one file of an archived run, or of a comparison, made from redacted runs only.

    HTML: the run's page (or the comparison's) as the site shows it, self-contained (styles,
    script and charts inside, nothing fetched), printable on A4. Markdown: the status, the
    checks that got worse and links to the site (where mkdocs.yml gives site_url), for a pull
    request or a CI job summary. The file is searched for every payload string of the runs it
    was made from: one found writes nothing (exit 64). Otherwise exit as explain does: 0
    fine, 1 worse than the reference, 2 something could not be judged.

    With --board SUITE in place of a run: the suite's board (runsite board) as one file, or
    its Markdown summary; exit 0.

    Example: runsite report support@latest --baseline --locale it --out report.html
    """
    from generator.reading import catalog
    from generator.report import gather, gather_suite, made, made_board, write

    catalog(locale)
    if against is not None and baseline:
        raise click.UsageError("--against and --baseline name the reference twice; give one")
    if (run is None) == (suite is None):
        raise click.UsageError("name a run, or a suite with --board; one of the two")
    if suite is not None and (against is not None or baseline):
        raise click.UsageError(
            "--board compares a suite's targets; --against and --baseline do not apply"
        )
    archive = open_archive(root)
    drift = archive.drift()
    if drift:
        click.echo(f"runsite: {drift}", err=True)
    shape: Format = "html" if kind == "html" else "markdown"
    where = str(out or "standard output")
    if suite is not None:
        runs, payload, origin = gather_suite(archive, suite)
        done = made_board(suite, runs, payload, origin, locale, shape, where)
    else:
        assert run is not None
        subject, payload = gather(archive, run, against, baseline, Path.cwd())
        done = made(subject, payload, locale, shape, where)
    if out is None:
        sys.stdout.buffer.write(done.data)
    else:
        write(done.data, out)
    if done.reason is not None:
        click.echo(f"runsite: {done.reason}", err=True)
    return done.exit_code
