"""The built site in a real browser (Debian's chromium, driven by playwright): it draws every
chart, switches language to the same page, fetches nothing from outside 127.0.0.1, shows
markup in a case id as text, and logs no error. Screenshots land in tests/screenshots/."""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading
from typing import Any

import pytest
from click.testing import CliRunner

from generator.account.charts import unpacked
from generator.cli import cli
from generator.document.codec import read_run
from generator.document.numbers import at_precision
from generator.reading.formats import formats
from generator.site.labels import LABELS
from tests.site._browser import SHOTS, Quiet, Visit, first, pages
from tests.site.conftest import SCRIPT_CASE


def runsite_in(root, *args):
    """A runsite command on the archive at ``root``."""
    return CliRunner().invoke(cli, [*map(str, args), "--root", str(root)], catch_exceptions=False)


pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""


@pytest.mark.parametrize("name", ["home", "suite", "run", "run-it", "diff", "sampled"])
def test_a_page_draws_every_chart_with_no_error_and_nothing_from_outside(
    name, built, served, browser
):
    SHOTS.mkdir(exist_ok=True)
    visit = Visit(browser, served + pages(built)[name])
    try:
        expected, drawn = visit.charts_drawn()
        visit.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        assert drawn == expected
        assert visit.errors == []
        assert visit.outside == []
    finally:
        visit.close()


def test_the_language_switch_lands_on_the_same_run_in_italian(built, served, browser):
    path = pages(built)["run"]
    visit = Visit(browser, served + path)
    try:
        visit.page.locator('a.md-select__link[hreflang="it"]').first.dispatch_event("click")
        visit.page.wait_for_url(f"**/it{path}")
        assert visit.page.locator("html").get_attribute("lang") == "it"
        assert visit.page.locator("h2", has_text="Casi").count() == 1
    finally:
        visit.close()


def test_a_case_id_with_markup_shows_as_text_and_opens_no_dialog(built, served, browser):
    run = first(built, "runs/acme/planted")
    visit = Visit(browser, f"{served}/runs/acme/planted/{run}/")
    try:
        visit.page.wait_for_timeout(300)
        assert visit.page.locator(".runsite-matrix tbody th", has_text=SCRIPT_CASE).count() == 1
        assert visit.dialogs == []
    finally:
        visit.close()


def test_a_printed_run_page_opens_every_table(built, served, browser):
    visit = Visit(browser, served + pages(built)["sampled"])
    try:
        closed = visit.page.locator("details:not([open])").count()
        assert closed > 0
        visit.page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        assert visit.page.locator("details:not([open])").count() == 0
        visit.page.emulate_media(media="print")
        visit.page.pdf(path=str(SHOTS / "run.pdf"))
    finally:
        visit.close()


def test_searching_the_italian_site_finds_italian_pages(served, browser):
    visit = Visit(browser, f"{served}/it/")
    try:
        visit.page.keyboard.press("s")
        visit.page.locator("input.md-search__input").press_sequentially("Esecuzioni", delay=30)
        visit.page.wait_for_selector(".md-search-result__item")
        links = visit.page.locator(".md-search-result__item a").evaluate_all(
            "links => links.map(a => a.href)"
        )
        assert links and all("/it/" in link for link in links)
        assert visit.errors == []
    finally:
        visit.close()


def test_the_search_box_of_a_run_page_finds_the_sites_pages(built, served, browser):
    visit = Visit(browser, served + pages(built)["run"])
    try:
        visit.page.keyboard.press("s")
        visit.page.locator("input.md-search__input").press_sequentially("support", delay=30)
        visit.page.wait_for_selector(".md-search-result__item")
        links = visit.page.locator(".md-search-result__item a").evaluate_all(
            "links => links.map(a => a.href)"
        )
        assert any(link.endswith("/suites/acme/support/") for link in links)
        assert visit.errors == []
    finally:
        visit.close()


def test_hostile_names_open_no_dialog_on_any_page_or_in_search(
    tmp_path, archive, runsite, write_json, browser
):
    from tests._helpers import a_run_at

    hostile = '"><img src=x onerror=alert(1)>'
    # No folder name holds <, > or " (Windows refuses them): a tenant breaks out of an attribute
    # in single quotes, a suite is an entity that a page decoding it twice would make a tag.
    tenant, suite = "t' onmouseover='alert(1)", "s&lt;img src=x onerror=alert(1)&gt;"
    for second in (1, 2):
        run = a_run_at(second, tenant=tenant, suite=suite, environment=hostile)
        assert (
            runsite(
                "import", "--root", str(archive), str(write_json(run, f"{second}.json"))
            ).exit_code
            == 0
        )
    site = archive / "site"
    assert runsite("build", "--root", str(archive), "--out", str(site)).exit_code == 0
    for index in site.rglob("search_index.json"):
        # The theme shows an entry's title and text as HTML; a search that highlights a word
        # inside the tag breaks it, one that matches beside it would not.
        assert "<img" not in index.read_text(encoding="utf-8"), index
    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        pages = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html"))
        assert len(pages) >= 10
        for page in pages:
            visit = Visit(browser, base + ("" if page == "." else page + "/"))
            try:
                visit.page.wait_for_timeout(100)
                if page == ".":
                    visit.page.keyboard.press("s")
                    visit.page.locator("input.md-search__input").press_sequentially("onerror")
                    visit.page.wait_for_timeout(800)
                assert visit.dialogs == [], page
                assert visit.errors == [], page
            finally:
                visit.close()
    finally:
        server.shutdown()
        server.server_close()


def _sampled(built, key: str) -> dict[tuple[str, str], tuple[float, float, float, float, str]]:
    """Each sampled check of the support run ``key``, by (case, check): min, score, max and
    threshold at storage precision, and the status as a page names it."""
    run = read_run((built / "runs/acme/support" / f"{key}.json").read_bytes()).run
    where = [(case.case_id, case.verdicts) for case in run.results]
    where.append((LABELS["en"]["where.run"], run.aggregate))
    found = {}
    for case, verdicts in where:
        for v in verdicts:
            if v.sample_min is None or v.sample_max is None or v.score is None:
                continue
            found[(case, v.assertion)] = (
                at_precision(v.sample_min),
                at_precision(v.score),
                at_precision(v.sample_max),
                at_precision(v.threshold),
                LABELS["en"][f"status.{v.status}"],
            )
    return found


def test_a_run_pages_interval_table_holds_the_runs_own_numbers(built, served, browser):
    statuses = set()
    for document in sorted((built / "runs/acme/support").glob("*.json")):
        visit = Visit(browser, f"{served}/runs/acme/support/{document.stem}/")
        try:
            visit.charts_drawn()
            rows = visit.page.locator("table[data-rows-of] tbody tr").evaluate_all(
                "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
            )
        finally:
            visit.close()
        shown = {}
        for name, *numbers, status in rows:
            case, check = name.split(" · ")
            low, score, high, threshold = (float(n.replace(",", "")) for n in numbers)
            shown[(case, check)] = (low, score, high, threshold, status)
        expected = _sampled(built, document.stem)
        assert len(expected) > 10
        assert shown == expected
        statuses |= {status for *_, status in expected.values()}
    assert statuses == {"passed", "failed"}


def test_a_comparison_chart_draws_both_runs_own_numbers(built, served, browser):
    path = pages(built)["diff"]
    now, before = path.strip("/").split("/")[-2:]
    visit = Visit(browser, served + path)
    try:
        visit.charts_drawn()
        charts = visit.page.locator(".runsite-chart").evaluate_all(
            "charts => charts.map(c => [c.getAttribute('aria-label'),"
            " c.data.slice(0, 2).map(t => [t.y, t.base, t.x])])"
        )
    finally:
        visit.close()
    sides = (_sampled(built, before), _sampled(built, now))
    checked = 0
    for check, traces in charts:
        for side, (cases, bases, widths) in zip(sides, traces, strict=True):
            for case, base, width in zip(cases, bases, widths, strict=True):
                if base is None:
                    assert (case, check) not in side
                    continue
                low, _, high, _, _ = side[(case, check)]
                assert (base, width) == (low, pytest.approx(max(high - low, 0.004)))
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_suite_pages_history_tables_print_figures_as_the_site_does(
    built, served, browser, language
):
    prefix = "" if language == "en" else "/it"
    visit = Visit(browser, f"{served}{prefix}/suites/acme/support/")
    try:
        visit.charts_drawn()
        tables = visit.page.locator("table[data-rows-of]").evaluate_all(
            "tables => tables.map(t => [t.dataset.rowsOf,"
            " [...t.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent))])"
        )
        sources = visit.page.locator("script[data-chart]").evaluate_all(
            "scripts => scripts.map(s => [s.dataset.chart, s.textContent])"
        )
    finally:
        visit.close()
    data = {name: json.loads(text) for name, text in sources}
    figures = formats(language)
    assert len(tables) == len(data) > 1
    for name, rows in tables:
        d = data[name]
        marks = dict(d["marks"])
        # A pass rate's history writes shares, its rate and Wilson band, and has no threshold.
        width = 3 if d.get("percent") else 4

        def written(n: int | None, d: dict[str, Any] = d) -> str:
            if n is None:
                return ""
            if d.get("percent"):
                return figures.share(n / 1_000_000)
            return figures.score(n / 1_000_000, d["digits"])

        expected = [
            [
                tick,
                *(written(n) for n in unpacked(d["rows"])[4 * at : 4 * at + width]),
                marks.get(at, ""),
            ]
            for at, tick in enumerate(d["ticks"])
        ]
        assert rows == expected
        assert any(cell for row in rows for cell in row[1 : 1 + width])


SEEN = """rows => rows.map(row => [row.querySelector("th").textContent,
  [...row.querySelectorAll("td")].map(cell => {
    const mark = where => getComputedStyle(cell, where).content.replace(/^"|"$/g, "");
    const [before, after] = [mark("::before"), mark("::after")];
    return (before === "none" ? "" : before) + cell.textContent.trim() + (after === "none" ? "" : after);
  })])"""
"""Each row of a run page's cases as a reader sees it: the case, and each cell's text with the
marks its style adds before and after it."""


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_set_aside_case_reads_set_aside_and_never_passed_on_the_page_and_in_the_report(
    built, served, browser, tmp_path, language
):
    run = first(built, "runs/acme/planted")
    prefix = "" if language == "en" else "/it"
    report = tmp_path / "report.html"
    made = runsite_in(built, "report", "planted@latest", "--locale", language, "--out", report)
    assert made.exit_code in (0, 1, 2), made.output
    seen = []
    for url in (f"{served}{prefix}/runs/acme/planted/{run}/", report.as_uri()):
        visit = Visit(browser, url)
        try:
            seen.append(visit.page.locator(".runsite-matrix tbody tr").evaluate_all(SEEN))
        finally:
            visit.close()
    page, in_report = seen
    assert page == in_report
    set_aside = LABELS[language]["status.suspended"]
    assert ["set-aside", [f"– {set_aside}"]] in page
    assert any(cell.endswith(" ✓") for _, cells in page for cell in cells)  # a pass is marked


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_charts_axes_write_numbers_with_the_separators_of_the_pages_tables(
    built, served, browser, language
):
    prefix = "" if language == "en" else "/it"
    run = first(built, "runs/acme/support")
    ticks = []
    for path in ("/suites/acme/support/", f"/runs/acme/support/{run}/"):
        visit = Visit(browser, f"{served}{prefix}{path}")
        try:
            visit.charts_drawn()
            ticks += visit.page.locator(".xtick text, .ytick text").evaluate_all(
                "texts => texts.map(t => t.textContent)"
            )
        finally:
            visit.close()
    written = formats(language).score(0.2, 1)  # 0.2, 0,2: as the page's tables write it
    fractions = {tick for tick in ticks if re.fullmatch(r"0[.,]\d+", tick)}
    assert written in fractions
    assert {tick[1] for tick in fractions} == {written[1]}


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("width", [390, 1400])
def test_a_comparisons_tests_read_whole_on_a_phone_and_a_desktop(
    built, served, browser, language, width
):
    """Each check's tests are on screen whole: a row of the table on a desktop, a card of named
    lines on a phone, with nothing past the screen's edge; each p written in the page's
    language; the mean change drawn where scores moved."""
    path = pages(built)["diff"]
    if language == "it":
        path = "/it" + path
    visit = Visit(browser, served + path, width=width)
    try:
        page = visit.page
        table = page.locator(".runsite-chance table")
        table.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"chance-{language}-{width}.png"))
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
        cells = page.locator(".runsite-chance td[data-label]").evaluate_all(
            "cells => cells.map(c => { const r = c.getBoundingClientRect();"
            " return [c.dataset.label, c.innerText, r.left, r.right, getComputedStyle(c, '::before').content]; })"
        )
        drawn = page.locator(".runsite-chance svg.runsite-interval").count()
    finally:
        visit.close()
    assert cells and visit.errors == []
    mark = "," if language == "it" else "."
    for label, shown, left, right, before in cells:
        assert 0 <= left < right <= width, (label, shown)
        if label.endswith(" p") and shown != "—":
            assert re.fullmatch(
                rf"(< )?\d{re.escape(mark)}\d+ \((< )?\d{re.escape(mark)}\d+\)",
                shown.strip().split("\n")[-1].strip(),
            ), shown
        assert (before != "none") == (width == 390), before
    assert drawn >= 1
