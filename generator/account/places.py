"""How many decimals a score is written with, decided once for every language: enough to keep
what is read true (a failing score never prints as its threshold, a change that is not zero never
as zero, two different scores read together never alike), and no more than the six a document
stores. Figures are counted in millionths here, whole numbers that round exactly.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from decimal import Decimal

from generator.document.numbers import PRECISION, at_precision

PLACES = 2
"""Decimals of a score when nothing asks for more."""


def decimal(value: float) -> Decimal:
    """A float as the decimal a document stores."""
    return Decimal(repr(at_precision(value)))


def _first_place(value: float) -> int:
    """The decimal place of a positive figure's first significant digit (0.05 → 2)."""
    return max(0, -decimal(value).adjusted())


SCALE = 1_000_000
"""Millionths in one: a stored figure has ``PRECISION`` (six) decimals."""


def millionths(value: float) -> int:
    """A stored figure as a whole count of millionths: exact, and cheap to round."""
    return round(at_precision(value) * SCALE)


_UNITS: tuple[int, ...] = tuple(SCALE // 10**places for places in range(PRECISION + 1))
"""The millionths in a unit of each decimal place."""


def at_places(figure: int, places: int) -> int:
    """A figure in millionths rounded half up (away from zero) to ``places`` decimals."""
    unit = _UNITS[places]
    size = (abs(figure) + unit // 2) // unit * unit
    return -size if figure < 0 else size


def _close(one: float, other: float, reach: float) -> bool:
    """Whether two figures may be less than ``reach`` apart once each is rounded to millionths
    (``millionths``): the rounding moves each by half a millionth, and a float as large as
    they are by its own precision more. Only figures this close need that rounding, which is
    costly, to be told apart (a table's scores near their threshold, its changes near zero)."""
    return abs(one - other) < reach + 2e-6 + (abs(one) + abs(other)) * 1e-12


def rounded(value: float, places: int) -> int:
    """A stored figure rounded half up to ``places`` decimals, in millionths: what each language
    writes (``Formats.rounded``) with its own symbols."""
    return at_places(millionths(value), places)


def places(
    values: Iterable[float], tolerance: float | None = None, changes: Iterable[float] = ()
) -> int:
    """Decimals for scores read together: the tolerance's first significant digit, at least
    ``PLACES``, and as many more (up to six) as it takes for different ``values`` to print
    differently and for each of ``changes`` (differences between scores) that is not zero to
    print as neither zero nor another change."""
    return figure_places(
        {millionths(v) for v in values}, tolerance, {millionths(c) for c in changes}
    )


def figure_places(
    figures: Collection[int], tolerance: float | None = None, changes: Collection[int] = ()
) -> int:
    """``places`` of figures and changes already in millionths."""
    groups = (set(figures), {*changes, 0})
    found = _least(tolerance)
    while found < PRECISION and not all(
        len({at_places(v, found) for v in group}) == len(group) for group in groups
    ):
        found += 1
    return found


def threshold_places(
    scores: Iterable[float], threshold: float, tolerance: float | None = None
) -> int:
    """Decimals for one check's scores in a table: as its tolerance needs (``PLACES`` at least),
    and more (up to six) only where a score that is not its threshold would print as it. Two
    scores of one check that differ by less than the tolerance may print alike: the tolerance
    says the difference does not matter; a failing 0.699 printed as the threshold 0.70 would."""
    reach = 10.0 ** -_least(tolerance)
    near = [millionths(s) for s in scores if _close(s, threshold, reach)]
    return places_off(near, millionths(threshold), tolerance)


def places_off(
    figures: Iterable[int | None], threshold: int, tolerance: float | None = None
) -> int:
    """``threshold_places`` of figures and a threshold already in millionths (None for a figure
    not recorded): a figure a unit of the last place or more from the threshold cannot print
    as it, so only the others are rounded."""
    found = _least(tolerance)
    unit = _UNITS[found]
    near = {f for f in figures if f is not None and abs(f - threshold) < unit} - {threshold}
    while found < PRECISION and any(
        at_places(f, found) == at_places(threshold, found) for f in near
    ):
        found += 1
    return found


def _least(tolerance: float | None) -> int:
    """The fewest decimals of a score: ``PLACES``, or as many as the tolerance's first
    significant digit needs."""
    return max(PLACES, _first_place(tolerance) if tolerance else 0)


def change_places(changes: Iterable[float], places: int) -> int:
    """``places``, or more (up to six) until no change that is not zero prints as zero."""
    reach = 10.0**-places / 2
    moved = {millionths(c) for c in changes if _close(c, 0.0, reach)} - {0}
    while places < PRECISION and any(at_places(m, places) == 0 for m in moved):
        places += 1
    return places


Move = tuple[int, int, int, int | None]
"""A change read with its two sides, in millionths: earlier, later, the change, and the
tolerance it is set against (None where its sentence or row sets it against none)."""


def agreeing_places(moves: Iterable[Move], places: int) -> int:
    """``places``, or more (up to six, where every figure is exact), until each move is true
    as read: its later side less its earlier, as printed, is its change as printed, and its
    change as printed is within its tolerance or beyond it as the change is. Each side rounded
    on its own can make a sentence false (0.622455 to 0.565751 read at two places is 0.62 to
    0.57, a change of 0.05 printed -0.06, "more than its tolerance of 0.05")."""
    found = list(moves)
    while places < PRECISION and not all(_agrees(move, places) for move in found):
        places += 1
    return places


def _agrees(move: Move, places: int) -> bool:
    before, now, change, tolerance = move
    shown = at_places(change, places)
    if at_places(now, places) - at_places(before, places) != shown:
        return False
    return tolerance is None or (abs(shown) <= tolerance) == (abs(change) <= tolerance)


SMALLEST_P = 0.001
"""Below this a p-value is written as less than it: its digits say nothing more."""


def p_places(p: float, alpha: float) -> int:
    """Decimals for a p-value: two significant digits (0.50, 0.048, 0.0031), and more where
    fewer would round it to the other side of ``alpha`` (0.0496 is not 0.050)."""
    places = max(PLACES, 1 - math.floor(math.log10(max(p, SMALLEST_P))))
    limit = millionths(alpha)
    while places < PRECISION and (rounded(p, places) < limit) != (millionths(p) < limit):
        places += 1
    return places
