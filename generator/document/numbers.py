"""Storage precision and range: every number is kept at 6 decimals and every limit is compared
there; no number is larger than ``LARGEST``.

Comparing at storage precision means a document read back judges exactly as it was judged when
written; both comparisons are inclusive so a score equal to its threshold passes.
"""

from __future__ import annotations

import math

PRECISION = 6

LARGEST = 2**53 - 1
"""The largest magnitude a number may have: what every JSON reader keeps exactly (RFC 8259 §6).
No count, cost, latency or score of a run comes near it; past it, a number only breaks what
reads it later (a 5,000-digit integer, a float that overflows to infinity)."""


def meant(value: float) -> bool:
    """Whether ``value`` is a number a run can hold: finite, and within ``LARGEST``."""
    if isinstance(value, int):
        return abs(value) <= LARGEST
    return math.isfinite(value) and abs(value) <= LARGEST


def at_precision(value: float) -> float:
    """The value as a document stores it (and never ``-0.0``)."""
    rounded = round(float(value), PRECISION)
    return 0.0 if rounded == 0 else rounded


_CLEAR = 2e-6
"""Apart by more than this, two figures compare at storage precision as they compare as they
stand: rounding moves each by half a millionth at most. Closer, they are rounded first."""


def meets(value: float, limit: float) -> bool:
    """``value >= limit`` at storage precision: a score meeting its threshold."""
    apart = value - limit
    if apart > _CLEAR or apart < -_CLEAR:
        return apart > 0
    return at_precision(value) >= at_precision(limit)


def within(value: float, limit: float) -> bool:
    """``value <= limit`` at storage precision: a movement within its tolerance."""
    return meets(limit, value)
