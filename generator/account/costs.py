"""What a run's calls cost, as far as it is known: one answer that its reading, its page's
header and a suite's board all give."""

from __future__ import annotations

from typing import Literal

from generator.document.record import CallTotals

Bill = Literal["spent", "floor", "unknown"]
"""What is known of what one side's calls cost (``bill``)."""


def bill(totals: CallTotals) -> Bill:
    """What is known of what one side's calls cost, which the reading and the run page's
    header both say: all of it (``spent``), as where every call reported its cost, or where
    no call was made, since no call costs nothing; a ``floor`` where calls are known to have
    gone unpriced and some cost is on record; ``unknown`` where they have and none above zero
    is (a bill of 0 that leaves calls out is no figure)."""
    if totals.every_cost_known is not False or not totals.calls:
        return "spent"
    return "floor" if totals.spent_usd else "unknown"
