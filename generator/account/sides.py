"""Two runs side by side, neither the reference: for each check, which run it favours, if
any, by the rules ``reading.diff`` words (a check only one run has; one either run could not
judge; a pass/fail flip; a gap within the larger tolerance; else the higher score)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.account.checks import Check, Pair, measured, pairs
from generator.account.samples import Interval, overlap
from generator.document.numbers import at_precision, within
from generator.document.redacted import RedactedRun

Side = Literal["left", "right"]
Standing = Literal["favours", "errored", "only", "within"]


@dataclass(frozen=True)
class SideBySide:
    """One slot of the diff."""

    pair: Pair
    standing: Standing
    side: Side | None = None
    """The side favoured, or the only side that has the check or that errored."""
    flip: bool = False
    intervals: tuple[Interval, Interval] | None = None
    """Both runs' sampled intervals, for a favoured check sampled on both sides."""

    @property
    def overlaps(self) -> bool:
        """Whether this check's two intervals share a point."""
        return self.intervals is not None and overlap(*self.intervals)


def side_by_side(left: RedactedRun, right: RedactedRun) -> list[SideBySide]:
    """Every slot of either run, in an order that does not depend on which is on the left; a
    measurement no threshold judged favours neither, and is left out where both runs have it."""
    found = [p for p in pairs(left, right) if not (measured(p) and p.left and p.right)]
    return [_row(pair) for pair in _in_symmetric_order(found)]


def _in_symmetric_order(found: list[Pair]) -> list[Pair]:
    """Reading order that does not depend on which run is on the left."""

    def rank(pair: Pair) -> tuple[int, int, tuple[str, str, str, int]]:
        positions = [c.position for c in (pair.left, pair.right) if c is not None]
        return (min(positions), max(positions), pair.slot)

    return sorted(found, key=rank)


def _row(pair: Pair) -> SideBySide:
    if pair.left is None or pair.right is None:
        return SideBySide(pair, "only", "left" if pair.right is None else "right")
    left, right = pair.left, pair.right
    errors = (left.verdict.status == "error", right.verdict.status == "error")
    if any(errors):
        return SideBySide(
            pair, "errored", None if all(errors) else ("left" if errors[0] else "right")
        )
    intervals = _intervals(left, right)
    if left.verdict.status != right.verdict.status:
        side: Side = "left" if left.verdict.status == "pass" else "right"
        return SideBySide(pair, "favours", side, flip=True, intervals=intervals)
    gap = at_precision(right.score - left.score)
    if within(abs(gap), max(left.verdict.tolerance, right.verdict.tolerance)):
        return SideBySide(pair, "within")
    return SideBySide(pair, "favours", "right" if gap > 0 else "left", intervals=intervals)


def _intervals(left: Check, right: Check) -> tuple[Interval, Interval] | None:
    one, other = left.sampled, right.sampled
    return None if one is None or other is None else (one, other)
