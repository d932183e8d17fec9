"""Reports in a real browser (Debian's chromium, driven by playwright), opened from disk as a
double click opens them: every chart drawn with no request of any kind and no error, and the
file printed on A4 with its charts, whole tables, and a header naming the run on every page."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Dialog, Page, Request
from pypdf import PdfReader

from tests.report.conftest import HOSTILE, RUN2, runsite

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""

A4_CONTENT = 703
"""CSS pixels across an A4 page inside the report's margins (210 mm less 2 × 12 mm)."""

REPORTS = {
    "bench": ("bench@latest",),
    "bench-compared": ("bench@latest", "--against", "bench@latest~1", "--locale", "it"),
    "pair": (RUN2, "--baseline"),
    "planted": ("planted@latest",),
    "hostile": (f"s{HOSTILE}@latest",),
}


@pytest.fixture(scope="session")
def reports(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("reports")
    made = {}
    for name, args in REPORTS.items():
        out = folder / f"{name}.html"
        result = runsite("report", "--root", str(archive), *args, "--out", str(out))
        assert result.exit_code in (0, 1, 2), result.output
        made[name] = out
    return made


class Opened:
    """A report opened from disk in a fresh context that records every request, every error
    and every dialog."""

    def __init__(
        self, browser: Browser, path: Path, width: int = 1280, scheme: str = "light"
    ) -> None:
        self.url = path.as_uri()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.context = browser.new_context(
            viewport={"width": width, "height": 900},
            color_scheme="dark" if scheme == "dark" else "light",
        )
        self.page: Page = self.context.new_page()
        self.page.on("request", self._request)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("dialog", self._dialog)
        self.page.goto(self.url, wait_until="load")
        self.page.wait_for_timeout(200)

    def _request(self, request: Request) -> None:
        if request.url != self.url:
            self.requests.append(request.url)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            self.errors.append(message.text)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def close(self) -> None:
        self.context.close()


DRAWN = """figures => figures.map(figure => {
  const pieces = [...figure.querySelectorAll('svg')];
  const bands = [...figure.querySelectorAll('svg > g:has(> title) > rect')];
  return {
    pieces: pieces.length,
    shown: pieces.every(svg => {
      const box = svg.getBoundingClientRect();
      return box.width > 300 && box.height > 60;
    }),
    rows: figure.querySelectorAll('svg > g > title').length,
    bands: bands.filter(rect => rect.getBoundingClientRect().width > 0).length,
    scores: figure.querySelectorAll('svg > g:has(> title) > path[fill]').length,
  };
})"""


@pytest.mark.parametrize("name", list(REPORTS))
def test_a_report_opened_from_disk_draws_every_chart_with_no_request_and_no_error(
    name, reports, browser
):
    opened = Opened(browser, reports[name])
    try:
        figures = opened.page.locator("div.runsite-chart").evaluate_all(DRAWN)
        assert figures, name
        for figure in figures:
            assert figure["pieces"] >= 1 and figure["shown"], figure
            assert figure["rows"] > 0 and figure["bands"] >= figure["rows"], figure
            assert figure["scores"] >= figure["rows"], figure
        assert opened.requests == []
        assert opened.errors == []
        assert opened.dialogs == []
    finally:
        opened.close()


def test_the_bench_run_draws_its_180_sampled_checks(reports, browser):
    opened = Opened(browser, reports["bench"])
    try:
        figures = opened.page.locator("div.runsite-chart").evaluate_all(DRAWN)
        assert [figure["rows"] for figure in figures] == [30] * 6
        assert all(figure["bands"] == figure["scores"] == 30 for figure in figures)
        assert all(figure["pieces"] == 1 for figure in figures)
    finally:
        opened.close()


def test_the_site_script_runs_inside_the_report(reports, browser):
    opened = Opened(browser, reports["pair"])
    try:
        unchanged = opened.page.locator(".runsite-compare tr.same")
        assert unchanged.count() == 16
        assert all(not row.is_visible() for row in unchanged.all())
        opened.page.locator("input[data-filter]").uncheck()
        assert all(row.is_visible() for row in unchanged.all())
    finally:
        opened.close()


@pytest.mark.parametrize("name", list(REPORTS))
def test_a_report_on_a_phone_scrolls_only_downwards(name, reports, browser):
    """A wide table scrolls in its own box and a long hash or name wraps: the page itself is
    never wider than a 390 px screen."""
    opened = Opened(browser, reports[name], width=390)
    try:
        assert opened.page.evaluate("document.documentElement.scrollWidth") == 390
    finally:
        opened.close()


def _printed(opened: Opened) -> PdfReader:
    data = opened.page.pdf(format="A4", prefer_css_page_size=True)
    return PdfReader(io.BytesIO(data))


@pytest.mark.parametrize("name", ["bench", "bench-compared", "pair", "hostile"])
def test_a_printed_report_names_its_run_on_every_page_and_leaves_none_blank(name, reports, browser):
    opened = Opened(browser, reports[name])
    try:
        header = opened.page.evaluate("document.querySelector('main h1').textContent.split(',')[0]")
        tenant = "t" + HOSTILE if name == "hostile" else "acme"
        printed = _printed(opened)
        pages = len(printed.pages)
        for number, page in enumerate(printed.pages, 1):
            lines = page.extract_text().splitlines()
            assert lines[0].startswith(f"{tenant} · "), (number, lines[0])
            assert header.split(" ")[0] in lines[0]
            assert lines[0].endswith(f"{number} / {pages}"), lines[0]
            assert len("".join(lines[1:]).strip()) > 40, f"page {number} of {pages} is blank"
    finally:
        opened.close()


def test_a_printed_report_carries_its_charts(reports, browser):
    opened = Opened(browser, reports["bench"])
    try:
        text = "\n".join(page.extract_text() for page in _printed(opened).pages)
        assert text.count("lowest to highest sample: passed") == 6
        assert text.count("0.0 0.2 0.4 0.6 0.8 1.0") >= 6
    finally:
        opened.close()


@pytest.mark.parametrize("name", ["bench", "bench-compared", "pair"])
def test_every_table_fits_the_width_of_a_printed_page(name, reports, browser):
    opened = Opened(browser, reports[name], width=A4_CONTENT)
    try:
        opened.page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        opened.page.emulate_media(media="print")
        widest = opened.page.evaluate(
            "Math.max(...[...document.querySelectorAll('table, svg')]"
            ".map(e => e.getBoundingClientRect().right))"
        )
        assert widest <= A4_CONTENT + 1
        assert opened.page.locator("details:not([open])").count() == 0
        assert (
            opened.page.locator("tr.same:visible").count() == opened.page.locator("tr.same").count()
        )
    finally:
        opened.close()


CONTRASTS = """() => {
  const rgb = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => {
    const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const ground = rgb(getComputedStyle(document.body).backgroundColor);
  const texts = [...document.querySelectorAll('main p, main li, main td, main th, svg.report-chart text')]
    .filter(e => e.textContent.trim() && e.getClientRects().length)
    .map(e => ratio(rgb(e.tagName === 'text' ? getComputedStyle(e).fill : getComputedStyle(e).color), ground));
  const marks = [...document.querySelectorAll('svg.report-chart g:has(> title) > path[fill]')]
    .map(e => ratio(rgb(getComputedStyle(e).fill), ground));
  return {ground: lum(ground), texts: Math.min(...texts), marks: Math.min(...marks)};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_report_follows_the_readers_scheme_with_text_and_marks_that_read_on_it(
    scheme, reports, browser
):
    """Text at 4.5:1 or more against the report's ground, and each chart's score marker at 3:1
    or more, in the scheme the reader's system asks for."""
    opened = Opened(browser, reports["pair"], scheme=scheme)
    try:
        found = opened.page.evaluate(CONTRASTS)
        assert opened.errors == []
    finally:
        opened.close()
    assert (found["ground"] < 0.1) == (scheme == "dark"), found
    assert 4.5 <= found["texts"] < float("inf"), found
    assert 3 <= found["marks"] < float("inf"), found
