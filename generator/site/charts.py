"""Charts as compact data: the figures themselves are drawn in the browser by ``charts.js``,
with the one plotly.js the site ships.

A page carries each chart's numbers once (a run page's 180 sampled checks would otherwise
repeat every name in three traces), and every chart carries the rows of a text table, so a
reader who cannot see the chart reads the same numbers. History and trend charts are made of
run summaries, so a suite page never needs the runs themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from generator.account.charts import CompareChart, Intervals, packed
from generator.account.places import figure_places, millionths
from generator.account.tally import VERDICT_STATUSES
from generator.reading.formats import Formats, needs_seconds
from generator.site.summary import CheckKey, RunSummary


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
    value: Intervals | CompareChart | None = None
    """The chart's data as a value, for a drawer that draws it where the page is made."""
    drawn: tuple[Markup, ...] = ()
    """The chart drawn where the page was made (a report's SVG), one piece a part; then the
    page carries no data for ``charts.js``."""


class Drawer(Protocol):
    """Draws a chart where its page is made, in the page's language (a report's SVG, which
    needs no script): the chart given back with its pieces ``drawn`` and its table's rows."""

    def intervals(self, chart: Chart, labels: Mapping[str, str], figures: Formats) -> Chart: ...

    def compare(self, chart: Chart, labels: Mapping[str, str], figures: Formats) -> Chart: ...


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
    runs: Sequence[RunSummary], check: CheckKey, axis: Axis, labels: Mapping[str, str]
) -> Chart:
    """``check``'s score per run (oldest first), its min–max band, its threshold, and the marks
    of ``axis``; each run named by its moment on the axis and in the table.

    Its rows are one flat list, four numbers a run in millionths (score, min, max, threshold;
    None where the run did not judge the check), and ``digits`` the decimals its table shows
    them at. The table is written by ``charts.js`` from the same rows: a suite of 250 runs
    and 6 checks would otherwise carry 6,000 numbers twice."""
    points = [run.check(check) for run in runs]
    tolerance = next((p.tolerance for p in points if p and p.tolerance), None)
    rows = [
        figure
        for p in points
        for figure in ((p.score, p.low, p.high, p.threshold) if p else (None,) * 4)
    ]
    data = {
        "kind": "history",
        "ticks": list(axis.ticks),
        "rows": packed(rows),
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


def rate_chart(runs: Sequence[RunSummary], axis: Axis, labels: Mapping[str, str]) -> Chart:
    """A suite's pass rate per run (oldest first) with its Wilson 95% interval as the band: a
    history chart (``history_chart``'s rows, four numbers a run) whose threshold is none and
    whose figures are shares, written as percentages."""
    rows: list[int | None] = []
    for run in runs:
        went = run.tally.verdicts
        bounds = went.bounds
        if went.rate is None or bounds is None:
            rows += [None] * 4
        else:
            rows += [millionths(went.rate), millionths(bounds.low), millionths(bounds.high), None]
    data = {
        "kind": "history",
        "ticks": list(axis.ticks),
        "rows": packed(rows),
        "digits": 3,
        "percent": True,
        "marks": [list(mark) for mark in axis.marks],
        "labels": {"score": labels["chart.rate"], "band": labels["chart.wilson"], "threshold": ""},
    }
    columns = ("column.created_at", "column.rate", "chart.wilson_low", "chart.wilson_high")
    return Chart(data, 320, tuple(labels[c] for c in (*columns, "column.changed")), ())


def interval_chart(intervals: Intervals | None, labels: Mapping[str, str]) -> Chart | None:
    """A run's interval chart (``account.charts.Intervals``) in the language of ``labels``; its
    text table is written by ``charts.js`` from the same rows (a run of 30 cases and 6 checks
    would otherwise carry every number twice), or by the report's drawer."""
    if intervals is None:
        return None
    columns = (
        "column.check",
        "column.min",
        "chart.score",
        "column.max",
        "chart.threshold",
        "column.status",
    )
    data = intervals.serialised() | {
        "run": labels["where.run"],
        "labels": {k: labels[f"chart.{k}"] for k in ("score", "band", "threshold")},
        "statuses": [labels[f"status.{status}"] for status in VERDICT_STATUSES],
    }
    return Chart(
        data, intervals.height, tuple(labels[c] for c in columns), (), intervals.parts, intervals
    )


def compare_charts(
    charts: Sequence[CompareChart], labels: Mapping[str, str]
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
            chart.check,
            Chart(
                chart.serialised(run) | {"labels": dict(named)},
                chart.height,
                (),
                (),
                value=chart,
            ),
        )
        for chart in charts
    ]


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
