"""Charts as compact data: the figures themselves are drawn in the browser by ``charts.js``,
with the one plotly.js the site ships.

A page carries each chart's numbers once (a run page's 180 sampled checks would otherwise
repeat every name in three traces), and every chart carries the rows of a text table, so a
reader who cannot see the chart reads the same numbers. History and trend charts are made of
run summaries, so a suite page never needs the runs themselves.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.account.checks import checks_by_case
from generator.account.memo import once_per_run
from generator.account.places import figure_places
from generator.account.places import millionths as stored_millionths
from generator.account.rows import Row
from generator.document.redacted import RedactedRun
from generator.reading.formats import Formats, needs_seconds
from generator.site.summary import RunSummary

STATUS_LETTER = {"pass": "p", "fail": "f", "error": "e"}
"""How chart data and the case matrix name a status: one letter, styled by the site's CSS."""


@dataclass(frozen=True)
class Chart:
    """One chart: the data ``charts.js`` draws, and the table that says the same in text."""

    data: dict[str, Any]
    height: int
    """Pixels: the page keeps the room from the first paint, before the chart is drawn."""
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    parts: tuple[int, ...] = ()
    """Where the data is drawn as several charts (one a check): how many rows each holds."""


def changes(runs: Sequence[RunSummary]) -> list[tuple[int, tuple[str, ...]]]:
    """Where, between consecutive runs, the rules, the judge or the target changed."""
    found = []
    for n in range(1, len(runs)):
        before, now = runs[n - 1], runs[n]
        moved = tuple(
            what
            for what, differs in (
                ("rules", before.config_hash != now.config_hash),
                ("judge", before.judge != now.judge),
                ("target", before.target != now.target),
            )
            if differs
        )
        if moved:
            found.append((n, moved))
    return found


@dataclass(frozen=True)
class Axis:
    """What every history chart of a suite shares: each run's moment as the axis writes it,
    and a mark wherever the suite's rules, judge or target changed, named."""

    seconds: bool
    """Whether the moments are written to the second (``needs_seconds``)."""
    ticks: tuple[str, ...]
    marks: tuple[tuple[int, str], ...]


def history_axis(runs: Sequence[RunSummary], labels: Mapping[str, str], figures: Formats) -> Axis:
    """The axis of a suite's history charts (its runs oldest first), in the page's language."""
    moments = [run.created_at for run in runs]
    seconds = needs_seconds(moments)
    marks = tuple(
        (n, ", ".join(labels[f"chart.changed.{what}"] for what in moved))
        for n, moved in changes(runs)
    )
    return Axis(seconds, tuple(figures.moment_short(m, seconds) for m in moments), marks)


def history_chart(
    runs: Sequence[RunSummary], check: str, axis: Axis, labels: Mapping[str, str]
) -> Chart:
    """``check``'s score per run (oldest first), its min–max band, its threshold, and the marks
    of ``axis``; each run named by its moment on the axis and in the table.

    Its rows are one flat list, four numbers a run in millionths (score, min, max, threshold;
    None where the run did not judge the check), and ``digits`` the decimals its table shows
    them at. The table is written by ``charts.js`` from the same rows: a suite of 250 runs
    and 6 checks would otherwise carry 6,000 numbers twice."""
    points = [run.point(check) for run in runs]
    tolerance = next((p.tolerance for p in points if p and p.tolerance), None)
    rows = [
        figure
        for p in points
        for figure in ((p.score, p.low, p.high, p.threshold) if p else (None,) * 4)
    ]
    data = {
        "kind": "history",
        "ticks": list(axis.ticks),
        "rows": rows,
        "digits": figure_places({figure for figure in rows if figure is not None}, tolerance),
        "marks": [list(mark) for mark in axis.marks],
        "labels": {k: labels[f"chart.{k}"] for k in ("score", "band", "threshold")},
    }
    columns = (
        "column.created_at",
        "chart.score",
        "column.min",
        "column.max",
        "chart.threshold",
        "column.changed",
    )
    return Chart(data, 320, tuple(labels[c] for c in columns), ())


def millionths(value: float | None) -> int | None:
    """A stored number (6 decimals) as a whole count of millionths: the same value, in fewer
    bytes of chart data."""
    return None if value is None else stored_millionths(value)


STATUSES = ("pass", "fail", "error")
"""The order of statuses in chart data, where a status is its index."""

LETTERS = "".join(STATUS_LETTER[status] for status in STATUSES)
"""Each status's letter at its index (``pfe``): how ``charts.js`` reads an interval chart's
``verdicts``."""


def interval_chart(run: RedactedRun, labels: Mapping[str, str]) -> Chart | None:
    """Every sampled check of ``run`` as a bar from its smallest to its largest sample, with
    its score and its threshold; None when nothing was sampled.

    The data names each case and check once, and each check's threshold once. Its rows are
    one flat list (packed, as a page carries them), ``stride`` numbers a row: case, check, min,
    max, score and, when some verdict's threshold is not its check's, the threshold; the
    run-level row's case is ``-1``; numbers in millionths. ``verdicts`` holds each row's
    status, one letter a row (``STATUS_LETTER``). Where every case sampled every check
    (``dense``), a row's place says its case and check, and it leaves them out. Its text table
    is written by ``charts.js`` from the same rows: a run of 30 cases and 6 checks would
    otherwise carry every number twice.
    """
    drawn = _intervals(run)
    if drawn is None:
        return None
    data, height, parts = drawn
    columns = (
        "column.check",
        "column.min",
        "chart.score",
        "column.max",
        "chart.threshold",
        "column.status",
    )
    data = data | {
        "run": labels["where.run"],
        "labels": {k: labels[f"chart.{k}"] for k in ("score", "band", "threshold")},
        "statuses": [labels[f"status.{status}"] for status in STATUSES],
    }
    return Chart(data, height, tuple(labels[c] for c in columns), (), parts)


@once_per_run
def _intervals(run: RedactedRun) -> tuple[dict[str, Any], int, tuple[int, ...]] | None:
    """``interval_chart``'s data in no language yet (its rows packed), its height and its
    parts: once for both languages."""
    checks: dict[str, int] = {}
    thresholds: list[int | None] = []
    rows: list[list[Any]] = []
    by_case, whole_run = checks_by_case(run)
    sampled = [
        (n, c)
        for n, case in [*enumerate(by_case), (-1, whole_run)]
        for c in case
        if c.verdict.sample_min is not None and c.verdict.sample_max is not None
    ]
    limits: dict[float, int | None] = {}  # each threshold in millionths, found once
    for n, c in sampled:
        v = c.verdict
        if v.threshold not in limits:
            limits[v.threshold] = millionths(v.threshold)
        if v.assertion not in checks:
            checks[v.assertion] = len(checks)
            thresholds.append(limits[v.threshold])
        score, low, high = c.figures
        rows.append([n, checks[v.assertion], low, high, score, limits[v.threshold]])
    if not rows:
        return None
    varied = any(row[5] != thresholds[row[1]] for row in rows)
    width = len(checks)
    dense = [row[:2] for row in rows] == [[n // width, n % width] for n in range(len(rows))]
    skip = 2 if dense else 0
    stride = (6 if varied else 5) - skip
    data = {
        "kind": "intervals",
        "cases": [case.case_id for case in run.results],
        "checks": list(checks),
        "thresholds": thresholds,
        "stride": stride,
        "dense": dense,
        "rows": packed([number for row in rows for number in row[skip : skip + stride]]),
        "verdicts": "".join(STATUS_LETTER[c.verdict.status] for _, c in sampled),
    }
    parts = tuple(sum(1 for row in rows if row[1] == k) for k in range(len(checks)))
    return data, 80 + 26 * len(rows), parts


@dataclass(frozen=True)
class Drawing:
    """A comparison chart in no language yet: one check's cases (None for the whole run) and
    their rows, made once for both languages."""

    check: str
    cases: tuple[str | None, ...]
    rows: str
    """Packed (``packed``), as a page carries them."""
    threshold: int | None


def compare_drawings(rows: Sequence[Row]) -> tuple[Drawing, ...]:
    """For each check sampled in either run, both runs' intervals case by case (``compare_charts``
    draws them): the earlier run's smallest and largest sample and score, then the later
    run's, in millionths."""
    by_check: dict[str, list[Row]] = {}
    for row in rows:
        before, now = row.before, row.now
        if (before is not None and before.sampled) or (now is not None and now.sampled):
            by_check.setdefault(row.check, []).append(row)
    drawings = []
    for check, found in by_check.items():
        numbers: list[int | None] = []
        for row in found:
            for side in (row.before, row.now):
                score, low, high = side.figures if side is not None else (None, None, None)
                sampled = low is not None and high is not None
                numbers += [low, high, score] if sampled else [None, None, score]
        threshold = next(s.verdict.threshold for r in found for s in (r.now, r.before) if s)
        cases = tuple(row.case for row in found)
        drawings.append(Drawing(check, cases, packed(numbers), millionths(threshold)))
    return tuple(drawings)


def compare_charts(
    drawings: Sequence[Drawing], labels: Mapping[str, str]
) -> list[tuple[str, Chart]]:
    """For each check sampled in either run, one chart of both runs' intervals case by case:
    the earlier run's band above the later one's, with each score and the threshold."""
    named = {
        "before": labels["chart.before"],
        "now": labels["chart.now"],
        "score": labels["chart.score"],
        "threshold": labels["chart.threshold"],
    }
    run = labels["where.run"]
    return [
        (
            drawing.check,
            Chart(
                {
                    "kind": "compare",
                    "cases": [case or run for case in drawing.cases],
                    "rows": drawing.rows,
                    "threshold": drawing.threshold,
                    "labels": dict(named),
                },
                90 + 30 * len(drawing.cases),
                (),
                (),
            ),
        )
        for drawing in drawings
    ]


PACKED = frozenset({"intervals", "compare", "history"})
"""The kinds of chart whose ``rows`` a page carries packed (``packed``): a run page's 180
sampled checks are 540 numbers, 4 KB as decimal text and 2.2 KB packed."""


_NONE = 2**24 - 1


def packed(numbers: Sequence[int | None]) -> str:
    """Whole numbers from -1 to 2^24 - 3 (millionths, indexes), or None, as base64 of three
    bytes each, big-endian, holding the number plus one, or all ones for None: four characters
    a number, where its decimal text and comma took up to eight."""
    raw = b"".join((_NONE if n is None else n + 1).to_bytes(3, "big") for n in numbers)
    return base64.b64encode(raw).decode("ascii")


def unpacked(text: str) -> list[int | None]:
    """The numbers ``packed`` wrote."""
    raw = base64.b64decode(text)
    found = (int.from_bytes(raw[at : at + 3], "big") for at in range(0, len(raw), 3))
    return [None if n == _NONE else n - 1 for n in found]


def on_page(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A chart's data as a page carries it: its rows packed where its kind is ``PACKED`` (a
    chart drawn up once for both languages carries them packed already)."""
    if data.get("kind") in PACKED and not isinstance(data["rows"], str):
        return {**data, "rows": packed(data["rows"])}
    return data


def from_page(data: dict[str, Any]) -> dict[str, Any]:
    """A chart's data read back from a page: its rows as numbers again."""
    if data.get("kind") in PACKED:
        return {**data, "rows": unpacked(data["rows"])}
    return data


def sparkline(shares: Sequence[float | None], width: int = 120, height: int = 24) -> str:
    """The points of a small line of passing shares (0 to 1, oldest first) for an SVG
    ``polyline``; a run with nothing judged leaves a gap in no other way than its absence."""
    known = [(n, share) for n, share in enumerate(shares) if share is not None]
    if not known:
        return ""
    step = (width - 4) / max(len(shares) - 1, 1)
    return " ".join(
        f"{2 + n * step:.1f},{2 + (1 - share) * (height - 4):.1f}" for n, share in known
    )
