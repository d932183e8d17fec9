"""Whether a change is beyond chance: intervals on a run's rates and means, and paired tests of
two runs over the cases both judged, each figure as ``scipy.stats`` 1.17 computes it.

- A check's pass rate across cases has a Wilson 95% interval; its mean score across cases a
  Student's t 95% interval (none for fewer than two cases).
- Within one case, where both runs kept a check's samples: Fisher's exact test (two-sided) of
  the passes and failures where every sample is 0 or 1, else the Mann–Whitney U test
  (two-sided) of the sampled scores.
- Two runs' verdicts of one check are paired by case: the exact McNemar test (a two-sided
  binomial test of the discordant pairs, those that passed in one run and failed in the
  other, against one half) for pass/fail; Wilcoxon's signed-rank test (two-sided, zero
  differences dropped) for the scores. Holm's correction runs across the checks of one
  comparison, each test apart; both the raw and the adjusted p are kept.

``scipy.stats`` itself is not imported: it takes half a second, most of it spent on its own
docstrings, which every rebuild after one new run would pay for that run's pages. Its figures
follow from its definitions and its rules for when a test is exact, and are worked out here:
the quantiles and the normal tail are ``scipy.special``'s (a tenth of a second to import), and
the exact distributions are counted in Python integers and divided once, so an exact p is the
float nearest the true one. tests/account/test_significance_agrees.py holds every figure to
scipy.stats. A figure is a float; pages round it as they round any figure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import groupby
from types import ModuleType
from typing import Literal, NamedTuple

LEVEL = 0.95
"""The confidence of every interval."""
ALPHA = 0.05
"""The level a p-value is read against: "beyond chance" is below it."""


def _special() -> ModuleType:
    """``scipy.special``, imported where a figure first needs a quantile or a normal tail:
    ``list``, ``show`` and an import never need to pay for it."""
    from scipy import special

    found: ModuleType = special
    return found


def warm() -> None:
    """Import ``scipy.special`` now (a tenth of a second, some 30 MB): a build does so once
    before it forks the processes that write its pages, which then share it instead of each
    importing its own."""
    _special()


class Bounds(NamedTuple):
    """A 95% interval."""

    low: float
    high: float


@cache
def _z() -> float:
    """The normal quantile of a two-sided 95% interval, as scipy's Wilson interval takes it."""
    return float(_special().ndtri(0.5 + 0.5 * LEVEL))


def wilson(passed: int, judged: int) -> Bounds | None:
    """The Wilson interval of ``passed`` of ``judged``; None where nothing was judged. Newcombe's
    formula in scipy's order of operations, so each end is scipy's to the last bit."""
    if judged == 0:
        return None
    p = passed / judged
    z = _z()
    denom = 2 * (judged + z**2)
    center = (2 * judged * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * judged * p * (1 - p) + z**2)
    return Bounds(center - delta if passed else 0.0, center + delta if passed < judged else 1.0)


def mean_bounds(scores: Sequence[float]) -> Bounds | None:
    """Student's t interval of the mean of ``scores``; None for fewer than two, and the mean
    itself at both ends where they do not vary."""
    if len(scores) < 2:
        return None
    return mean_interval(sum(scores) / len(scores), _sem(scores), len(scores))


def _sem(scores: Sequence[float]) -> float:
    """The standard error of the mean as ``scipy.stats.sem`` has it: numpy's standard deviation
    (one degree of freedom spent) over the root of the count. numpy's own, since its pairwise
    sums round otherwise than a loop's; the build has numpy loaded already."""
    import numpy

    return float(numpy.std(numpy.asarray(scores, dtype=float), ddof=1) / len(scores) ** 0.5)


def mean_interval(mean: float, spread: float, n: int) -> Bounds:
    """Student's t interval of a mean of ``n`` values whose standard error is ``spread``: the
    quantiles ``t.interval`` takes, scaled and shifted as it does."""
    if spread == 0:
        return Bounds(mean, mean)
    quantile = _special().stdtrit
    low = float(quantile(n - 1, (1.0 - LEVEL) / 2)) * spread + mean
    high = float(quantile(n - 1, (1.0 + LEVEL) / 2)) * spread + mean
    return Bounds(low, high)


def mcnemar(worse: int, better: int) -> float:
    """The exact McNemar test's two-sided p of ``worse`` and ``better`` discordant pairs.
    scipy's ``binomtest`` adds up the outcomes no likelier than the one seen (to within a
    relative 1e-7); at one half the binomial is symmetric, and below 2·10⁷ pairs no two unequal
    likelihoods are that close, so that is twice the smaller tail, at most 1."""
    pairs = worse + better
    tail = sum(math.comb(pairs, k) for k in range(min(worse, better) + 1))
    return min(1.0, 2 * tail / (1 << pairs))


def _doubled_ranks(values: Sequence[float]) -> tuple[list[int], list[int]]:
    """Each value's rank among ``values`` (ties take their mean rank, as ``rankdata`` gives it),
    doubled so that a tie's half rank is a whole number; and the size of each group of equal
    values, smallest first."""
    order = sorted(range(len(values)), key=values.__getitem__)
    doubled = [0] * len(values)
    sizes: list[int] = []
    first = 1
    for _, group in groupby(order, key=values.__getitem__):
        members = list(group)
        for n in members:
            doubled[n] = 2 * first + len(members) - 1
        sizes.append(len(members))
        first += len(members)
    return doubled, sizes


@lru_cache(maxsize=256)
def _sign_flips(doubled: tuple[int, ...]) -> tuple[int, ...]:
    """How many of the 2ⁿ ways of signing the ``doubled`` ranks give each sum of the positive
    ones: the exact null distribution of the signed-rank statistic (doubled). Kept: without ties
    it depends on the count alone, which a comparison's checks share."""
    counts = [1]
    for rank in doubled:
        grown = [*counts, *[0] * rank]
        for total, ways in enumerate(counts):
            grown[total + rank] += ways
        counts = grown
    return tuple(counts)


def wilcoxon(differences: Sequence[float]) -> float | None:
    """Wilcoxon's signed-rank two-sided p of paired differences, zeros dropped; None where none
    is left. scipy's default method: the exact distribution for up to 50 differences without
    ties, and for up to 13 with ties (its permutation test then goes through all 2ⁿ signs);
    otherwise the normal approximation with the tie correction and no continuity correction."""
    moved = [d for d in differences if d != 0]
    if not moved:
        return None
    doubled, sizes = _doubled_ranks([abs(d) for d in moved])
    above = sum(r for r, d in zip(doubled, moved, strict=True) if d > 0)
    n = len(moved)
    if n <= (13 if max(sizes) > 1 else 50):
        counts = _sign_flips(tuple(sorted(doubled)))
        return min(1.0, 2 * min(sum(counts[: above + 1]), sum(counts[above:])) / (1 << n))
    count = float(n)
    mean = count * (count + 1.0) * 0.25
    ties = sum(size**3 - size for size in sizes)
    spread = math.sqrt((count * (count + 1.0) * (2.0 * count + 1.0) - ties / 2) / 24)
    z = (above / 2 - mean) / spread
    return 2 * float(_special().ndtr(-abs(z)))


def falling(differences: Sequence[float]) -> bool:
    """Whether the negative differences outrank the positive ones (the sums of signed ranks
    Wilcoxon's test weighs, zeros dropped): the direction its p is about."""
    moved = [d for d in differences if d != 0]
    doubled, _ = _doubled_ranks([abs(d) for d in moved])
    below = sum(r for r, d in zip(doubled, moved, strict=True) if d < 0)
    return below > sum(doubled) - below


class Within(NamedTuple):
    """One check of one case in two runs, its samples compared: the test and its p."""

    test: Literal["fisher", "mann_whitney"]
    p: float


def within_case(before: Sequence[float], now: Sequence[float]) -> Within | None:
    """The samples of one check in one case, in two runs, compared; None where either run
    kept none."""
    if not before or not now:
        return None
    if {*before, *now} <= {0.0, 1.0}:
        passed, was = sum(1 for x in now if x), sum(1 for x in before if x)
        return Within("fisher", _fisher(passed, len(now) - passed, was, len(before) - was))
    return Within("mann_whitney", _mann_whitney(now, before))


_NEAR = Fraction(1e-14)
"""How near the likeliest table's likelihood the seen one's is for ``fisher_exact`` to give 1."""
_WITHIN = Fraction(1 + 1e-14)
"""The factor within which ``fisher_exact`` takes a table past the mode to be no likelier than
the seen one: its float, exactly."""


def _fisher(a: int, b: int, c: int, d: int) -> float:
    """Fisher's exact two-sided p of the table [[a, b], [c, d]], as ``fisher_exact`` finds it:
    the tables with its margins on the seen table's side of the mode up to it, and those past the
    mode no likelier than it (to within a relative 1e-14), each weighed by its count of ways."""
    row, other, column = a + b, c + d, a + c
    if 0 in (row, other, column, b + d):
        return 1.0

    def ways(x: int) -> int:
        return math.comb(row, x) * math.comb(other, column - x)

    lowest, highest = max(0, column - other), min(column, row)
    mode = (column + 1) * (row + 1) // (row + other + 2)
    seen, likeliest = ways(a), ways(mode)
    if likeliest - seen <= likeliest * _NEAR:
        return 1.0
    if a < mode:
        tail = sum(ways(x) for x in range(lowest, a + 1))
        tail += sum(w for x in range(mode, highest + 1) if (w := ways(x)) < seen * _WITHIN)
    else:
        tail = sum(ways(x) for x in range(a, highest + 1))
        tail += sum(w for x in range(lowest, mode + 1) if (w := ways(x)) <= seen * _WITHIN)
    return min(1.0, tail / math.comb(row + other, column))


def _u_counts(shorter: int, longer: int, top: int) -> list[int]:
    """How many orderings of two samples without ties, of ``shorter`` and ``longer`` values,
    give each U from 0 to ``top``: the coefficients of the Gaussian binomial, the product over
    i = 1..shorter of (1 − q^(longer + i)) / (1 − q^i)."""
    counts = [1] + [0] * top
    for i in range(1, shorter + 1):
        for u in range(top, longer + i - 1, -1):
            counts[u] -= counts[u - longer - i]
        for u in range(i, top + 1):
            counts[u] += counts[u - i]
    return counts


def _mann_whitney(x: Sequence[float], y: Sequence[float]) -> float:
    """The Mann–Whitney U test's two-sided p of ``x`` against ``y``, by scipy's default method:
    exact where either sample has at most 8 values and no value is tied, else the normal
    approximation with the tie correction and the continuity correction."""
    n1, n2 = len(x), len(y)
    doubled, sizes = _doubled_ranks([*x, *y])
    u1 = sum(doubled[:n1]) / 2 - n1 * (n1 + 1) / 2
    u = max(u1, n1 * n2 - u1)
    if min(n1, n2) <= 8 and max(sizes) == 1:
        counts = _u_counts(min(n1, n2), max(n1, n2), n1 * n2 - int(u))
        return min(1.0, 2 * sum(counts) / math.comb(n1 + n2, n1))
    n = n1 + n2
    ties = sum(size**3 - size for size in sizes)
    spread = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if spread == 0:
        return 1.0  # every value the same: U sits at its mean, and scipy's z at minus infinity
    z = (u - n1 * n2 / 2 - 0.5) / spread
    return min(1.0, 2 * float(_special().ndtr(-z)))


def holm(values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of the p-values present (None stays None): the k-th smallest
    of m is multiplied by m - k + 1, kept at least the one before it, and at most 1. scipy has
    no Holm; it is these few lines."""
    present = sorted((p, n) for n, p in enumerate(values) if p is not None)
    adjusted: list[float | None] = [None] * len(values)
    floor = 0.0
    for rank, (p, n) in enumerate(present):
        floor = max(floor, min(1.0, p * (len(present) - rank)))
        adjusted[n] = floor
    return adjusted
