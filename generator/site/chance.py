"""A comparison's tests as its page shows them: a row for each check over the cases both runs
judged, its mean change drawn as an interval on a fixed scale. (The p of each case's samples is
on that case's row of the comparison table: ``tables.compared_table``.)"""

from __future__ import annotations

from typing import NamedTuple

from generator.account.chance import Chance, CheckChance
from generator.account.places import places as decimals
from generator.account.significance import ALPHA, Bounds
from generator.reading.formats import Formats

SCALE = (-1.0, 1.0)
"""The range every change is drawn on: a score moves by at most 1 either way."""


class Drawn(NamedTuple):
    """An interval on ``SCALE``, in percent of a cell's width: its ends and its mean."""

    low: float
    high: float
    mean: float


def drawn(change: float, bounds: Bounds) -> Drawn | None:
    """Where a change and its interval fall on ``SCALE``, each clamped to it; None for the
    change of a check on a scale of its own that runs past it, which its figures say alone."""
    low, high = SCALE
    if not low <= change <= high:
        return None

    def at(value: float) -> float:
        return round((min(max(value, low), high) - low) / (high - low) * 100, 2)

    return Drawn(at(bounds.low), at(bounds.high), at(change))


class ChanceRow(NamedTuple):
    """One check's tests, written in one language."""

    check: str
    pairs: str
    flips: str
    mcnemar: str
    change: str
    drawn: Drawn | None
    wilcoxon: str
    beyond: str
    """``worse``, ``better``, ``within`` or ``too_few``: the row's class and its label's key."""


def chance_rows(chance: Chance, figures: Formats) -> list[ChanceRow]:
    """A row for each check of ``chance``."""
    return [_row(c, figures) for c in chance.checks]


def _row(check: CheckChance, figures: Formats) -> ChanceRow:
    def p(raw: float | None, adjusted: float | None) -> str:
        if raw is None or adjusted is None:
            return "—"
        return f"{figures.p_value(raw)} ({figures.p_value(adjusted)})"

    change, shown = "—", None
    if check.scored and check.change is not None and check.change_bounds is not None:
        low, high = check.change_bounds
        places = decimals([low, high], None, [check.change])
        change = (
            f"{figures.change(check.change, places)} "
            f"({figures.score(low, places)}…{figures.score(high, places)})"
        )
        shown = drawn(check.change, check.change_bounds)
    return ChanceRow(
        check=check.check,
        pairs=figures.count(check.pairs),
        flips=f"{figures.count(check.worse)} ↓ · {figures.count(check.better)} ↑",
        mcnemar=p(check.mcnemar, check.mcnemar_holm),
        change=change,
        drawn=shown,
        wilcoxon=p(check.wilcoxon, check.wilcoxon_holm),
        beyond=_beyond(check),
    )


def _beyond(check: CheckChance) -> str:
    held = [p for p in (check.mcnemar_holm, check.wilcoxon_holm) if p is not None]
    if held and min(held) < ALPHA:
        return "worse" if check.worse_beyond_chance else "better"
    moved = check.worse + check.better or check.scored
    if moved and not (check.verdicts_decidable or check.scores_decidable):
        return "too_few"
    return "within"
