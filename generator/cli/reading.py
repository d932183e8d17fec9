"""Commands that read runs: explain, diff."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.document import _read_source
from generator.cli.group import cli, open_archive, root_option

if TYPE_CHECKING:
    from generator.document.redacted import RedactedRun
    from generator.reading import Reading
    from generator.reading.facts import Gate


@cli.command()
@click.argument("run")
@click.option("--against", metavar="RUN", help="Read the run against this reference run.")
@click.option("--baseline", is_flag=True, help="Read the run against its suite's baseline.")
@click.option("--locale", default="en", show_default=True, help="Language of the prose: en, it.")
@click.option("--json", "as_json", is_flag=True, help="The facts as JSON (output_version 2).")
@click.option(
    "--gate",
    type=click.Choice(["tolerance", "significant"]),
    default="tolerance",
    show_default=True,
    help="What exit 1 means: a check worse past its tolerance, or worse beyond chance.",
)
@root_option
def explain(
    run: str,
    against: str | None,
    baseline: bool,
    locale: str,
    as_json: bool,
    gate: Gate,
    root: Path | None,
) -> int:
    """Say what a run measured, alone or against a reference: facts, never advice.

    Exit 0 when nothing got worse, 1 when something got worse than the reference (only with a
    reference), 2 when something could not be judged, or when no check pairs with one of the
    reference (the reading says which could not be paired, and why). With --gate significant,
    exit 1 means a check got worse beyond chance: more of its cases went from passing to
    failing than back, or its scores fell, with p below 0.05 after Holm's correction across
    the checks. The JSON carries no prose, so --locale does not change it.

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
        reference = _run_at(open_archive(root).baseline_of(measured.tenant, measured.suite), root)
    reading = explain_run(measured, reference)
    _print_reading(reading, locale, as_json, gate)
    return reading.gated(gate)


@cli.command()
@click.argument("left")
@click.argument("right")
@click.option("--locale", default="en", show_default=True, help="Language of the prose: en, it.")
@click.option("--json", "as_json", is_flag=True, help="The facts as JSON (output_version 2).")
@root_option
def diff(left: str, right: str, locale: str, as_json: bool, root: Path | None) -> int:
    """Put two runs of the same rules and judge side by side; neither is the reference.

    Exit 0; 2 when no check of one run pairs with a check of the other, saying why; 64 when
    the runs cannot be compared (different tenants, rules or judges).

    Example: runsite diff runs/acme/support/<key>.json runs/acme/support/<other>.json --json
    """
    from generator.reading import catalog
    from generator.reading import diff as diff_runs

    catalog(locale)
    reading = diff_runs(_run_at(left, root), _run_at(right, root))
    _print_reading(reading, locale, as_json)
    return reading.exit_code


def _run_at(reference: str, root: Path | None) -> RedactedRun:
    """The run a RUN argument names, as the reading sees it: redacted under the archive's
    disclosure. RUN is a path to a document (full or redacted), or a reference the archive
    resolves: a key, ``latest``, ``latest~N``, ``SUITE@latest``."""
    from generator.document.redact import redact as redact_run

    path = Path(reference)
    if path.is_file():
        return redact_run(_read_source(path))
    archive = open_archive(root)
    return redact_run(archive.read(reference, Path.cwd()), archive.config.disclosure)


def _print_reading(reading: Reading, locale: str, as_json: bool, gate: Gate = "tolerance") -> None:
    from generator.document.codec import canonical
    from generator.reading import as_json as reading_json
    from generator.reading import exit_reason, text

    if as_json:
        sys.stdout.buffer.write(canonical(reading_json(reading, gate)))
    else:
        click.echo(text(reading, locale), nl=False)
    why = exit_reason(reading, locale, gate)
    if why is not None:
        click.echo(f"runsite: {why}", err=True)
