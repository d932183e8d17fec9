"""What the reading says of a run against its reference, from the movements
(``account.movements``): which checks moved, how, and what their samples add."""

from __future__ import annotations

from generator.account.movements import Movement, Outcome
from generator.account.samples import Interval, overlap
from generator.reading.facts import Fact, Kind, fact


def overlapping(moved: list[Movement]) -> list[tuple[Movement, Interval, Interval]]:
    """Checks that moved although both runs' sampled intervals share a point."""
    found = []
    for m in moved:
        if m.outcome in ("regressed", "improved"):
            old, new = m.reference.sampled, m.run.sampled
            if old is not None and new is not None and overlap(old, new):
                found.append((m, old, new))
    return found


def tally(moved: list[Movement]) -> list[Fact]:
    """How many checks fell under each outcome."""
    outcomes = [m.outcome for m in moved]
    found = [
        fact(
            "ran",
            "tally.moved",
            regressed=outcomes.count("regressed"),
            errored=outcomes.count("errored"),
            new=outcomes.count("new"),
            missing=outcomes.count("missing"),
            improved=outcomes.count("improved"),
            unchanged=outcomes.count("unchanged") + outcomes.count("within_noise"),
        )
    ]
    denominators = sum(1 for m in moved if m.denominators is not None)
    if denominators:
        found.append(fact("ran", "tally.denominator_moved", count=denominators))
    if "within_noise" in outcomes:
        found.append(fact("ran", "tally.within_noise", count=outcomes.count("within_noise")))
    return found


_ORDER: tuple[Outcome, ...] = ("regressed", "errored", "new", "missing", "improved")
_QUIET: tuple[Outcome, ...] = ("unchanged", "within_noise")


def moved_facts(
    moved: list[Movement], calibration: list[Fact], suspended: list[Fact]
) -> list[Fact]:
    """The section "what moved": first the checks that moved inside overlapping intervals,
    then each outcome in turn, the run's missed calibration bands after the errored checks,
    the denominators that moved, and the cases set aside last."""
    found: list[Fact] = []
    overlaps = overlapping(moved)
    if overlaps:
        total = sum(1 for m in moved if m.outcome in ("regressed", "improved"))
        found.append(fact("moved", "moved.overlap", count=len(overlaps), moved=total))
        found += [_overlap(m) for m, _, _ in overlaps]
    for outcome in _ORDER:
        found += [f for m in moved if m.outcome == outcome for f in _fact_of(m)]
        if outcome == "errored":
            found += calibration
    found += [f for m in moved if m.outcome in _QUIET for f in _fact_of(m)]
    for m in moved:
        if m.denominators is not None:
            was, count = m.denominators
            where = m.pair.named.where
            found.append(fact("moved", "check.denominator_moved", **where, before=was, now=count))
    return found + suspended


_FLIP: dict[str, Kind] = {"regressed": "check.regressed.flip", "improved": "check.improved.flip"}
_SCORED: dict[str, Kind] = {
    "regressed": "check.regressed",
    "improved": "check.improved",
    "unchanged": "check.unchanged",
}


def _overlap(m: Movement) -> Fact:
    """A check that moved although both runs' intervals share a point: its figures are the
    checks' stored ones (``Check.stored``), at storage precision already."""
    before, now = m.reference.stored, m.run.stored
    return Fact(
        "moved",
        "check.overlap",
        {
            **m.pair.named.where,
            "before_low": _figure(before.low),
            "before_high": _figure(before.high),
            "now_low": _figure(now.low),
            "now_high": _figure(now.high),
        },
    )


def _figure(stored: float | None) -> float:
    """A stored figure the movement's outcome says is there."""
    assert stored is not None
    return stored


def _fact_of(m: Movement) -> list[Fact]:
    """The fact that says how one check moved; none for a score that did not move at all. Its
    figures are the checks' stored ones (``Check.stored``) and the movement's own change, all
    at storage precision already."""
    where = m.pair.named.where
    if m.outcome == "new":
        if m.run.verdict.status == "error":
            return [fact("moved", "check.new.error", **where)]
        new = m.run.stored
        return [
            Fact(
                "moved",
                "check.new",
                {**where, "now": _figure(new.score), "threshold": new.threshold},
            )
        ]
    if m.outcome == "missing":
        return [fact("moved", "check.missing", **where)]
    if m.outcome == "errored":
        return [fact("moved", _errored_kind(m), **where)]
    was, now = m.reference.stored, m.run.stored
    before, after = _figure(was.score), _figure(now.score)
    if m.flip:
        kind = _FLIP[m.outcome]
        return [
            Fact(
                "moved", kind, {**where, "before": before, "now": after, "threshold": now.threshold}
            )
        ]
    if m.outcome == "within_noise" and m.floor is not None:
        low, high = m.floor
        return [
            fact(
                "moved", "check.within_noise", **where, before=before, now=after, low=low, high=high
            )
        ]
    if m.outcome in _SCORED and m.delta:
        changed = {"before": before, "now": after, "delta": m.delta, "tolerance": now.tolerance}
        return [Fact("moved", _SCORED[m.outcome], {**where, **changed})]
    return []


def _errored_kind(m: Movement) -> Kind:
    before = m.reference.verdict.status == "error"
    now = m.run.verdict.status == "error"
    if before and now:
        return "check.errored.both"
    return "check.errored.now" if now else "check.errored.before"
