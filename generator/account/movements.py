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
band is read on the run itself). So is a measurement no threshold judges (``measured``) on
either side: which way of its own scale is better, nothing says.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from generator.account.checks import Check, Pair, measured, pairs
from generator.account.samples import Interval, noise_floor
from generator.document.numbers import at_precision, within
from generator.document.redacted import RedactedRun, RedactedVerdict

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
    if (banded or measured(pair)) and not errored:
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
