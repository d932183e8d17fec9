"""Every kind of page as each reader meets it, in Debian's chromium: both languages, both schemes,
on a phone (390 px) and on a desktop (1,400 px). On each, the first cell and the verdict of
every table row stay on screen, a table wider than the screen says so, no two words of a chart
overlap, every mark of a chart stands 3:1 against the page and every word 4.5:1 (from the
colours the browser drew), plotly.js is fetched only where a chart is drawn, and the keyboard's
place is drawn. A page is loaded once a
language and scheme, and looked at again after the window is resized to the other width."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.site._browser import SHOTS, Hosted, Visit, pages

pytestmark = pytest.mark.slow
"""Each test drives a browser: ``make test-fast`` leaves them out."""

WIDTHS = (390, 1400)
KINDS = ["home", "suite", "run", "sampled", "diff", "case", "board"]
FRAMES = ".runsite-table, .runsite-grid, .runsite-matrix, .runsite-compare"

LOOKED_AT = """frames => {
  const parse = text => {
    const found = /rgba?\\(([^)]+)\\)/.exec(text || "");
    if (!found) return null;
    const parts = found[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const linear = v => (v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  const luminance = c => 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  const ground = parse(getComputedStyle(document.body).backgroundColor);
  const contrast = (colour, alpha) => {
    const c = parse(colour);
    if (!c || c[3] * alpha === 0) return 0;
    const a = c[3] * alpha;
    const seen = [0, 1, 2].map(i => c[i] * a + ground[i] * (1 - a));
    const [high, low] = [luminance(seen), luminance(ground)].sort((x, y) => y - x);
    return (high + 0.05) / (low + 0.05);
  };
  const alpha = (element, property) => {
    let a = Number(getComputedStyle(element)[property] || 1);
    for (let e = element; e && e.tagName !== "svg"; e = e.parentElement) {
      a *= Number(getComputedStyle(e).opacity || 1);
    }
    return a;
  };
  const shown = e => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  // A mark reads where its edge or its fill does.
  const markContrast = path => {
    const style = getComputedStyle(path);
    const stroke = style.stroke !== "none" && parseFloat(style.strokeWidth) > 0
      ? contrast(style.stroke, alpha(path, "strokeOpacity")) : 0;
    const fill = style.fill !== "none" ? contrast(style.fill, alpha(path, "fillOpacity")) : 0;
    return Math.max(stroke, fill);
  };
  // Plotly's charts, and the board's own SVG.
  const plotted = [...document.querySelectorAll(".runsite-chart svg.main-svg")].map(svg => svg.closest(".runsite-chart"));
  const charts = [...new Set(plotted)].map(chart => [chart,
    ".barlayer path, .scatterlayer path.point, .scatterlayer path.js-line, .shapelayer path"]);
  document.querySelectorAll("svg.runsite-board-chart").forEach(chart => charts.push([chart,
    ".point line, .point circle, .point rect"]));
  const chartsSeen = charts.map(([chart, marked]) => {
    const words = [...chart.querySelectorAll("text")].filter(t => t.textContent.trim() && shown(t));
    const boxes = words.map(t => [t.textContent, t.getBoundingClientRect()]);
    const overlaps = [];
    boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
      if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) {
        overlaps.push([a, b]);
      }
    }));
    const faintWords = words.map(t => [t.textContent, contrast(getComputedStyle(t).fill, alpha(t, "fillOpacity"))])
      .filter(([, c]) => c < 4.5);
    const marks = [...chart.querySelectorAll(marked)].filter(shown).map(path => [path.getAttribute("class") || path.parentElement.getAttribute("class"), markContrast(path)]);
    const keys = [...chart.querySelectorAll(".legend .legendsymbols")]
      .map(group => [...group.querySelectorAll("path")].filter(shown))
      .filter(paths => paths.length)
      .map(paths => ["legend", Math.max(...paths.map(markContrast))]);
    const faintMarks = [...marks, ...keys].filter(([, c]) => c < 3);
    return {label: chart.getAttribute("aria-label"), words: words.length, marks: marks.length,
            overlaps, faintWords, faintMarks};
  });
  const tables = [...document.querySelectorAll(frames)].map(frame => {
    const wrap = frame.querySelector(".md-typeset__scrollwrap") || frame;
    const rows = [...frame.querySelectorAll("tbody tr")].filter(r => r.offsetParent);
    const edges = atEnd => {
      wrap.scrollLeft = atEnd ? wrap.scrollWidth : 0;
      return rows.map(r => [r.cells[0], r.querySelector(".runsite-verdict")].filter(Boolean)
        .map(c => { const b = c.getBoundingClientRect(); return [b.left, b.right]; }));
    };
    const seen = [edges(true), edges(false)];
    const wide = wrap.scrollWidth > wrap.clientWidth + 1;
    return {rows: rows.length, edges: seen.flat(2), wide, cued: frame.hasAttribute("data-more")};
  });
  return {charts: chartsSeen, tables, width: document.scrollingElement.scrollWidth,
          scheme: document.body.dataset.mdColorScheme};
}"""


@pytest.fixture(scope="module")
def board_served(boarded: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Hosted, directory=str(boarded))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _url(kind: str, language: str, built: Path, served: str, board_served: str) -> str:
    prefix = "/it" if language == "it" else ""
    if kind == "board":
        return f"{board_served}{prefix}/boards/acme/support/"
    return f"{served}{prefix}{pages(built)[kind]}"


def _looked_at(page: Page, width: int) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(400)  # the charts are drawn again at the new width
    drawn = page.locator(".runsite-chart").count()
    if drawn:
        page.wait_for_function(
            "n => document.querySelectorAll('.runsite-chart svg.main-svg').length >= n",
            arg=drawn,
        )
    seen: dict[str, Any] = page.evaluate(LOOKED_AT, FRAMES)
    return seen


def _focus_drawn(page: Page) -> list[str]:
    """Tab into the page's article; the outline the focused element wears there."""
    for _ in range(40):
        page.keyboard.press("Tab")
        inside = page.evaluate(
            "() => Boolean(document.activeElement && document.activeElement.closest('article'))"
        )
        if inside:
            break
    ring: list[str] = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.tagName, s.outlineStyle, s.outlineWidth]; }"
    )
    return ring


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_page_reads_whole_on_a_phone_and_a_desktop_in_either_language_and_scheme(
    kind, language, scheme, built, served, board_served, browser: Browser
):
    visit = Visit(browser, _url(kind, language, built, served, board_served), WIDTHS[0], scheme)
    try:
        page = visit.page
        seen = {width: _looked_at(page, width) for width in WIDTHS}
        if kind == "case":
            page.screenshot(path=str(SHOTS / f"case-page-{language}-{scheme}.png"))
        ring = _focus_drawn(page)
        fetched = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    finally:
        visit.close()
    assert visit.errors == [] and visit.outside == []
    charted = any(seen[width]["charts"] for width in WIDTHS)
    plotted = kind in ("suite", "sampled", "diff")
    assert charted == (plotted or kind == "board"), kind
    assert any("plotly" in url for url in fetched) == plotted
    for width, looked in seen.items():
        assert looked["scheme"] == ("slate" if scheme == "dark" else "default")
        assert looked["width"] <= width, (width, "the page scrolls sideways")
        for chart in looked["charts"]:
            assert chart["words"] and chart["marks"], chart
            assert chart["overlaps"] == [], (width, chart["label"], chart["overlaps"])
            assert chart["faintWords"] == [], (width, chart["label"], chart["faintWords"])
            assert chart["faintMarks"] == [], (width, chart["label"], chart["faintMarks"])
        for table in looked["tables"]:
            for left, right in table["edges"]:
                assert -1 <= left < right <= width + 1, (width, table)
            assert table["cued"] or not table["wide"], (width, "no cue that more lies to the right")
    assert any(table["rows"] for width in WIDTHS for table in seen[width]["tables"])
    assert ring[1] != "none" and ring[2] != "0px", ring


@pytest.mark.parametrize("language", ["en", "it"])
def test_an_address_with_no_page_answers_in_its_language_with_a_way_home(
    language, built, served, browser: Browser
):
    prefix = "/it" if language == "it" else ""
    visit = Visit(browser, f"{served}{prefix}/runs/acme/support/gone/", 390)
    try:
        page = visit.page
        page.wait_for_selector("article h1")
        lang = page.locator("html").get_attribute("lang")
        heading = page.locator("article h1").inner_text()
        page.locator("article a").first.click()
        page.wait_for_load_state("load")
        landed = page.url
        home = page.locator("article h1").inner_text()
    finally:
        visit.close()
    assert lang == language
    assert heading == {"en": "No page here", "it": "Nessuna pagina qui"}[language]
    assert landed == f"{served}{prefix}/"
    assert home == {"en": "Evaluation runs", "it": "Esecuzioni delle valutazioni"}[language]
    # The missing address itself is the one request that fails.
    assert [e for e in visit.errors if "/gone/" not in e] == []


def test_the_palette_toggle_switches_the_scheme_and_the_charts_follow(
    built, served, browser: Browser
):
    visit = Visit(browser, served + pages(built)["suite"], 1400)
    try:
        page = visit.page
        page.wait_for_selector(".runsite-chart svg.main-svg")
        marker = ".runsite-chart .scatterlayer path.point"
        before = page.locator(marker).first.evaluate("p => getComputedStyle(p).fill")
        page.locator("label.md-header__button[for^='__palette']:visible").first.click()
        page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
        page.wait_for_timeout(300)
        after = page.locator(marker).first.evaluate("p => getComputedStyle(p).fill")
        named = page.locator("label.md-header__button[for^='__palette']:visible").first
        title = named.get_attribute("title")
    finally:
        visit.close()
    assert visit.errors == []
    assert before == "rgb(25, 118, 210)" and after == "rgb(100, 181, 246)"
    assert title == "Switch to the light scheme"


def test_a_page_read_in_the_dark_goes_to_paper_light_and_comes_back(
    built, served, browser: Browser
):
    visit = Visit(browser, served + pages(built)["sampled"], 1400, "dark")
    try:
        page = visit.page
        page.wait_for_selector(".runsite-chart svg.main-svg")
        marker = ".runsite-chart .scatterlayer path.point"
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        printed = page.evaluate("() => document.body.dataset.mdColorScheme")
        page.wait_for_timeout(300)
        ink = page.locator(marker).first.evaluate("p => getComputedStyle(p).fill")
        page.evaluate("window.dispatchEvent(new Event('afterprint'))")
        back = page.evaluate("() => document.body.dataset.mdColorScheme")
    finally:
        visit.close()
    assert visit.errors == []
    assert (printed, ink, back) == ("default", "rgb(33, 33, 33)", "slate")
