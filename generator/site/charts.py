"""Charts as plotly figure specs: plain dictionaries, rendered in the browser by the one
plotly.js the site ships. Every chart carries the rows of the text table printed beside it, so
a reader who cannot see the chart reads the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.document.numbers import at_precision
from generator.document.redacted import RedactedRun, RedactedVerdict

COLOURS = {"pass": "#2e7d32", "fail": "#c62828", "error": "#757575"}
BAND = "rgba(25, 118, 210, 0.18)"
LINE = "#1976d2"


@dataclass(frozen=True)
class Chart:
    """One chart: its figure spec and the table that says the same in text."""

    spec: dict[str, Any]
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Point:
    """One check in one run: its score and the range of what was measured."""

    key: str
    created_at: str
    score: float | None
    low: float | None
    high: float | None
    threshold: float | None


def number(value: float | None) -> str:
    """A number as every page prints it: 6 decimals, a decimal point in every language."""
    return "" if value is None else f"{at_precision(value):.6f}"


def verdicts_named(run: RedactedRun, check: str) -> list[RedactedVerdict]:
    """Every verdict of ``check`` in ``run``: one per measured case, or the run-level one."""
    found = [v for case in run.results for v in case.verdicts if v.assertion == check]
    return found or [v for v in run.aggregate if v.assertion == check]


def point(run: RedactedRun, check: str) -> Point:
    """``check`` in ``run``: the mean of its case scores, and the smallest and largest thing
    measured (a sample where it was sampled, else the score)."""
    verdicts = verdicts_named(run, check)
    scored = [v for v in verdicts if v.score is not None]
    lows = [v.sample_min if v.sample_min is not None else v.score for v in scored]
    highs = [v.sample_max if v.sample_max is not None else v.score for v in scored]
    return Point(
        run.key,
        run.created_at,
        at_precision(sum(v.score for v in scored if v.score is not None) / len(scored))
        if scored
        else None,
        min(x for x in lows if x is not None) if scored else None,
        max(x for x in highs if x is not None) if scored else None,
        verdicts[0].threshold if verdicts else None,
    )


def changes(runs: Sequence[RedactedRun]) -> list[tuple[int, tuple[str, ...]]]:
    """Where, between consecutive runs, the rules, the judge or the target changed."""
    found = []
    for n in range(1, len(runs)):
        before, now = runs[n - 1], runs[n]
        moved = tuple(
            what
            for what, differs in (
                ("rules", before.config_hash != now.config_hash),
                ("judge", before.judge_config != now.judge_config),
                ("target", before.target_config != now.target_config),
            )
            if differs
        )
        if moved:
            found.append((n, moved))
    return found


def history_chart(runs: Sequence[RedactedRun], check: str, labels: Mapping[str, str]) -> Chart:
    """``check``'s score per run (oldest first), its min–max band, its threshold, and a marker
    wherever the suite's rules, judge or target changed."""
    points = [point(run, check) for run in runs]
    x = [p.created_at[:19].replace("T", " ") for p in points]
    data: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": x,
            "y": [p.high for p in points],
            "line": {"width": 0},
            "hoverinfo": "skip",
            "showlegend": False,
        },
        {
            "type": "scatter",
            "mode": "lines",
            "x": x,
            "y": [p.low for p in points],
            "fill": "tonexty",
            "fillcolor": BAND,
            "line": {"width": 0},
            "name": labels["chart.band"],
        },
        {
            "type": "scatter",
            "mode": "lines+markers",
            "x": x,
            "y": [p.score for p in points],
            "line": {"color": LINE},
            "name": labels["chart.score"],
        },
        {
            "type": "scatter",
            "mode": "lines",
            "x": x,
            "y": [p.threshold for p in points],
            "line": {"color": COLOURS["fail"], "dash": "dash"},
            "name": labels["chart.threshold"],
        },
    ]
    marks = changes(runs)
    layout: dict[str, Any] = {
        "height": 320,
        "margin": {"l": 48, "r": 16, "t": 24, "b": 64},
        "xaxis": {"type": "category", "tickangle": -30, "automargin": True},
        "yaxis": {"range": [-0.02, 1.05], "title": {"text": labels["chart.score"]}},
        "legend": {"orientation": "h", "y": 1.15},
        "shapes": [
            {
                "type": "line",
                "xref": "x",
                "yref": "paper",
                "x0": x[n],
                "x1": x[n],
                "y0": 0,
                "y1": 1,
                "line": {"dash": "dot", "color": "#6d4c41", "width": 1},
            }
            for n, _ in marks
        ],
        "annotations": [
            {
                "xref": "x",
                "yref": "paper",
                "x": x[n],
                "y": 1,
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 10, "color": "#6d4c41"},
                "text": ", ".join(labels[f"chart.changed.{what}"] for what in moved),
            }
            for n, moved in marks
        ],
    }
    changed_at = dict(marks)
    rows = tuple(
        (
            p.created_at,
            number(p.score),
            number(p.low),
            number(p.high),
            number(p.threshold),
            ", ".join(labels[f"chart.changed.{what}"] for what in changed_at.get(n, ())),
        )
        for n, p in enumerate(points)
    )
    columns = (
        "column.created_at",
        "chart.score",
        "column.min",
        "column.max",
        "chart.threshold",
        "column.changed",
    )
    return Chart({"data": data, "layout": layout}, tuple(labels[c] for c in columns), rows)


def interval_chart(run: RedactedRun, labels: Mapping[str, str]) -> Chart | None:
    """Every sampled check of ``run`` as a bar from its smallest to its largest sample, with its
    score and its threshold; None when nothing was sampled."""
    sampled = [
        (f"{case.case_id} · {v.assertion}", v)
        for case in run.results
        for v in case.verdicts
        if v.sample_min is not None and v.sample_max is not None
    ] + [
        (f"{labels['where.run']} · {v.assertion}", v)
        for v in run.aggregate
        if v.sample_min is not None
    ]
    if not sampled:
        return None
    names = [name for name, _ in sampled]
    verdicts = [v for _, v in sampled]
    lows = [v.sample_min or 0.0 for v in verdicts]
    spans = [at_precision((v.sample_max or 0.0) - (v.sample_min or 0.0)) or 0.004 for v in verdicts]
    data = [
        {
            "type": "bar",
            "orientation": "h",
            "y": names,
            "x": spans,
            "base": lows,
            "marker": {"color": [COLOURS[v.status] for v in verdicts], "opacity": 0.55},
            "name": labels["chart.band"],
            "hoverinfo": "skip",
        },
        {
            "type": "scatter",
            "mode": "markers",
            "y": names,
            "x": [v.score for v in verdicts],
            "marker": {"symbol": "diamond", "size": 9, "color": "#212121"},
            "name": labels["chart.score"],
        },
        {
            "type": "scatter",
            "mode": "markers",
            "y": names,
            "x": [v.threshold for v in verdicts],
            "marker": {
                "symbol": "line-ns-open",
                "size": 18,
                "color": COLOURS["fail"],
                "line": {"width": 2},
            },
            "name": labels["chart.threshold"],
        },
    ]
    layout = {
        "height": 80 + 26 * len(names),
        "margin": {"l": 220, "r": 16, "t": 24, "b": 40},
        "barmode": "overlay",
        "xaxis": {"range": [-0.02, 1.02], "title": {"text": labels["chart.score"]}},
        "yaxis": {"autorange": "reversed", "automargin": True},
        "legend": {"orientation": "h", "y": 1.08},
    }
    rows = tuple(
        (
            name,
            number(v.sample_min),
            number(v.score),
            number(v.sample_max),
            number(v.threshold),
            labels[f"status.{v.status}"],
        )
        for name, v in sampled
    )
    columns = (
        "column.check",
        "column.min",
        "chart.score",
        "column.max",
        "chart.threshold",
        "column.status",
    )
    return Chart({"data": data, "layout": layout}, tuple(labels[c] for c in columns), rows)


def trend_chart(runs: Sequence[RedactedRun], labels: Mapping[str, str]) -> Chart:
    """A suite's share of passing verdicts per run (oldest first): the small trend on the home page."""
    shares = []
    for run in runs:
        verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
        judged = [v for v in verdicts if v.status != "error"]
        shares.append(
            at_precision(sum(v.status == "pass" for v in judged) / len(judged)) if judged else None
        )
    x = [run.created_at[:19].replace("T", " ") for run in runs]
    spec = {
        "data": [
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": x,
                "y": shares,
                "line": {"color": LINE},
                "name": labels["chart.passing"],
            }
        ],
        "layout": {
            "height": 140,
            "margin": {"l": 36, "r": 8, "t": 8, "b": 24},
            "showlegend": False,
            "xaxis": {"type": "category", "showticklabels": False},
            "yaxis": {"range": [-0.02, 1.05]},
        },
    }
    rows = tuple((run.created_at, number(share)) for run, share in zip(runs, shares, strict=True))
    return Chart(spec, (labels["column.created_at"], labels["chart.passing"]), rows)
