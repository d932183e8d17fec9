"""``diff``: two runs side by side, neither of them the reference, and no verdict on either.

Checks that could not be paired come first, with why (see ``pairing``). The report is
symmetric: ``diff(b, a)`` says what ``diff(a, b)`` says with left and right
swapped, in the same order. Per check, in this order of rules: a check only one run has; a
check either run could not judge (favours neither); a pass/fail flip, which favours the
passing side whatever the scores; a gap within the larger of the two tolerances; otherwise
the higher score is favoured.

Where a favoured check was sampled on both sides, its two intervals decide how much the
advantage says: intervals that share a point (touching counts) mean this check does not tell
the runs apart, which goes at the head of the report; an advantage whose interval lies wholly
beyond the other's is counted as exceeding both runs' observed intervals.
"""

from __future__ import annotations

from generator.account.chance import chance_of
from generator.account.checks import Pair
from generator.account.sides import Side, SideBySide, side_by_side
from generator.document.numbers import at_precision
from generator.document.redacted import RedactedRun
from generator.reading.chance import chance_facts
from generator.reading.facts import Fact, Kind, Param, Reading, fact
from generator.reading.pairing import identity_names, pairing_facts
from generator.reading.refusals import refuse_unlike


def diff(left: RedactedRun, right: RedactedRun) -> Reading:
    """The symmetric report of two runs that follow the same rules under the same judge."""
    refuse_unlike(left, right)
    rows = side_by_side(left, right)
    favoured = [r for r in rows if r.standing == "favours"]
    sampled = [r for r in favoured if r.intervals is not None]
    overlapping = [r for r in sampled if r.overlaps]
    facts = pairing_facts(left, right, "head")
    apart = identity_names(left, right)
    if overlapping:
        facts.append(fact("head", "diff.head.overlap", count=len(overlapping), pairs=len(sampled)))
        facts += [_overlap(r) for r in overlapping]
    within = sum(1 for r in rows if r.standing == "within")
    facts.append(
        fact("head", "diff.head.checks", count=len(rows), differing=len(favoured), within=within)
    )
    if favoured:
        facts.append(fact("head", "diff.head.favours", **_sides(favoured)))
    only = [r for r in rows if r.standing == "only"]
    if only:
        facts.append(fact("head", "diff.head.one_side", **_sides(only)))
    errored = sum(1 for r in rows if r.standing == "errored")
    if errored:
        facts.append(fact("head", "diff.head.errored", count=errored))
    if sampled:
        beyond = [r for r in sampled if not r.overlaps]
        facts.append(fact("head", "diff.head.exceeds", **_sides(beyond), pairs=len(sampled)))
    for standing in ("favours", "errored", "only", "within"):
        facts += [
            f
            for r in rows
            if r.standing == standing
            and not (standing == "only" and r.pair.named.verdict.assertion in apart)
            for f in _row_fact(r)
        ]
    chance = chance_of(
        (r.pair.named.label, r.pair.named.case, r.pair.left, r.pair.right) for r in rows
    )
    facts += chance_facts(chance, "diff")
    return Reading("diff", left.key, right.key, tuple(facts), chance)


def _where(pair: Pair) -> dict[str, Param]:
    """The check's name as either run gives it: the same whichever run is on the left."""
    labels = [c.where for c in (pair.left, pair.right) if c is not None]
    return min(labels, key=lambda where: str(where["check"]))


def _sides(rows: list[SideBySide]) -> dict[str, Param]:
    return {side: sum(1 for r in rows if r.side == side) for side in ("left", "right")}


def _overlap(row: SideBySide) -> Fact:
    assert row.intervals is not None
    (left_low, left_high), (right_low, right_high) = row.intervals
    return fact(
        "head",
        "diff.overlap",
        **_where(row.pair),
        left_low=left_low,
        left_high=left_high,
        right_low=right_low,
        right_high=right_high,
    )


_FAVOURS: dict[tuple[Side | None, bool], Kind] = {
    ("left", False): "diff.favours_left",
    ("left", True): "diff.favours_left.flip",
    ("right", False): "diff.favours_right",
    ("right", True): "diff.favours_right.flip",
}
_ERRORED: dict[Side | None, Kind] = {
    "left": "diff.errored.left",
    "right": "diff.errored.right",
    None: "diff.errored.both",
}


def _row_fact(row: SideBySide) -> list[Fact]:
    where = _where(row.pair)
    if row.standing == "only":
        return [
            fact("checks", "diff.only_left" if row.side == "left" else "diff.only_right", **where)
        ]
    if row.standing == "errored":
        return [fact("checks", _ERRORED[row.side], **where)]
    assert row.pair.left is not None and row.pair.right is not None
    left, right = row.pair.left.score, row.pair.right.score
    if row.standing == "within":
        if at_precision(left) == at_precision(right):
            return []
        tolerance = max(row.pair.left.verdict.tolerance, row.pair.right.verdict.tolerance)
        return [fact("checks", "diff.within", **where, left=left, right=right, tolerance=tolerance)]
    kind = _FAVOURS[(row.side, row.flip)]
    if row.flip:
        return [fact("checks", kind, **where, left=left, right=right)]
    return [fact("checks", kind, **where, left=left, right=right, gap=abs(right - left))]
