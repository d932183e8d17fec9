"""Two outputs of one run say the same thing: a suite page's row and the run's own page, the
run page's header and its reading, the page and the report, over the real runs of this
repository and of the corpus."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.document.redacted import RedactedRun
from generator.reading import as_json, explain
from generator.reading.alone import bill
from generator.reading.formats import formats
from generator.site.build import environment
from generator.site.history import SHORT_COMMIT, SuiteRuns
from generator.site.labels import LABELS, LOCALES
from generator.site.pages import Site
from generator.site.summary import summarise
from tests._helpers import a_corpus_run
from tests.conftest import CORPUS
from tests.suite._suites import write_suite

REPOSITORY = Path(__file__).resolve().parents[2]


@cache
def runs() -> tuple[RedactedRun, ...]:
    """This repository's demo runs and every digline document of the corpus, redacted."""
    paths = sorted((REPOSITORY / "runs").rglob("*.json")) + sorted(
        (CORPUS / "digline").glob("*.json")
    )
    return tuple(a_corpus_run(path) for path in paths)


@cache
def site(locale: str) -> Site:
    return Site(environment(), locale)


def _header(run: RedactedRun, locale: str) -> dict[str, str]:
    """The run page's header facts, as text."""
    said = site(locale).header(run)
    return {label: html.unescape(re.sub(r"<[^>]+>", "", str(value))) for label, value in said}


def _commit_cells(runs: tuple[RedactedRun, ...], locale: str) -> list[str]:
    """The commit column of a suite page listing ``runs`` (newest first), as text."""
    first = runs[0]
    body = site(locale).suite_body(
        SuiteRuns(first.tenant, first.suite, tuple(summarise(r) for r in runs), None)
    )
    table = body.split(f"<th>{LABELS[locale]['column.commit']}</th>", 1)[1]
    rows = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    return [html.unescape(re.sub(r"<[^>]+>", "", row.split("<td>")[4])).strip() for row in rows]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_suite_page_shortens_a_runs_commit_hash_and_nothing_else_its_page_says(locale: str):
    commit = LABELS[locale]["fact.commit"]
    no_commit = runs()[0].model_copy(update={"git_commit": None})
    for run in (*runs(), no_commit):
        (cell,) = _commit_cells((run,), locale)
        said = _header(run, locale)[commit]
        if run.git_commit is None:
            assert cell == said == LABELS[locale]["fact.no_commit"]
        else:
            digest = said.removesuffix("-dirty")
            assert cell == digest[:SHORT_COMMIT] + said[len(digest) :], run.key


def _bill(facts: list[dict[str, Any]], side: str, locale: str) -> str:
    """What one side's calls cost, as the reading's facts (``explain --json``) say it: its
    calls and their cost, or its calls and what is on record of their cost."""
    f, t = formats(locale), LABELS[locale]
    said = {fact["kind"]: fact["params"] for fact in facts}
    if f"setup.spent.{side}" in said:
        params = said[f"setup.spent.{side}"]
        return f"{f.count(params['calls'])} · {f.money(params['spent'])}"
    calls = f.count(said[f"setup.calls.{side}"]["calls"])
    if f"tally.unpriced.{side}" in said:
        spent = f.money(said[f"tally.unpriced.{side}"]["spent"])
        return f"{calls} · {t['fact.cost_partial'].format(money=spent)}"
    assert f"tally.cost_unknown.{side}" in said
    return f"{calls} · {f.unknown}"


def _usage(facts: list[dict[str, Any]], locale: str) -> str:
    t = LABELS[locale]
    target, judge = (_bill(facts, side, locale) for side in ("target", "judge"))
    return f"{t['fact.target']}: {target}; {t['fact.judge']}: {judge}"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_run_pages_calls_and_cost_are_what_its_reading_says_they_are(locale: str):
    said = LABELS[locale]["fact.usage"]
    sides: Counter[str] = Counter()
    for run in runs():
        if run.usage is not None:
            facts = as_json(explain(run))["facts"]
            assert _header(run, locale)[said] == _usage(facts, locale), run.key
            sides.update(bill(totals) for totals in (run.usage.target, run.usage.judge))
    assert set(sides) == {"spent", "unknown"}  # a side that made no call among the spent


def test_a_replayed_runs_report_and_its_reading_agree_that_no_call_to_the_target_cost_nothing(
    runsite, archive, tmp_path
):
    suite = write_suite(tmp_path / "s", suite_extra="record_responses = true")
    assert runsite("run", str(suite), "--root", str(archive)).exit_code == 0
    replayed = runsite("replay", str(suite), "--run", "probe@latest", "--root", str(archive))
    assert replayed.exit_code == 0, replayed.output
    key = replayed.stdout.strip()
    explained = runsite("explain", key, "--json", "--root", str(archive))
    facts = json.loads(explained.stdout)["facts"]
    assert {"kind": "setup.spent.target", "params": {"calls": 0, "spent": 0.0}} in [
        {"kind": f["kind"], "params": f["params"]} for f in facts
    ]
    for locale in LOCALES:
        report = runsite("report", key, "--locale", locale, "--root", str(archive)).stdout
        found = re.search(rf"<dt>{re.escape(LABELS[locale]['fact.usage'])}<dd>([^\n<]*)", report)
        assert found is not None
        assert html.unescape(found[1]) == _usage(facts, locale)
        assert f"{LABELS[locale]['fact.target']}: 0 · {formats(locale).money(0.0)};" in found[1]
