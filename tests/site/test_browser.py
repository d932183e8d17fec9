"""The built site in a real browser (Debian's chromium, driven by playwright): it draws every
chart, switches language to the same page, fetches nothing from outside 127.0.0.1, shows
markup in a case id as text, and logs no error. Screenshots land in tests/screenshots/."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Dialog, Page, Route, sync_playwright

from tests.site.conftest import SCRIPT_CASE

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[1] / "screenshots"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def served(built: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(built / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), "the browser tests drive Debian's chromium: apt-get install chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=FLAGS
        )
        yield launched
        launched.close()


class Visit:
    """A page opened in a fresh context that records errors, dialogs and outside requests."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.outside: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.route("**/*", self._route)
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("dialog", self._dialog)
        self.page.goto(url, wait_until="load")

    def _route(self, route: Route) -> None:
        url = route.request.url
        if urlparse(url).hostname != "127.0.0.1":
            self.outside.append(url)
            route.abort()
        else:
            route.continue_()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} ({message.location.get('url', '')})")

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def charts_drawn(self) -> tuple[int, int]:
        expected = self.page.locator(".runsite-chart").count()
        if expected:
            self.page.wait_for_function(
                "n => document.querySelectorAll('.runsite-chart svg.main-svg').length >= n",
                arg=expected,
            )
        drawn = self.page.locator(".runsite-chart").evaluate_all(
            "charts => charts.filter(c => c.querySelector('svg.main-svg')).length"
        )
        return expected, drawn

    def close(self) -> None:
        self.context.close()


def _first(built: Path, folder: str) -> str:
    return next(p for p in sorted((built / "site" / folder).glob("*/index.html"))).parent.name


def _pages(built: Path) -> dict[str, str]:
    agent = _first(built, "runs/acme/refund-agent")
    support_runs = sorted(
        p.parent.name for p in (built / "site/runs/acme/support").glob("*/index.html")
    )
    diff_folder = built / "site/diffs/acme/support" / support_runs[-1]
    other = next(p.parent.name for p in diff_folder.glob("*/index.html"))
    return {
        "home": "/",
        "suite": "/suites/acme/support/",
        "run": f"/runs/acme/refund-agent/{agent}/",
        "run-it": f"/it/runs/acme/refund-agent/{agent}/",
        "diff": f"/diffs/acme/support/{support_runs[-1]}/{other}/",
        "sampled": f"/runs/acme/support/{support_runs[-1]}/",
    }


@pytest.mark.parametrize("name", ["home", "suite", "run", "run-it", "diff", "sampled"])
def test_a_page_draws_every_chart_with_no_error_and_nothing_from_outside(
    name, built, served, browser
):
    SHOTS.mkdir(exist_ok=True)
    visit = Visit(browser, served + _pages(built)[name])
    try:
        expected, drawn = visit.charts_drawn()
        visit.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
        assert drawn == expected
        assert visit.errors == []
        assert visit.outside == []
    finally:
        visit.close()


def test_the_language_switch_lands_on_the_same_run_in_italian(built, served, browser):
    path = _pages(built)["run"]
    visit = Visit(browser, served + path)
    try:
        visit.page.locator('a.md-select__link[hreflang="it"]').first.dispatch_event("click")
        visit.page.wait_for_url(f"**/it{path}")
        assert visit.page.locator("html").get_attribute("lang") == "it"
        assert visit.page.locator("h2", has_text="Casi").count() == 1
    finally:
        visit.close()


def test_a_case_id_with_markup_shows_as_text_and_opens_no_dialog(built, served, browser):
    run = _first(built, "runs/acme/planted")
    visit = Visit(browser, f"{served}/runs/acme/planted/{run}/")
    try:
        visit.page.wait_for_timeout(300)
        assert visit.page.locator(".runsite-matrix tbody th", has_text=SCRIPT_CASE).count() == 1
        assert visit.dialogs == []
    finally:
        visit.close()


def test_a_printed_run_page_opens_every_table(built, served, browser):
    visit = Visit(browser, served + _pages(built)["sampled"])
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
    visit = Visit(browser, served + _pages(built)["run"])
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
    for second in (1, 2):
        run = a_run_at(second, tenant=f"t{hostile}", suite=f"s{hostile}", environment=hostile)
        assert (
            runsite(
                "import", "--root", str(archive), str(write_json(run, f"{second}.json"))
            ).exit_code
            == 0
        )
    site = archive / "site"
    assert runsite("build", "--root", str(archive), "--out", str(site)).exit_code == 0
    handler = functools.partial(_Quiet, directory=str(site))
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
