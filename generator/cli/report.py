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
@click.argument("run")
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
    run: str,
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

    Example: runsite report support@latest --baseline --locale it --out report.html
    """
    from generator.reading import catalog
    from generator.report import gather, made, write

    catalog(locale)
    if against is not None and baseline:
        raise click.UsageError("--against and --baseline name the reference twice; give one")
    archive = open_archive(root)
    drift = archive.drift()
    if drift:
        click.echo(f"runsite: {drift}", err=True)
    subject, payload = gather(archive, run, against, baseline, Path.cwd())
    shape: Format = "html" if kind == "html" else "markdown"
    done = made(subject, payload, locale, shape, str(out or "standard output"))
    if out is None:
        sys.stdout.buffer.write(done.data)
    else:
        write(done.data, out)
    if done.reason is not None:
        click.echo(f"runsite: {done.reason}", err=True)
    return done.exit_code
