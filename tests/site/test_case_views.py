"""Each case of a run in a place of its own on the run page: its verdicts, the trajectories its
answers took with the checks that judged them beside, a way to its history; the grid's cells
lead to it."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from markupsafe import escape

from generator.site.cases import case_anchor
from generator.site.labels import LABELS, LOCALES
from generator.site.pages import Site, comparison
from generator.site.templates import environment
from tests._helpers import a_corpus_run

AGENT = sorted((Path(__file__).resolve().parents[2] / "runs/acme/refund-agent").glob("*.json"))[-1]
RUN = a_corpus_run(AGENT)


def _page(locale: str) -> str:
    return Site(environment(), locale).run(RUN, None, None, None).html


def _view(html: str, case: str) -> str:
    opening = f'<details class="runsite-case" id="{case_anchor(case)}">'
    assert html.count(opening) == 1
    return html.split(opening, 1)[1].split("</details>", 1)[0]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_case_has_its_verdicts_and_a_link_to_its_history_in_its_own_place(locale):
    html = _page(locale)
    for case in RUN.results:
        view = _view(html, case.case_id)
        rows = re.findall(r"<tr><th scope=row>([^<]+)<td class=(\w)>", view)
        assert [name for name, _ in rows] == [v.assertion for v in case.verdicts]
        assert [letter for _, letter in rows] == [v.status[0] for v in case.verdicts]
        assert f'href="../../../../cases/acme/refund-agent/#{case_anchor(case.case_id)}"' in view
        assert str(escape(LABELS[locale]["case.history"])) in view


@pytest.mark.parametrize("locale", LOCALES)
def test_a_case_shows_the_trajectory_its_answers_took_with_a_failed_tools_called_beside_it(
    locale,
):
    view = _view(_page(locale), "hasty-refund")
    assert '<ol class="runsite-timeline"' in view
    judged = view.split('class="runsite-judged"', 1)[1].split("</p>", 1)[0]
    assert "<span class=f>tools_called</span>" in judged
    assert "<span class=p>before</span>" in judged
    assert "signed" not in judged  # not a check of the trajectory


@pytest.mark.parametrize("locale", LOCALES)
def test_a_trajectorys_judged_line_names_the_cases_each_check_passed_and_failed_on(locale):
    html = _page(locale)
    t = LABELS[locale]
    failed = t["trajectory.failed_on"].format(cases="hasty-refund, on-time")
    assert f"tools_called</span> {failed}" in html
    passed = t["trajectory.passed_on"].format(cases="late-delivery, damaged-item")
    assert f"before</span> {passed}" in html


def test_each_cell_of_the_grid_leads_to_its_cases_place():
    html = _page("en")
    grid = html.split('<div class="runsite-matrix">', 1)[1].split("</table>", 1)[0]
    for case in RUN.results:
        anchor = case_anchor(case.case_id)
        assert grid.count(f'href="#{anchor}"') == 1 + len(case.verdicts)


def test_a_comparisons_case_leads_to_its_place_on_the_runs_page():
    before = a_corpus_run(sorted(AGENT.parent.glob("*.json"))[-2])
    compared = comparison(RUN, before)
    site = Site(environment(), "en")
    html = site.diff(RUN, before, compared, "previous").html
    to_run = f"../../../../../runs/acme/refund-agent/{RUN.key}/"
    for case in RUN.results:
        link = f'<th scope=row><a href="{to_run}#{case_anchor(case.case_id)}">{case.case_id}</a>'
        assert link in html


@pytest.mark.parametrize("locale", LOCALES)
def test_a_comparison_page_opens_on_the_runs_status_and_its_headings_never_skip_a_level(locale):
    before = a_corpus_run(sorted(AGENT.parent.glob("*.json"))[-2])
    html = Site(environment(), locale).diff(RUN, before, comparison(RUN, before), "previous").html
    levels = [int(n) for n in re.findall(r"<h([1-6])[ >]", html)]
    assert levels[0] == 1
    assert all(b - a <= 1 for a, b in pairwise(levels)), levels
    counts = html.split('<p class="runsite-counts">', 1)[1]
    assert counts.startswith('<span class="runsite-badge failed">')


@pytest.mark.parametrize("locale", LOCALES)
def test_a_comparison_where_no_check_changed_says_so(locale):
    html = Site(environment(), locale).diff(RUN, RUN, comparison(RUN, RUN), "previous").html
    assert str(escape(LABELS[locale]["diff.nothing_changed"])) in html
    before = a_corpus_run(sorted(AGENT.parent.glob("*.json"))[-2])
    changed = Site(environment(), locale).diff(RUN, before, comparison(RUN, before), "previous")
    assert str(escape(LABELS[locale]["diff.nothing_changed"])) not in changed.html


def test_an_italian_run_page_names_stop_reasons_and_settings_in_italian():
    html = _page("it")
    for raw in ("tool_use", "end_turn", "model=", "provider="):
        assert raw not in html, raw
    assert "ha chiesto uno strumento" in html
    assert "modello: agent:handle" in html


def _in_order(html: str, *marks: str) -> None:
    places = [html.index(mark) for mark in marks]
    assert places == sorted(places), marks


def _contents_lead_to_their_sections(html: str) -> None:
    toc = html.split('<nav class="runsite-toc"', 1)[1].split("</nav>", 1)[0]
    anchors = re.findall(r'href="#([^"]+)"', toc)
    assert len(anchors) >= 3
    assert all(f'<h2 id="{anchor}">' in html for anchor in anchors)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_run_page_says_its_verdict_and_what_failed_before_its_tables_and_its_prose_after(
    locale,
):
    html = _page(locale)
    t = LABELS[locale]
    _in_order(
        html,
        '<p class="runsite-summary"><span class="runsite-badge failed">',
        '<ul class="runsite-first">',
        '<nav class="runsite-toc"',
        '<h2 id="checks">',
        '<h2 id="cases">',
        '<h2 id="facts">',
        '<h2 id="reading">',
    )
    first = html.split('<ul class="runsite-first">', 1)[1].split("</ul>", 1)[0]
    failed = t["first.on_cases.other"].format(check="tools_called", count=2)
    assert f"{escape(t['first.checks.failed'])}</b> {failed}" in first
    assert '<a href="#case-hasty-refund">hasty-refund</a>' in first
    _contents_lead_to_their_sections(html)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_comparison_page_says_what_got_worse_before_its_tables_and_its_reading_after(locale):
    before = a_corpus_run(sorted(AGENT.parent.glob("*.json"))[-2])
    html = Site(environment(), locale).diff(RUN, before, comparison(RUN, before), "previous").html
    _in_order(
        html,
        '<p class="runsite-counts">',
        '<ul class="runsite-first">',
        '<nav class="runsite-toc"',
        '<h2 id="checks">',
        '<h2 id="reading">',
    )
    first = html.split('<ul class="runsite-first">', 1)[1].split("</ul>", 1)[0]
    assert first.startswith('\n<li class="worse">')
    assert '#case-hasty-refund">hasty-refund</a> · tool_called_with' in first
    _contents_lead_to_their_sections(html)


def test_a_printed_run_page_is_headed_by_its_moment_as_the_page_writes_it():
    style = _page("en").split("<style>@page", 1)[1].split("</style>", 1)[0]
    assert "30 Nov 2026" in style.replace("\\20 ", " ") or "30\\20 Nov\\20 2026" in style
    assert "T01" not in style and "2026-11-30" not in style
