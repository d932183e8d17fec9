"""What moved between a run and its reference, check by check.

Each slot is classified by the first rule that applies:

1. only one run has it: ``new`` or ``missing``;
2. either side errored: ``errored``;
3. the status flipped from pass to fail: ``regressed``; from fail to pass: ``improved``, unless
   its denominator moved (rule 4). A flip is never noise, whatever the tolerance or the
   intervals say;
4. a whole-run check that looked at as many cases as its reference's but counted a different
   number of them (``considered``) measured something else: ``denominator_moved``, neither
   better nor worse, never ``unchanged``;
5. the movement is within the **current** run's tolerance: ``unchanged`` (what was declared
   acceptable comes before what was measured);
6. the new score lies inside the **reference's** noise floor: ``within_noise``;
7. otherwise ``regressed`` or ``improved`` by the sign of the delta.

A calibration check measures the judge, not the system: it is left out unless it errored (its
band is read on the run itself).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from generator.document.numbers import at_precision, within
from generator.document.redacted import RedactedRun, RedactedVerdict
from generator.reading.checks import Check, Pair, pairs
from generator.reading.facts import Fact, Kind, fact
from generator.reading.samples import Interval, noise_floor, overlap

Outcome = Literal[
    "new",
    "missing",
    "errored",
    "regressed",
    "improved",
    "unchanged",
    "within_noise",
    "denominator_moved",
]


class Movement(NamedTuple):
    """How one slot moved from the reference (``before``) to the run (``now``); a named tuple,
    cheap to make, as every compared check has one."""

    pair: Pair
    outcome: Outcome
    flip: bool = False
    delta: float = 0.0
    """The change of score at storage precision, where both runs scored the check (a flip
    too); 0 where one did not."""
    floor: Interval | None = None
    denominators: tuple[int, int] | None = None
    """The reference's and the run's ``considered`` counts, when they differ."""

    @property
    def reference(self) -> Check:
        """The reference's check (present unless the outcome is ``new``)."""
        assert self.pair.left is not None
        return self.pair.left

    @property
    def run(self) -> Check:
        """The run's check (present unless the outcome is ``missing``)."""
        assert self.pair.right is not None
        return self.pair.right


_EXCLUDED = (
    "suspended_excluded",
    "errored_excluded",
    "unlabelled_excluded",
    "canary_excluded",
    "calibration_excluded",
)


def _count(verdict: RedactedVerdict, key: str) -> int | None:
    count = verdict.metadata.get(key)
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def _denominators(before: RedactedVerdict, now: RedactedVerdict) -> tuple[int, int] | None:
    """The reference's and the run's ``considered`` counts, when both looked at the same number
    of cases and counted a different number of them; None otherwise."""
    was, count = _count(before, "considered"), _count(now, "considered")
    if was is None or count is None or was == count:
        return None
    seen = [c + sum(_count(v, k) or 0 for k in _EXCLUDED) for c, v in ((was, before), (count, now))]
    return (was, count) if seen[0] == seen[1] else None


def _movement(pair: Pair) -> Movement | None:
    before, now = pair.left, pair.right
    errored = (before is not None and before.verdict.status == "error") or (
        now is not None and now.verdict.status == "error"
    )
    banded = (before is not None and before.band is not None) or (
        now is not None and now.band is not None
    )
    if banded and not errored:
        return None
    if before is None:
        return Movement(pair, "new")
    if now is None:
        return Movement(pair, "missing")
    if errored:
        return Movement(pair, "errored")
    delta = at_precision(now.score - before.score)
    moved = _denominators(before.verdict, now.verdict) if now.case is None else None
    if before.verdict.status != now.verdict.status:
        if now.verdict.status == "pass" and moved is not None:
            return Movement(pair, "denominator_moved", delta=delta, denominators=moved)
        flipped: Outcome = "improved" if now.verdict.status == "pass" else "regressed"
        return Movement(pair, flipped, True, delta)
    if moved is not None:
        return Movement(pair, "denominator_moved", delta=delta, denominators=moved)
    if within(abs(delta), now.verdict.tolerance):
        return Movement(pair, "unchanged", delta=delta)
    floor = noise_floor(before)
    if floor is not None and within(floor[0], now.score) and within(now.score, floor[1]):
        return Movement(pair, "within_noise", delta=delta, floor=floor)
    return Movement(pair, "regressed" if delta < 0 else "improved", delta=delta)


def movements(run: RedactedRun, reference: RedactedRun) -> list[Movement]:
    """Every slot of either run that is compared, in the run's reading order."""
    return [m for pair in pairs(reference, run) if (m := _movement(pair)) is not None]


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
