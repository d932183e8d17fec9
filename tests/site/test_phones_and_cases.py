"""A reader's second pass, in a real browser: a case opens in its place from the grid and from
its address, the language switch keeps it, and the case filter shows where the keyboard is.
(Every page's tables on a phone, and where plotly.js is fetched: ``test_every_reader``.)"""

from __future__ import annotations

import pytest

from tests.site._browser import SHOTS, Visit, pages

pytestmark = pytest.mark.slow
"""Each test drives a browser: ``make test-fast`` leaves them out."""


@pytest.mark.parametrize("width", [390, 1400])
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_grid_cell_opens_its_case_on_its_verdicts_and_trajectory(
    built, served, browser, width, language
):
    path = pages(built)["run"]
    visit = Visit(browser, served + ("/it" if language == "it" else "") + path, width=width)
    try:
        page = visit.page
        link = page.locator('.runsite-matrix td a[href="#case-hasty-refund"]').first
        link.scroll_into_view_if_needed()
        link.click()
        case = page.locator("details#case-hasty-refund")
        page.wait_for_function("() => document.querySelector('#case-hasty-refund').open")
        box = case.bounding_box()
        page.screenshot(path=str(SHOTS / f"case-{language}-{width}.png"))
        assert box is not None and 0 <= box["y"] < 900
        assert case.locator("tbody tr").count() >= 1
        assert case.locator("ol.runsite-timeline li").count() >= 1
        assert case.locator(".runsite-judged span.f", has_text="tools_called").count() == 1
    finally:
        visit.close()
    assert visit.errors == []


def test_a_case_address_opens_its_case_when_the_page_loads_and_marks_it(built, served, browser):
    visit = Visit(browser, served + pages(built)["run"] + "#case-on-time")
    try:
        visit.page.wait_for_function("() => document.querySelector('#case-on-time').open")
        marked, other = (
            visit.page.locator(f"#case-{case}").evaluate(
                "d => [getComputedStyle(d).outlineStyle, getComputedStyle(d).backgroundColor]"
            )
            for case in ("on-time", "hasty-refund")
        )
    finally:
        visit.close()
    assert marked[0] == "solid" and other[0] == "none"
    assert marked[1] != other[1]


def test_the_language_switch_keeps_the_case_the_reader_was_on(built, served, browser):
    path = pages(built)["run"]
    visit = Visit(browser, served + path + "#case-on-time")
    try:
        page = visit.page
        page.locator('a.md-select__link[hreflang="it"]').first.dispatch_event("click")
        page.wait_for_url(f"**/it{path}#case-on-time")
        page.wait_for_function("() => document.querySelector('#case-on-time').open")
    finally:
        visit.close()
    assert visit.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_case_filter_shows_a_ring_where_the_keyboard_is(built, served, browser, scheme):
    visit = Visit(browser, served + pages(built)["run"], scheme=scheme)
    try:
        page = visit.page
        box = page.locator('input[data-cases="failed"]')
        box.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        ring = box.evaluate(
            "b => [getComputedStyle(b).outlineStyle, getComputedStyle(b).outlineWidth]"
        )
        select = page.locator('select[data-cases="check"]')
        apart = page.evaluate(
            "() => { const [a, b] = document.querySelectorAll('.runsite-filter label');"
            " return b.getBoundingClientRect().left - a.getBoundingClientRect().right; }"
        )
        assert select.count() == 1
    finally:
        visit.close()
    assert ring[0] == "solid" and ring[1] != "0px", ring
    assert apart >= 16 or apart < 0  # apart on one line, or each on a line of its own
