"""Whether a change is beyond chance: intervals on a run's rates and means, and paired tests of
two runs over the cases both judged, computed by ``scipy.stats``.

- A check's pass rate across cases has a Wilson 95% interval; its mean score across cases a
  Student's t 95% interval (none for fewer than two cases).
- Within one case, where both runs kept a check's samples: Fisher's exact test (two-sided) of
  the passes and failures where every sample is 0 or 1, else the Mann–Whitney U test
  (two-sided) of the sampled scores.
- Two runs' verdicts of one check are paired by case: the exact McNemar test (a two-sided
  binomial test of the discordant pairs, those that passed in one run and failed in the
  other, against one half) for pass/fail; Wilcoxon's signed-rank test (two-sided, zero
  differences dropped, exact for small samples without ties as scipy computes it) for the
  scores. Holm's correction runs across the checks of one comparison, each test apart; both
  the raw and the adjusted p are kept.

A figure here is a float as scipy gives it; pages round it as they round any figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import Literal, NamedTuple

LEVEL = 0.95
"""The confidence of every interval."""
ALPHA = 0.05
"""The level a p-value is read against: "beyond chance" is below it."""


def _stats() -> ModuleType:
    """``scipy.stats``, imported where a figure is first asked for: it takes most of a second
    to import, which ``list``, ``show`` and an import never need to pay."""
    from scipy import stats

    found: ModuleType = stats
    return found


def warm() -> None:
    """Import ``scipy.stats`` now: a build does so once before it forks the processes that
    write its pages, which then share it instead of each importing its own."""
    _stats()


class Bounds(NamedTuple):
    """A 95% interval."""

    low: float
    high: float


@lru_cache(maxsize=1 << 14)
def wilson(passed: int, judged: int) -> Bounds | None:
    """The Wilson interval of ``passed`` of ``judged``; None where nothing was judged. Kept:
    a suite's chart of pass rates asks for one a run, scipy takes most of a millisecond, and a
    suite's runs count the same few pairs again and again."""
    if judged == 0:
        return None
    found = _stats().binomtest(passed, judged).proportion_ci(LEVEL, method="wilson")
    return Bounds(float(found.low), float(found.high))


def mean_bounds(scores: Sequence[float]) -> Bounds | None:
    """Student's t interval of the mean of ``scores``; None for fewer than two, and the mean
    itself at both ends where they do not vary."""
    if len(scores) < 2:
        return None
    return mean_interval(sum(scores) / len(scores), float(_stats().sem(scores)), len(scores))


def mean_interval(mean: float, spread: float, n: int) -> Bounds:
    """Student's t interval of a mean of ``n`` values whose standard error is ``spread``."""
    if spread == 0:
        return Bounds(mean, mean)
    low, high = _stats().t.interval(LEVEL, n - 1, loc=mean, scale=spread)
    return Bounds(float(low), float(high))


def mcnemar(worse: int, better: int) -> float:
    """The exact McNemar test's two-sided p of ``worse`` and ``better`` discordant pairs."""
    return float(_stats().binomtest(worse, worse + better, 0.5).pvalue)


def wilcoxon(differences: Sequence[float]) -> float | None:
    """Wilcoxon's signed-rank two-sided p of paired differences, zeros dropped; None where none
    is left."""
    moved = [d for d in differences if d != 0]
    if not moved:
        return None
    return float(_stats().wilcoxon(moved, zero_method="wilcox").pvalue)


def falling(differences: Sequence[float]) -> bool:
    """Whether the negative differences outrank the positive ones (the sums of signed ranks
    Wilcoxon's test weighs, zeros dropped): the direction its p is about."""
    moved = [d for d in differences if d != 0]
    ranks = [float(r) for r in _stats().rankdata([abs(d) for d in moved])]
    below = sum(r for r, d in zip(ranks, moved, strict=True) if d < 0)
    return below > sum(ranks) - below


class Within(NamedTuple):
    """One check of one case in two runs, its samples compared: the test and its p."""

    test: Literal["fisher", "mann_whitney"]
    p: float


def within_case(before: Sequence[float], now: Sequence[float]) -> Within | None:
    """The samples of one check in one case, in two runs, compared; None where either run
    kept none."""
    if not before or not now:
        return None
    stats = _stats()
    if {*before, *now} <= {0.0, 1.0}:
        table = [[sum(now), len(now) - sum(now)], [sum(before), len(before) - sum(before)]]
        return Within("fisher", float(stats.fisher_exact(table).pvalue))
    return Within("mann_whitney", float(stats.mannwhitneyu(now, before).pvalue))


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
