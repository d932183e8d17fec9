"""The site's charts as static SVG, drawn here from the same values (``account.charts``) whose
serialised form ``charts.js`` draws in the browser: a report carries no plotly.js (1.19 MB),
prints as vectors, and draws with no script at all.

Each chart draws what the site's does: a sampled check's band from its lowest to its highest
sample (coloured by status on a run, grey for the earlier run and blue for this one on a
comparison), its score as a diamond and its threshold as a red mark. A tall chart is cut into
pieces of at most ``PIECE`` rows, each with its own axis, so that every piece fits on a printed
page and none is sliced by a page break. Coordinates are written to one decimal: the same data
gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup, escape

from generator.account.charts import CompareChart, Intervals
from generator.account.places import SCALE, decimal, threshold_places
from generator.account.tally import VERDICT_STATUSES
from generator.reading.formats import Formats
from generator.site.charts import Chart

WIDTH = 720
"""The width of every chart, in CSS pixels at full size; a narrower page scales it down."""
PIECE = 40
"""The most rows one piece of a chart draws: a piece fits on an A4 page whole."""
LOW, HIGH = -0.02, 1.02
"""The score axis, as the site's charts draw it."""
STATUS = ("#2e7d32", "#c62828", "#757575", "#1565c0")
"""Pass, fail, not judged, measured: the site's colours."""
THRESHOLD = "#c62828"
BEFORE, NOW = ("#9e9e9e", "#616161"), ("#1976d2", "#0d47a1")
"""A comparison's bands and scores: the earlier run's, this run's."""
GRID = "#e0e0e0"
CHARACTER = 6.2
"""The width of an average character at the charts' 11 px, for laying out labels."""
LEGEND = 24
AXIS = 36


def _millionths(n: int | None) -> float | None:
    return None if n is None else n / SCALE


def _number(value: float) -> str:
    """A coordinate: one decimal, never ``-0.0``."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _fitted(text: str, room: float) -> str:
    """``text`` cut in its middle to fit ``room`` pixels: a label's end (the check) counts as
    much as its start (the case)."""
    most = max(int(room / CHARACTER), 5)
    if len(text) <= most:
        return text
    head = (most - 1) // 2
    return text[:head] + "…" + text[len(text) - (most - 1 - head) :]


@dataclass(frozen=True)
class _Frame:
    """Where a piece draws: its label column, its plot's left and right edges, its top."""

    left: float
    right: float
    top: float
    scale: _Scale

    def x(self, value: float) -> float:
        low, high = self.scale.low, self.scale.high
        clamped = min(max(value, low), high)
        return self.left + (clamped - low) / (high - low) * (self.right - self.left)


@dataclass(frozen=True)
class _Scale:
    """A score axis: its ends, and the figures it marks, five steps apart from ``start``."""

    low: float
    high: float
    start: float
    step: float
    places: int


UNIT = _Scale(LOW, HIGH, 0.0, 0.2, 1)
"""The axis of scores that are shares from 0 to 1."""


def _scale(figures: Sequence[float | None]) -> _Scale:
    """0 to 1 where every figure is a share; else the figures' own scale with 0 on it (a count,
    seconds), five round steps wide, as ``charts.js`` draws it."""
    shown = [f for f in figures if f is not None]
    if all(0 <= f <= 1 for f in shown):
        return UNIT
    low, high = min(0.0, *shown), max(0.0, *shown)
    unit = 10.0 ** math.floor(math.log10((high - low) / 5))
    step = next(
        m * unit
        for m in (1, 2, 2.5, 5, 10)
        if math.floor(low / (m * unit)) * m * unit + 5 * m * unit >= high
    )
    start = math.floor(low / step) * step
    places = max(0, -decimal(step).normalize().as_tuple().exponent)  # type: ignore[operator]
    margin = step / 10
    return _Scale(start - margin, start + 5 * step + margin, start, step, places)


def _frame(names: Sequence[str], legend: bool, scale: _Scale) -> _Frame:
    longest = max((len(name) for name in names), default=0)
    label = min(max(longest * CHARACTER + 12, 60.0), WIDTH * 0.42)
    return _Frame(label, WIDTH - 16.0, LEGEND if legend else 6.0, scale)


def _legend(items: Sequence[tuple[Markup, str]]) -> list[str]:
    """A row (or rows) of legend entries: each a glyph 14 px wide and its words."""
    parts, x, y = [], 8.0, 15.0
    for glyph, words in items:
        width = 20 + len(words) * CHARACTER + 16
        if x + width > WIDTH and x > 8:
            x, y = 8.0, y + 16
        parts.append(
            f'<g transform="translate({_number(x)},{_number(y)})">{glyph}'
            f'<text x="20" y="4">{escape(words)}</text></g>'
        )
        x += width
    return parts


def _swatch(colour: str, opacity: str) -> Markup:
    return Markup(
        f'<rect x="0" y="-4" width="14" height="9" fill="{colour}" fill-opacity="{opacity}"/>'
    )


def _diamond(x: float, y: float, colour: str, size: float = 5.0) -> str:
    return (
        f'<path d="M{_number(x)},{_number(y - size)}l{size},{size}l-{size},{size}'
        f'l-{size},-{size}z" fill="{colour}"/>'
    )


DIAMOND = Markup(_diamond(7, 0, "#212121"))
TICK = Markup(f'<path d="M7,-6v12" stroke="{THRESHOLD}" stroke-width="2"/>')
DASH = Markup(f'<path d="M0,0h14" stroke="{THRESHOLD}" stroke-width="2" stroke-dasharray="4 2"/>')


def _axis(frame: _Frame, bottom: float, figures: Formats, title: str) -> list[str]:
    """Grid lines at every fifth of the score's range, their figures, and the axis's title."""
    parts = []
    scale = frame.scale
    for step in range(6):
        figure = scale.start + step * scale.step
        x = _number(frame.x(figure))
        parts.append(
            f'<path d="M{x},{_number(frame.top)}V{_number(bottom)}" stroke="{GRID}"/>'
            f'<text x="{x}" y="{_number(bottom + 14)}" text-anchor="middle">'
            f"{escape(figures.score(figure, scale.places))}</text>"
        )
    middle = _number((frame.left + frame.right) / 2)
    parts.append(
        f'<text x="{middle}" y="{_number(bottom + 29)}" text-anchor="middle">{escape(title)}</text>'
    )
    return parts


def _svg(height: float, parts: Sequence[str]) -> Markup:
    """A piece of a chart; the element around it names the chart for a reader of the page."""
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="report-chart" viewBox="0 0 {WIDTH} '
        f'{_number(height)}" width="{WIDTH}" height="{_number(height)}" aria-hidden="true">'
        + "".join(parts)
        + "</svg>"
    )


def _pieces(
    count: int, draw: Callable[[int, int, bool], Markup], piece: int = PIECE
) -> tuple[Markup, ...]:
    """The pieces of a chart of ``count`` rows: ``draw(start, stop, first)`` each."""
    return tuple(
        draw(start, min(start + piece, count), start == 0) for start in range(0, count, piece)
    )


@dataclass(frozen=True)
class IntervalRow:
    """One sampled check of an interval chart, its numbers back from millionths."""

    case: str
    check: int
    name: str
    """Its case and its check, as the chart of every check names it."""
    low: float
    high: float
    score: float | None
    status: int
    threshold: float | None


def interval_rows(value: Intervals, run: str) -> list[IntervalRow]:
    """The rows of an interval chart, each named by its case (``run`` for the whole run's)."""
    rows = []
    for row in value.rows:
        where = run if row.case < 0 else value.cases[row.case]
        rows.append(
            IntervalRow(
                where,
                row.check,
                f"{where} · {value.checks[row.check]}",
                _millionths(row.low) or 0.0,
                _millionths(row.high) or 0.0,
                _millionths(row.score),
                VERDICT_STATUSES.index(row.status),
                None if row.status == "measured" else _millionths(row.threshold),
            )
        )
    return rows


ROW = 12.0
"""An interval chart's row: two charts of a check of 30 cases fit on an A4 page."""


def intervals(
    value: Intervals, check: int | None, labels: Mapping[str, str], figures: Formats
) -> tuple[Markup, ...]:
    """The pieces of a run's interval chart: each sampled check (of ``check`` only, when one is
    named, its rows named by their case) as the band of its samples, its score and its
    threshold."""
    every = interval_rows(value, labels["where.run"])
    rows = [row for row in every if check is None or row.check == check]
    names = [row.name if check is None else row.case for row in rows]
    statuses = [labels[f"status.{status}"] for status in VERDICT_STATUSES]
    shown = sorted({row.status for row in rows})
    band = labels["chart.band"]
    legend = [(_swatch(STATUS[s], ".55"), f"{band}: {statuses[s]}") for s in shown]
    legend += [(DIAMOND, labels["chart.score"]), (TICK, labels["chart.threshold"])]

    scale = _scale([f for row in rows for f in (row.low, row.high, row.score, row.threshold)])

    def draw(start: int, stop: int, first: bool) -> Markup:
        frame = _frame(names, first, scale)
        parts = _legend(legend) if first else []
        y = frame.top
        for row, name in zip(rows[start:stop], names[start:stop], strict=True):
            middle = y + ROW / 2
            left, right = frame.x(row.low), frame.x(row.high)
            part = [
                f"<g><title>{escape(row.name)}</title>",
                f'<text x="{_number(frame.left - 6)}" y="{_number(middle + 4)}" '
                f'text-anchor="end">{escape(_fitted(name, frame.left - 10))}</text>',
                f'<rect x="{_number(left)}" y="{_number(middle - 3.5)}" '
                f'width="{_number(max(right - left, 2.0))}" height="7" '
                f'fill="{STATUS[row.status]}" fill-opacity=".55"/>',
            ]
            if row.threshold is not None:
                x = _number(frame.x(row.threshold))
                part.append(
                    f'<path d="M{x},{_number(middle - 5)}v10" stroke="{THRESHOLD}" '
                    'stroke-width="2"/>'
                )
            if row.score is not None:
                part.append(_diamond(frame.x(row.score), middle, "#212121", 3.5))
            parts.append("".join(part) + "</g>")
            y += ROW
        parts += _axis(frame, y, figures, labels["chart.score"])
        return _svg(y + AXIS, parts)

    return _pieces(len(rows), draw)


def interval_table(
    value: Intervals, labels: Mapping[str, str], figures: Formats
) -> tuple[tuple[str, ...], ...]:
    """The rows of an interval chart's table of numbers, as ``charts.js`` writes them
    (``intervalTable``): each figure to the decimals its check's scores need."""
    rows = interval_rows(value, labels["where.run"])
    digits = {
        check: threshold_places(
            [
                v
                for row in rows
                if row.check == check
                for v in (row.low, row.high, row.score)
                if v is not None
            ],
            next((r.threshold for r in rows if r.check == check and r.threshold is not None), 0.0),
        )
        for check in {row.check for row in rows}
    }

    def shown(value: float | None, check: int) -> str:
        return "" if value is None else figures.score(value, digits[check])

    return tuple(
        (
            row.name,
            shown(row.low, row.check),
            shown(row.score, row.check),
            shown(row.high, row.check),
            shown(row.threshold, row.check),
            labels[f"status.{VERDICT_STATUSES[row.status]}"],
        )
        for row in rows
    )


PAIR = 26.0
"""A comparison chart's row: two bands."""


def compare(value: CompareChart, labels: Mapping[str, str], figures: Formats) -> tuple[Markup, ...]:
    """The pieces of one check's chart in both runs, case by case: the earlier run's band above
    this run's, each with its score, and the threshold across them."""
    cases = [case or labels["where.run"] for case in value.cases]
    sides = [[[_millionths(n) for n in side] for side in pair] for pair in value.sides]
    threshold = _millionths(value.threshold)
    legend = [
        (_swatch(BEFORE[0], ".6"), labels["chart.before"]),
        (_swatch(NOW[0], ".6"), labels["chart.now"]),
        (DIAMOND, labels["chart.score"]),
        (DASH, labels["chart.threshold"]),
    ]

    scale = _scale([threshold, *(f for pair in sides for side in pair for f in side)])

    def draw(start: int, stop: int, first: bool) -> Markup:
        frame = _frame(cases, first, scale)
        parts = _legend(legend) if first else []
        y = frame.top
        for case, pair in zip(cases[start:stop], sides[start:stop], strict=True):
            part = [
                f"<g><title>{escape(case)}</title>",
                f'<text x="{_number(frame.left - 6)}" y="{_number(y + PAIR / 2 + 4)}" '
                f'text-anchor="end">{escape(_fitted(case, frame.left - 10))}</text>',
            ]
            for offset, (low, high, score), (band, mark) in zip(
                (y + 8, y + 18), pair, (BEFORE, NOW), strict=True
            ):
                if low is not None and high is not None:
                    left, right = frame.x(low), frame.x(high)
                    part.append(
                        f'<rect x="{_number(left)}" y="{_number(offset - 4)}" '
                        f'width="{_number(max(right - left, 2.0))}" height="8" fill="{band}" '
                        'fill-opacity=".6"/>'
                    )
                if score is not None:
                    part.append(_diamond(frame.x(score), offset, mark, 4.0))
            parts.append("".join(part) + "</g>")
            y += PAIR
        if threshold is not None:
            x = _number(frame.x(threshold))
            parts.append(
                f'<path d="M{x},{_number(frame.top)}V{_number(y)}" stroke="{THRESHOLD}" '
                'stroke-width="2" stroke-dasharray="6 3"/>'
            )
        parts += _axis(frame, y, figures, labels["chart.score"])
        return _svg(y + AXIS, parts)

    return _pieces(len(cases), draw, PIECE * 3 // 4)


class Drawn:
    """Draws a page's charts as SVG where the page is made (``site.charts.Drawer``): a report
    carries its charts and their tables, and no data for a script."""

    def intervals(self, chart: Chart, labels: Mapping[str, str], figures: Formats) -> Chart:
        value = chart.value
        assert isinstance(value, Intervals)
        pieces = tuple(
            Markup("\n").join(intervals(value, n, labels, figures))
            for n in range(len(value.checks))
        )
        return replace(chart, drawn=pieces, rows=interval_table(value, labels, figures))

    def compare(self, chart: Chart, labels: Mapping[str, str], figures: Formats) -> Chart:
        value = chart.value
        assert isinstance(value, CompareChart)
        return replace(chart, drawn=(Markup("\n").join(compare(value, labels, figures)),))
