"""A run against another, counted once: the movements the reading tells, the rows a table
shows, each check's decimals, how many rows went which way, and the charts. Every page, the
report, the Markdown summary and the build's "worse than its reference" count read this one
value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.account.charts import CompareChart, compare_charts
from generator.account.movements import Movement, movements
from generator.account.places import (
    Move,
    agreeing_places,
    change_places,
    millionths,
    places_off,
)
from generator.account.rows import Row, Verdict, comparison_rows
from generator.document.redacted import RedactedRun

VERDICT_ORDER: tuple[Verdict, ...] = (
    "worse",
    "unjudged",
    "rules",
    "new",
    "gone",
    "counted",
    "better",
    "same",
)
"""How a comparison counts its rows: what a reader looks for first."""


@dataclass(frozen=True)
class Comparison:
    """``run`` against the run it is read against."""

    moved: tuple[Movement, ...]
    rows: tuple[Row, ...]
    places: Mapping[str, int]
    """Each check's decimals, shared by both sides and the change."""
    charts: tuple[CompareChart, ...]

    @property
    def counts(self) -> tuple[tuple[Verdict, int], ...]:
        """How many rows went each way, in ``VERDICT_ORDER``; none for a way no row went."""
        counts = Counter(row.verdict for row in self.rows)
        return tuple((v, counts[v]) for v in VERDICT_ORDER if counts[v])

    @property
    def worse(self) -> int:
        """The checks that got worse."""
        return sum(row.verdict == "worse" for row in self.rows)


def comparison_of(run: RedactedRun, other: RedactedRun) -> Comparison:
    """``run`` against ``other``, two runs that can be compared (``reading.refusals``)."""
    moved = movements(run, other)
    rows = tuple(comparison_rows(moved))
    return Comparison(tuple(moved), rows, comparison_places(rows), compare_charts(rows))


def comparison_places(rows: Sequence[Row]) -> dict[str, int]:
    """Decimals for each check of a comparison: as its tolerance needs, more where a score
    would read as its threshold, a change as none, or a row's change as other than its two
    scores' difference as printed or on the other side of its tolerance
    (``places.agreeing_places``), as the reading's sentences are."""
    found: dict[str, tuple[list[int | None], int, float | None, list[float], list[Move]]] = {}
    for row in rows:
        for side in (row.before, row.now):
            if side is not None:
                if row.check not in found:
                    verdict = side.verdict
                    limit = millionths(verdict.threshold)
                    found[row.check] = ([], limit, verdict.tolerance or None, [], [])
                found[row.check][0].extend(side.figures)
        if row.delta is not None:
            found[row.check][3].append(row.delta)
            before, now = row.before, row.now
            if before is not None and now is not None:
                (was, *_), (score, *_) = before.figures, now.figures
                if was is not None and score is not None:
                    limit = millionths(now.verdict.tolerance)
                    found[row.check][4].append((was, score, millionths(row.delta), limit))
    return {
        check: agreeing_places(moved, change_places(changes, places_off(figures, limit, spread)))
        for check, (figures, limit, spread, changes, moved) in found.items()
    }
