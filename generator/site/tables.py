"""The tables of a page with a row or a cell for each check, joined as strings.

A comparison page's table has a row for each check of each case (180 in the bench's shape, of
seven figures each), and a run page's case grid a cell: jinja2 spends more on each cell (an
escape, a lookup, a test) than the cell holds, so their rows are joined here from pieces
escaped once, and the page's template places them. What does not depend on the language
(which rows, their classes, their figures rounded to their check's decimals) is made once for
both languages; each language's ``Formats`` writes the figures, which are digits, a decimal
mark and signs: nothing to escape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from markupsafe import Markup, escape

from generator.reading.checks import Check
from generator.reading.formats import Formats, at_places, rounded
from generator.reading.table import Row
from generator.site.cases import Cell, GridLine
from generator.site.charts import STATUS_LETTER


class Figures(NamedTuple):
    """One run's side of a compared row, rounded to the row's decimals (in millionths): its
    status letter, its score (None where it could not be judged) and its sampled range."""

    status: str
    score: int | None
    interval: tuple[int, int] | None

    def written(self, places: int, figures: Formats) -> tuple[str, str]:
        """The score (or ``unknown``) and the sampled range (or nothing), as ``figures``'s
        language writes them."""
        score = figures.unknown if self.score is None else figures.rounded(self.score, places)
        if self.interval is None:
            return score, ""
        low, high = self.interval
        return score, f"{figures.rounded(low, places)}–{figures.rounded(high, places)}"


def figures_of(check: Check | None, places: int) -> Figures | None:
    """``check``'s side of a row at ``places`` decimals; None where the run has no such check."""
    if check is None:
        return None
    score, low, high = check.figures
    return Figures(
        STATUS_LETTER[check.verdict.status],
        None if score is None else at_places(score, places),
        None if low is None or high is None else (at_places(low, places), at_places(high, places)),
    )


class ComparedLine(NamedTuple):
    """A row of a comparison page's table in no language yet: its names escaped, its figures
    rounded, its verdict's class."""

    case: Markup | None
    """None for a check of the whole run, which each language names."""
    check: Markup
    places: int
    before: Figures | None
    now: Figures | None
    change: int | None
    verdict: str
    changed: bool
    line: bool
    """Whether the run's reading finds the check on the line."""


def compared_lines(
    rows: Sequence[Row], places: Mapping[str, int], marked: set[tuple[str, str]]
) -> tuple[ComparedLine, ...]:
    """The rows of a comparison, each at its check's decimals; ``marked`` are the (case,
    check) pairs on the line."""
    names: dict[str, Markup] = {}
    for row in rows:
        for name in (row.case, row.check):
            if name is not None and name not in names:
                names[name] = escape(name)
    return tuple(
        ComparedLine(
            None if row.case is None else names[row.case],
            names[row.check],
            digits := places[row.check],
            figures_of(row.before, digits),
            figures_of(row.now, digits),
            None if row.delta is None else rounded(row.delta, digits),
            "threshold" if row.threshold_moved else row.verdict,
            row.verdict != "same",
            (row.case, row.check) in marked,
        )
        for row in rows
    )


def compared_rows(
    lines: Sequence[ComparedLine], labels: Mapping[str, str], figures: Formats
) -> Markup:
    """The rows of a comparison page's table in the language of ``labels`` and ``figures``."""
    run = escape(labels["where.run"])
    unknown = escape(figures.unknown)
    said = {v: escape(labels[f"verdict.{v}"]) for v in {line.verdict for line in lines}}

    def side(shown: Figures | None, places: int) -> str:
        if shown is None:
            return "<td>—"
        score, interval = shown.written(places, figures)
        sampled = f" <small>{interval}</small>" if interval else ""
        return f"<td class={shown.status}>{unknown if shown.score is None else score}{sampled}"

    return Markup(
        "".join(
            f"<tr{'' if line.changed else ' class=same'}><th>{line.case or run}"
            f"<td>{line.check}{side(line.before, line.places)}{side(line.now, line.places)}"
            f"<td>{'' if line.change is None else figures.rounded_change(line.change, line.places)}"
            f'<td class="runsite-verdict {line.verdict}">{"◐ " if line.line else ""}'
            f"{said[line.verdict]}\n"
            for line in lines
        )
    )


def case_rows(
    lines: Sequence[GridLine], width: int, labels: Mapping[str, str], figures: Formats
) -> Markup:
    """The rows of a run page's case grid of ``width`` checks, in the language of ``labels``
    and ``figures``."""
    suspended = f'<td colspan="{width}">{escape(labels["status.suspended"])}'

    def cell(shown: Cell | None) -> str:
        if shown is None:
            return "<td class=n>"
        css, score, places = shown
        text = "" if score is None else figures.rounded(score, places)
        return f"<td class={css}>{text}" if css else f"<td>{text}"

    return Markup(
        "".join(
            f'<tr id="{line.anchor}"><th>{line.case}'
            f"{suspended if line.suspended else ''.join(map(cell, line.cells))}\n"
            for line in lines
        )
    )
