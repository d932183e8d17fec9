"""Each case of a suite has a place of its own on the page of the suite's cases, at an address
made of its id, the same in both languages: its verdict in its latest run, and the letters from
which the page writes its verdict in every run of the suite that measured it, newest first;
its views on run pages, the suite's grid and the search lead to it."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from generator.document.codec import read_run
from generator.document.model import CaseResult, Run
from generator.site.cases import case_anchor
from generator.site.labels import LABELS

STATUS = {"p": "passed", "f": "failed", "e": "unjudged", "s": "set_aside"}


def _runs(built: Path, tenant: str, suite: str) -> list[Run]:
    """The suite's runs, newest first (their keys start with the moment they were measured)."""
    documents = sorted((built / "runs" / tenant / suite).glob("*.json"), reverse=True)
    return [read_run(path.read_bytes()).run for path in documents]


def _went(case: CaseResult) -> str:
    if case.suspended:
        return "set_aside"
    statuses = {v.status for v in case.verdicts}
    return "failed" if "fail" in statuses else "unjudged" if "error" in statuses else "passed"


def _data(page: Path) -> dict[str, Any]:
    text = page.read_text(encoding="utf-8")
    found = text.split('<script type="application/json" data-cases>', 1)[1].split("</script>")[0]
    data: dict[str, Any] = json.loads(found)
    return data


def test_every_case_of_a_suite_has_its_verdict_in_each_run_on_the_suites_cases_page(built: Path):
    for tenant, suite in (("acme", "support"), ("acme", "refund-agent")):
        runs = _runs(built, tenant, suite)
        cases = {case.case_id for run in runs for case in run.results}
        for language in ("", "it/"):
            page = built / "site" / language / "cases" / tenant / suite / "index.html"
            data = _data(page)
            assert data["keys"] == [run.key for run in runs]
            assert data["runs"] == f"../../../runs/{tenant}/{suite}/"
            width = len(data["checks"]) + 1
            for case in cases:
                assert f'id="{case_anchor(case)}"' in page.read_text(encoding="utf-8")
                letters = data["cases"][case]
                shown = [
                    (run.key, STATUS[letters[n * width]])
                    for n, run in enumerate(runs)
                    if letters[n * width] != "."
                ]
                measured = [
                    (run.key, _went(c)) for run in runs for c in run.results if c.case_id == case
                ]
                assert shown == measured, (language, case)


def test_a_case_view_and_the_suites_grid_lead_to_the_cases_history(built: Path):
    run = _runs(built, "acme", "refund-agent")[0]
    for language in ("", "it/"):
        locale = language.rstrip("/") or "en"
        label = html.escape(LABELS[locale]["case.history"], quote=False)
        text = (
            built / "site" / language / "runs/acme/refund-agent" / run.key / "index.html"
        ).read_text(encoding="utf-8")
        grid = (built / "site" / language / "suites/acme/refund-agent/index.html").read_text(
            encoding="utf-8"
        )
        for case in run.results:
            anchor = case_anchor(case.case_id)
            assert f'<a href="../../../../cases/acme/refund-agent/#{anchor}">{label}</a>' in text
            assert f'<a href="../../../cases/acme/refund-agent/#{anchor}">' in grid


def test_the_search_of_each_language_finds_a_case_at_its_place(built: Path):
    for language in ("", "it/"):
        index = json.loads(
            (built / "site" / language / "search" / "search_index.json").read_text("utf-8")
        )
        found = [e["location"] for e in index["docs"] if e["title"].startswith("hasty-refund ·")]
        assert found == ["cases/acme/refund-agent/#case-hasty-refund"]


def test_every_table_of_the_site_has_a_caption_or_headers_with_scope(built: Path):
    tables = 0
    for page in (built / "site").rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        for table in text.split("<table")[1:]:
            table = table.split("</table>", 1)[0]
            heads = len(re.findall(r"<th[ >]", table))
            scoped = table.count("<th scope=")
            assert "<caption>" in table or (heads and scoped == heads), (page, table[:300])
            tables += 1
    assert tables > 100


def test_a_table_of_moments_says_their_zone(built: Path):
    for language, said in (("", "Measured on (UTC)"), ("it/", "Misurata il (UTC)")):
        for page in ("index.html", "suites/acme/support/index.html"):
            assert said in (built / "site" / language / page).read_text(encoding="utf-8")
