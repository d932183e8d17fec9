"""Each case of a suite has a page of its own, at an address made of its id, the same in both
languages: its verdict in every run of the suite that measured it, newest first, each a link to
the case on that run's page; its run views and the search lead to it."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from generator.document.codec import read_run
from generator.document.model import CaseResult, Run
from generator.site.cases import case_anchor
from generator.site.labels import LABELS
from generator.site.writer import case_folder

STATUS = {"p": "passed", "f": "failed", "e": "unjudged", "s": "set_aside"}


def _runs(built: Path, tenant: str, suite: str) -> list[Run]:
    """The suite's runs, newest first (their keys start with the moment they were measured)."""
    documents = sorted((built / "runs" / tenant / suite).glob("*.json"), reverse=True)
    return [read_run(path.read_bytes()).run for path in documents]


def _went(case: CaseResult) -> str:
    if case.suspended_reason is not None or case.suspended:
        return "set_aside"
    statuses = {v.status for v in case.verdicts}
    return "failed" if "fail" in statuses else "unjudged" if "error" in statuses else "passed"


def test_every_case_has_a_page_in_both_languages_with_its_verdict_in_each_run(built: Path):
    for tenant, suite in (("acme", "support"), ("acme", "refund-agent")):
        runs = _runs(built, tenant, suite)
        cases = {case.case_id for run in runs for case in run.results}
        for case in cases:
            measured = [
                (run.key, _went(c)) for run in runs for c in run.results if c.case_id == case
            ]
            for language in ("", "it/"):
                page = built / "site" / language / "cases" / tenant / suite / case_folder(case)
                text = (page / "index.html").read_text(encoding="utf-8")
                rows = re.findall(
                    r'<tr><th scope=row><a href="\.\./\.\./\.\./\.\./runs/[^/]+/[^/]+/([^/]+)/#'
                    rf'{re.escape(case_anchor(case))}">.*?<td class=(\w)>',
                    text,
                )
                assert [(key, STATUS[letter]) for key, letter in rows] == measured, page


def test_a_case_view_on_a_run_page_leads_to_the_cases_page(built: Path):
    run = _runs(built, "acme", "refund-agent")[0]
    for language in ("", "it/"):
        text = (
            built / "site" / language / "runs/acme/refund-agent" / run.key / "index.html"
        ).read_text(encoding="utf-8")
        label = html.escape(LABELS[language.rstrip("/") or "en"]["case.history"], quote=False)
        for case in run.results:
            link = f'<a href="../../../../cases/acme/refund-agent/{case_folder(case.case_id)}/">'
            assert f"{link}{label}</a>" in text


def test_the_search_of_each_language_finds_a_case_at_its_page(built: Path):
    for language in ("", "it/"):
        index = json.loads(
            (built / "site" / language / "search" / "search_index.json").read_text("utf-8")
        )
        found = [e["location"] for e in index["docs"] if e["title"].startswith("hasty-refund ·")]
        assert found == ["cases/acme/refund-agent/case-hasty-refund/"]
        assert (built / "site" / language / found[0] / "index.html").is_file()


def test_a_case_folder_is_one_every_file_system_keeps_and_tells_ids_apart():
    ids = ["order", "Order", "a.b", "a_2e_b", "..", "CON", "ü", "x" * 300, "x" * 299 + "y"]
    folders = [case_folder(case) for case in ids]
    assert len(set(folders)) == len(ids)
    assert len({folder.casefold() for folder in folders}) == len(ids)
    assert all(re.fullmatch(r"case-[a-z0-9_-]{1,96}", folder) for folder in folders), folders
    assert case_folder("hasty-refund") == "case-hasty-refund"
