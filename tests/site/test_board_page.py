"""A suite whose runs measured several targets has a board page, in both languages, whose
figures are each run's own, and which carries no payload; a suite of one target has none."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.account.run import account_of
from generator.reading.formats import formats
from tests._helpers import MARKERS, a_redacted_run
from tests.account.test_board import THREE

pytestmark = pytest.mark.slow
"""Each test builds a whole site: ``make test-fast`` leaves them out."""


def test_a_suite_of_several_targets_has_a_board_in_each_language(boarded: Path):
    for prefix, words in (("", "targets side by side"), ("it/", "i sistemi valutati a confronto")):
        page = (boarded / prefix / "boards/acme/support/index.html").read_text()
        assert words in page
        suite = (boarded / prefix / "suites/acme/support/index.html").read_text()
        assert 'href="../../../boards/acme/support/"' in suite
    assert not (boarded / "boards/acme/alone").exists()
    assert "boards/" not in (boarded / "suites/acme/alone/index.html").read_text()


def test_the_board_shows_each_targets_own_rate_and_interval(boarded: Path):
    page = (boarded / "boards/acme/support/index.html").read_text()
    f = formats("en")
    for document in THREE[:3]:
        went = account_of(a_redacted_run(**document)).tally.verdicts
        assert went.rate is not None and went.bounds is not None
        label = document["target_config"]["values"]["model"]
        shown = f"{f.share(went.rate)} <small>{f.share(went.bounds.low)}–{f.share(went.bounds.high)}</small>"
        row = re.search(rf">local/{label}</a>[^\n]*", page)
        assert row is not None and shown in row.group(0), label


def test_no_payload_reaches_the_board(boarded: Path):
    for page in boarded.glob("**/boards/**/*.html"):
        text = page.read_text()
        assert not [m for m in MARKERS.values() if m in text], page


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("width", [390, 1400])
def test_the_board_opens_with_no_error_and_its_chart_fits(boarded: Path, browser, language, width):
    """In a browser: no error, nothing fetched from outside, the chart within the screen, and
    each case cell a link to that case in its target's run."""
    import functools
    import http.server
    import threading

    from tests.site._browser import SHOTS, Quiet, Visit

    handler = functools.partial(Quiet, directory=str(boarded))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    prefix = "/it" if language == "it" else ""
    try:
        visit = Visit(
            browser,
            f"http://127.0.0.1:{server.server_address[1]}{prefix}/boards/acme/support/",
            width=width,
        )
        try:
            page = visit.page
            page.screenshot(path=str(SHOTS / f"board-{language}-{width}.png"), full_page=True)
            chart = page.locator("svg.runsite-board-chart").bounding_box()
            links = page.locator(".runsite-verdicts a").evaluate_all(
                "links => links.map(a => a.getAttribute('href'))"
            )
        finally:
            visit.close()
    finally:
        server.shutdown()
        server.server_close()
    assert visit.errors == [] and visit.outside == []
    assert chart is not None and chart["x"] >= 0 and chart["x"] + chart["width"] <= width
    assert links
    for link in links:  # each lands on its case's row in the target's run page
        path, anchor = link.removeprefix("../../../").split("#")
        run_page = (boarded / prefix.strip("/") / path / "index.html").read_text()
        assert f'id="{anchor}"' in run_page, link


@pytest.mark.parametrize("kind", ["html", "markdown"])
def test_the_boards_report_and_summary_carry_its_figures_and_no_payload(boarded: Path, kind):
    """``runsite report --board``: the board as one file or as Markdown, its figures the
    page's, searched for every payload string of the runs it read (the planted target's among
    them) and carrying none."""
    from click.testing import CliRunner

    from generator.cli import cli

    root = boarded.parent
    done = CliRunner().invoke(
        cli, ["report", "--root", str(root), "--board", "support", "--format", kind]
    )
    assert done.exit_code == 0, done.output
    assert not [m for m in MARKERS.values() if m in done.stdout]
    f = formats("en")
    went = account_of(a_redacted_run(**THREE[1])).tally.verdicts
    assert went.rate is not None and went.bounds is not None
    assert f"{f.share(went.bounds.low)}–{f.share(went.bounds.high)}" in done.stdout
    assert "local/mid" in done.stdout and "◆" in done.stdout
    alone = CliRunner().invoke(cli, ["report", "--root", str(root), "--board", "alone"])
    assert alone.exit_code == 64
    assert alone.stderr.startswith("runsite: --board alone: its runs measured one target")
