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

from generator.account.costs import bill
from generator.document.codec import read_run
from generator.document.disclosure import Disclosure
from generator.document.model import Run
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.files import read_document
from generator.reading import as_json, explain
from generator.reading.formats import formats
from generator.reading.plurals import worded
from generator.site.history import SHORT_COMMIT, SuiteRuns
from generator.site.labels import LABELS, LOCALES
from generator.site.pages import Site
from generator.site.summary import summarise
from generator.site.templates import environment
from tests._helpers import a_corpus_run, a_planted_run
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
    table = body.split(f'<th scope="col">{LABELS[locale]["column.commit"]}</th>', 1)[1]
    rows = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    # The date heads each row; the commit is its third cell after it.
    return [html.unescape(re.sub(r"<[^>]+>", "", row.split("<td>")[3])).strip() for row in rows]


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


@cache
def documents() -> tuple[Run, ...]:
    """The demo's runs, every digline document of the corpus and a run with payload in every
    field, as read and migrated: what each held before redaction."""
    paths = sorted((REPOSITORY / "runs").rglob("*.json")) + sorted(
        (CORPUS / "digline").glob("*.json")
    )
    planted = read_run(json.dumps(a_planted_run()).encode()).run
    return (*(read_document(path).run for path in paths), planted)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_run_page_names_as_withheld_only_what_its_run_held(locale: str):
    t, f = LABELS[locale], formats(locale)
    said = {"reasons": 0, "set_aside": 0, "metadata": 0, "arguments": 0}
    for full in documents():
        run = redact(full, Disclosure(run_metadata=["ticket"]))
        lines = site(locale).withheld(run)
        verdicts = [*(v for case in full.results for v in case.verdicts), *full.aggregate]
        held = {
            "reasons": sum(v.reason is not None for v in verdicts),
            "set_aside": sum(case.suspended_reason is not None for case in full.results),
            "metadata": sum(key != "ticket" for key in full.metadata),
        }
        for key, count in held.items():
            line = worded(t, f"withheld.{key}", count, f) if count else None
            forms = [t[f"withheld.{key}.{form}"].split("{count}")[-1] for form in ("one", "other")]
            found = [said for said in lines if said.endswith(tuple(forms))]
            assert found == ([line] if line else []), (run.key, key)
            said[key] += bool(count)
        calls = [
            step
            for case in full.results
            for response in case.responses or ()
            for step in [*(response.tool_calls or ()), *(response.steps or ())]
            if not hasattr(step, "actor") or step.actor == "tool"
        ]
        assert (t["withheld.arguments"] in lines) == bool(calls), run.key
        said["arguments"] += bool(calls)
    assert all(said.values()), said  # each line is said of some run, and not of others


def _released_as_shown(released: dict[str, Any], locale: str) -> list[str]:
    """What ``runsite show --json`` says a run released, in the words of the run's page."""
    t = LABELS[locale]
    labels = {
        "run_metadata": "released.run_metadata",
        "score_metadata": "released.score_metadata",
        "artifacts": "released.artifacts",
        "tool_names": "released.tool_names",
    }
    return [
        t["released.tool_names.all"] if names is True else t[label].format(names=", ".join(names))
        for key, label in labels.items()
        if (names := released[key])
    ]


def test_show_and_the_report_release_the_same_items_and_only_those_the_run_holds(
    runsite, archive, tmp_path
):
    config = archive / "runsite.toml"
    config.write_text(
        config.read_text()
        + 'run_metadata = ["ticket", "release"]\nscore_metadata = ["unit", "note"]\n'
        + 'artifacts = ["prompts/system.txt", "policy.md", "absent.md"]\n'
        + 'tool_names = ["lookup_order", "refund", "search"]\n',
        encoding="utf-8",
    )
    incoming = tmp_path / "planted.json"
    incoming.write_text(json.dumps(a_planted_run() | {"suite": "planted"}), encoding="utf-8")
    imported = runsite("import", "--root", str(archive), str(REPOSITORY / "runs"), str(incoming))
    assert imported.exit_code == 0, imported.output
    listed = json.loads(runsite("list", "--json", "--root", str(archive)).stdout)
    released: dict[str, Any] = {}
    reported: set[str] = set()
    for entry in listed:
        shown = json.loads(runsite("show", entry["key"], "--json", "--root", str(archive)).stdout)
        released[entry["suite"]] = shown["released"]
        text = runsite("show", entry["key"], "--root", str(archive)).stdout
        for key, names in shown["released"].items():
            assert (f"{key}: " in text) == bool(names), (entry["key"], key)
        if entry["suite"] in reported:
            continue  # a report of each suite's latest run
        reported.add(entry["suite"])
        for locale in LOCALES:
            report = runsite("report", entry["key"], "--locale", locale, "--root", str(archive))
            items = report.stdout.split('<ul class="runsite-released">', 1)[1].split("</ul>")[0]
            lines = [html.unescape(item.strip()) for item in items.split("<li>")[1:]]
            expected = _released_as_shown(shown["released"], locale)
            assert lines == (expected or [LABELS[locale]["run.released.none"]]), entry["key"]
    assert released["expense-triage"] == {
        "run_metadata": [],
        "score_metadata": [],
        "artifacts": [],
        "tool_names": False,
    }
    assert released["refund-agent"]["tool_names"] == ["lookup_order", "refund"]
    assert released["refund-agent"]["artifacts"] == ["policy.md"]
    assert released["planted"]["run_metadata"] == ["ticket"]
    assert released["planted"]["score_metadata"] == ["unit"]


def test_a_case_grid_leaves_unmarked_only_the_cells_of_checks_that_passed():
    # The style marks an unmarked cell passed (✓), so a cell of a case set aside is marked.
    set_aside = 0
    for run in runs():
        body = site("en").run(run, None, None, None).html
        grid = body.split('<div class="runsite-matrix">', 1)[1].split("</tbody>", 1)[0]
        rows = grid.split("<tbody>\n", 1)[1].splitlines()
        for line, case in zip(rows, run.results, strict=True):
            cells = line.split("<td")[1:]
            if case.suspended:
                assert cells == [f' class=s colspan="{_width(body)}">set aside']
                set_aside += 1
                continue
            statuses = {v.assertion: v.status for v in case.verdicts}
            unmarked = sum(cell.startswith(">") for cell in cells)
            assert unmarked <= sum(status == "pass" for status in statuses.values()), run.key
    assert set_aside > 0


def _width(body: str) -> int:
    """The checks a run page's case grid has a column for."""
    head = body.split('<div class="runsite-matrix">', 1)[1].split("</thead>", 1)[0]
    return head.count('<th scope="col">') - 1
