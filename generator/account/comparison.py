"""A run against another, counted once: the movements the reading tells, the rows a table
shows, each check's decimals, how many rows went which way, and the charts. Every page, the
report, the Markdown summary and the build's "worse than its reference" count read this one
value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from generator.account.chance import Chance, chance_of
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
    places: tuple[int, ...]
    """Each row's decimals, shared by its two sides and its change (``comparison_places``)."""
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

    @cached_property
    def chance(self) -> Chance:
        """Whether the runs differ beyond chance, tested when first asked: the build's count of
        checks worse than a reference never asks, and never imports scipy."""
        return chance_of((row.check, row.case, row.before, row.now) for row in self.rows)


def comparison_of(run: RedactedRun, other: RedactedRun) -> Comparison:
    """``run`` against ``other``, two runs that can be compared (``reading.refusals``)."""
    moved = movements(run, other)
    rows = tuple(comparison_rows(moved))
    return Comparison(tuple(moved), rows, comparison_places(rows), compare_charts(rows))


def comparison_places(rows: Sequence[Row]) -> tuple[int, ...]:
    """Decimals for each row of a comparison: its check's (as its tolerance needs, more where
    one of the check's scores would read as its threshold or a change as none), and more
    where the row's change would read as other than its two scores' difference as printed,
    or on the other side of its tolerance (``places.agreeing_places``), as
    the reading's sentences are. A row takes more only for itself: one row's figures never
    make every row of its check six decimals long."""
    found: dict[str, tuple[list[int | None], int, float | None, list[float]]] = {}
    for row in rows:
        for side in (row.before, row.now):
            if side is not None:
                if row.check not in found:
                    verdict = side.verdict
                    limit = millionths(verdict.threshold)
                    found[row.check] = ([], limit, verdict.tolerance or None, [])
                found[row.check][0].extend(side.figures)
        if row.delta is not None:
            found[row.check][3].append(row.delta)
    checks = {
        check: change_places(changes, places_off(figures, limit, spread))
        for check, (figures, limit, spread, changes) in found.items()
    }
    return tuple(agreeing_places(_moves(row), checks[row.check]) for row in rows)


def _moves(row: Row) -> list[Move]:
    """The row's change read with its two sides, and the run's tolerance, which its change
    must stay on the same side of as read."""
    before, now = row.before, row.now
    if row.delta is None or before is None or now is None:
        return []
    (was, *_), (score, *_) = before.figures, now.figures
    if was is None or score is None:
        return []
    return [(was, score, millionths(row.delta), millionths(now.verdict.tolerance))]
