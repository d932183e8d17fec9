"""Storage precision: every number is kept at 6 decimals and every limit is compared there.

Comparing at storage precision means a document read back judges exactly as it was judged when
written; both comparisons are inclusive so a score equal to its threshold passes.
"""

from __future__ import annotations

PRECISION = 6


def at_precision(value: float) -> float:
    """The value as a document stores it (and never ``-0.0``)."""
    rounded = round(float(value), PRECISION)
    return 0.0 if rounded == 0 else rounded


def meets(value: float, limit: float) -> bool:
    """``value >= limit`` at storage precision: a score meeting its threshold."""
    return at_precision(value) >= at_precision(limit)


def within(value: float, limit: float) -> bool:
    """``value <= limit`` at storage precision: a movement within its tolerance."""
    return at_precision(value) <= at_precision(limit)
