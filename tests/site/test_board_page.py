"""A suite whose runs measured several targets has a board page, in both languages, whose
figures are each run's own, and which carries no payload; a suite of one target has none."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

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
            words = page.locator("svg.runsite-board-chart text").evaluate_all(
                "texts => texts.map(t => { const b = t.getBoundingClientRect();"
                " return [t.textContent, b.left, b.top, b.right, b.bottom]; })"
            )
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
    for n, (said, left, top, right, bottom) in enumerate(words):
        assert chart["x"] <= left and right <= chart["x"] + chart["width"], said
        for other, *box in words[n + 1 :]:
            apart = right <= box[0] or box[2] <= left or bottom <= box[1] or box[3] <= top
            assert apart, f"{said!r} overlaps {other!r}"
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


def test_labels_of_crowded_points_are_placed_apart_and_inside_the_plot():
    """Three targets at nearly one rate and cost: each label gets a place of its own."""
    from generator.site.board import BOTTOM, CHAR, LINE, RIGHT, _place_labels

    points: list[dict[str, Any]] = [
        {"label": f"local/model-{n}", "x": 300.0 + n, "y": 40.0 + n} for n in range(3)
    ] + [{"label": "local/other", "x": 60.0, "y": 41.0}]
    _place_labels(points)
    boxes = []
    for p in points:
        width = CHAR * len(p["label"])
        left = p["label_x"] if p["anchor"] == "start" else p["label_x"] - width
        boxes.append((left, p["label_y"] - LINE + 2, left + width, p["label_y"] + 2))
    for n, a in enumerate(boxes):
        assert a[0] >= 0 and a[2] <= RIGHT and a[1] >= 0 and a[3] <= BOTTOM
        for b in boxes[n + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        for p in points:  # no label covers a marker
            assert not (
                a[0] < p["x"] + 6 and p["x"] - 6 < a[2] and a[1] < p["y"] + 6 and p["y"] - 6 < a[3]
            )


def test_a_case_one_target_passed_and_failed_is_flaky(boarded: Path):
    """big failed c05 in its earlier run and passed it in its latest: flaky on the suite's page
    (``test_routing_example`` holds the other side: models that differ are not flaky)."""
    page = (boarded / "suites/acme/support/index.html").read_text()
    assert '<tr id="case-c05" class="flaky">' in page
    assert '<tr id="case-c00" class="flaky">' not in page
