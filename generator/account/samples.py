"""What a check's samples say beyond its score: intervals, the line, the cap, the spread, noise.

Every comparison goes through ``numbers.meets`` and ``numbers.within`` (6 decimals, inclusive),
so a figure printed by the reading is exactly the figure it was judged on.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Literal

from generator.account.checks import Check
from generator.document.numbers import at_precision, meets, within
from generator.document.redacted import RedactedVerdict

Interval = tuple[float, float]

AT_THE_CAP = 0.000001
"""How close to its threshold a budget sample may be and still read as exactly at the cap: the
budget's score is clamped onto the threshold's side there, so the cost it would invert to is a
figure the clamp chose, not one that was measured."""


def overlap(one: Interval, other: Interval) -> bool:
    """Whether two intervals share a point (touching counts)."""
    return within(max(one[0], other[0]), min(one[1], other[1]))


def on_the_line(verdict: RedactedVerdict) -> bool:
    """``sample_min < threshold ≤ sample_max``: some samples fell below the threshold and some
    at or above it, so which side the check lands on is down to the samples drawn. A measurement
    judged by no threshold (``measured``) has no line. A band that
    only touches its threshold from above (1.0 to 1.0 at 1.0, or 0.7 to 0.9 at 0.7) passed on
    every sample, so it is not on the line; digline counts it (see the README). An unsampled
    check has no interval, so it never is."""
    low, high = verdict.sample_min, verdict.sample_max
    if low is None or high is None or verdict.status == "measured":
        return False
    return not meets(low, verdict.threshold) and meets(high, verdict.threshold)


@dataclass(frozen=True)
class Exceedance:
    """Calls of a passing cost budget that were over its per-call cap."""

    count: int
    samples: int
    cap: float
    worst: float | Literal["at_cap", "unbounded"]
    """The costliest call in dollars; ``at_cap`` when its sample sits at the threshold, and
    ``unbounded`` when its score is 0, which no finite cost inverts to."""


def exceedance(verdict: RedactedVerdict) -> Exceedance | None:
    """The per-call exceedances hidden by a cost budget that passed on the mean.

    A budget's sample ``s`` is ``cap / (cap + cost)``, so a sample below the threshold is a call
    over the cap, the cost inverts to ``cap·(1-s)/s``, and the costliest call is
    ``sample_min``. ``None`` when the check is not a sampled, passing budget with a cap in
    ``max_usd``, or when no call exceeded it.
    """
    cap = verdict.metadata.get("max_usd")
    samples = verdict.samples
    if verdict.status != "pass" or not samples or verdict.sample_min is None:
        return None
    if isinstance(cap, bool) or not isinstance(cap, int | float) or cap <= 0:
        return None
    over = sum(1 for s in samples if not meets(s, verdict.threshold))
    if over == 0:
        return None
    worst_sample = at_precision(verdict.sample_min)
    worst: float | Literal["at_cap", "unbounded"]
    if within(verdict.threshold - worst_sample, AT_THE_CAP):
        worst = "at_cap"
    elif worst_sample == 0:
        worst = "unbounded"
    else:
        worst = cap * (1 - worst_sample) / worst_sample
    return Exceedance(over, len(samples), float(cap), worst)


def directions(verdict: RedactedVerdict) -> tuple[int, int, int] | None:
    """How a judge's samples split between no (0), partly (strictly between) and yes (1).

    Two directions is a judge disagreeing with itself; three is a judge that is not measuring
    one thing, which a single spread figure would hide. ``None`` unless the check was judged,
    sampled, and its samples fall all three ways.
    """
    if not verdict.judged or not verdict.samples:
        return None
    stored = [at_precision(s) for s in verdict.samples]
    zero = sum(1 for s in stored if s == 0)
    full = sum(1 for s in stored if s == 1)
    partial = len(stored) - zero - full
    return (zero, partial, full) if zero and partial and full else None


def noise_floor(reference: Check) -> Interval | None:
    """The band around the reference's score that a new score may land in as noise.

    Over the whole run, the reference's own sampled interval (none when it has no width).
    On a case, only where the check declares ``floor_standard_errors`` w: the reference score
    ± w·√2·sd/√K over its K samples (none with fewer than 2 samples, with samples that are all
    0 or 1, or with no spread at all).
    """
    verdict = reference.verdict
    if verdict.score is None:
        return None
    if reference.case is None:
        interval = reference.sampled
        if interval is None or at_precision(interval[0]) == at_precision(interval[1]):
            return None
        return interval
    width = verdict.floor_standard_errors
    samples = verdict.samples or []
    if width is None or len(samples) < 2 or all(s in (0, 1) for s in samples):
        return None
    spread = statistics.stdev(samples)
    if spread == 0:
        return None
    half = width * math.sqrt(2) * spread / math.sqrt(len(samples))
    return (verdict.score - half, verdict.score + half)
