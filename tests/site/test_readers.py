"""The site as its readers meet it, in Debian's chromium: every page kind in both languages on a
phone and on a desktop, in the dark scheme, on paper, served under a sub-path and opened from
disk. Screenshots of each page kind at both widths land in tests/screenshots/."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from playwright.sync_api import Browser
from pypdf import PdfReader

from tests.site._browser import SHOTS, Quiet, Visit, pages
from tests.site.conftest import runsite

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""

WIDTHS = {"phone": 390, "desktop": 1400}
KINDS = ["home", "suite", "sampled", "run", "diff"]


def _serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def _open(browser: Browser, url: str, width: int, scheme: str = "light") -> Visit:
    return Visit(browser, url, width, scheme)


def _charts_at_container_width(visit: Visit) -> list[tuple[int, int]]:
    """(the chart's width, its container's) for every chart drawn."""
    visit.charts_drawn()
    found: list[tuple[int, int]] = visit.page.locator(".runsite-chart").evaluate_all(
        "charts => charts.map(c => [Number(c.querySelector('svg.main-svg').getAttribute('width')),"
        " c.clientWidth])"
    )
    return found


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["", "/it"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_page_fits_its_screen_draws_every_chart_at_its_width_and_logs_no_error(
    built, served, browser, kind, language, width
):
    visit = _open(browser, served + language + pages(built)[kind], WIDTHS[width])
    try:
        charts = _charts_at_container_width(visit)
        assert all(abs(drawn - room) <= 2 for drawn, room in charts), charts
        scroll = visit.page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= WIDTHS[width]
        assert visit.errors == []
        assert visit.outside == []
        SHOTS.mkdir(exist_ok=True)
        name = f"{kind}{'-it' if language else ''}-{width}.png"
        visit.page.screenshot(path=str(SHOTS / name), full_page=True)
    finally:
        visit.close()


def test_the_dark_scheme_follows_the_readers_system_charts_included(built, served, browser):
    visit = _open(browser, served + pages(built)["sampled"], 1400, "dark")
    try:
        visit.charts_drawn()
        assert visit.page.locator("body").get_attribute("data-md-color-scheme") == "slate"
        fill = visit.page.locator(".runsite-chart .xtitle").first.evaluate("t => t.style.fill")
        assert all(int(part) > 180 for part in re.findall(r"\d+", fill)[:3]), fill
        visit.page.screenshot(path=str(SHOTS / "sampled-dark-1400.png"), full_page=True)
        assert visit.errors == []
    finally:
        visit.close()


def test_a_printed_run_page_draws_every_chart_at_the_papers_width(built, served, browser):
    visit = _open(browser, served + pages(built)["sampled"], 794)
    try:
        visit.charts_drawn()
        visit.page.emulate_media(media="print")
        visit.page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        visit.page.wait_for_timeout(300)
        charts = visit.page.locator(".runsite-chart").evaluate_all(
            "charts => charts.map(c => [c.querySelector('svg.main-svg').getBoundingClientRect()"
            ".width, c.clientWidth, c.querySelectorAll('g.trace path, g.trace .point').length])"
        )
        assert charts and all(abs(drawn - room) <= 2 and marks for drawn, room, marks in charts)
        assert visit.page.locator("details:not([open])").count() == 0
        visit.page.pdf(format="A4", path=str(SHOTS / "run.pdf"))
        assert visit.errors == []
    finally:
        visit.close()


@pytest.mark.parametrize(
    ("language", "heading", "column"), [("", "Cases", "Case"), ("/it", "Casi", "Caso")]
)
def test_on_paper_the_cases_heading_and_its_legend_stay_with_their_table(
    built, served, browser, language, heading, column
):
    """A heading and its legend never end a printed page whose next page starts the table."""
    visit = _open(browser, served + language + pages(built)["sampled"], 794)
    try:
        visit.charts_drawn()
        visit.page.emulate_media(media="print")
        visit.page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        visit.page.wait_for_timeout(300)
        printed = PdfReader(BytesIO(visit.page.pdf(format="A4")))
        texts = [
            [line.strip() for line in page.extract_text().splitlines()] for page in printed.pages
        ]
        found = [lines for lines in texts if heading in lines]
        assert len(found) == 1, [lines[-3:] for lines in texts]
        after = found[0][found[0].index(heading) + 1 :]
        assert any(line.startswith(f"{column} ") for line in after), after
    finally:
        visit.close()


@pytest.fixture(scope="module")
def under_a_path(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    parent = tmp_path_factory.mktemp("hosting")
    (parent / "evals").symlink_to(built / "site", target_is_directory=True)
    server, base = _serve(parent)
    yield f"{base}/evals/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def from_disk(built: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("disk") / "site"
    runsite("build", "--root", str(built), "--out", str(out), "--for-files")
    return f"file://{out}/index.html"


@pytest.mark.parametrize("where", ["under_a_path", "from_disk"])
def test_the_site_navigates_and_switches_language_under_a_sub_path_and_from_disk(
    browser, request, where
):
    visit = _open(browser, request.getfixturevalue(where), 1400)
    try:
        visit.page.locator("article a[href*='suites/acme/support']").first.click()
        visit.page.wait_for_url("**/suites/acme/support/**")
        assert visit.charts_drawn()[0] > 0
        visit.page.locator(".runsite-grid thead a").first.click()
        visit.page.wait_for_url("**/runs/acme/support/**")
        visit.page.locator('a.md-select__link[hreflang="it"]').first.dispatch_event("click")
        visit.page.wait_for_url("**/it/runs/acme/support/**")
        assert visit.page.locator("html").get_attribute("lang") == "it"
        visit.page.locator('a.md-select__link[hreflang="en"]').first.dispatch_event("click")
        visit.page.wait_for_url(lambda url: "/it/" not in url)
        assert visit.page.locator("html").get_attribute("lang") == "en"
        assert visit.errors == []
        assert visit.outside == []
    finally:
        visit.close()
