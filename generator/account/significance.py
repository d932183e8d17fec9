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
from typing import Literal, NamedTuple

from scipy import stats

from generator.account.rows import Row

LEVEL = 0.95
"""The confidence of every interval."""
ALPHA = 0.05
"""The level a p-value is read against: "beyond chance" is below it."""


class Bounds(NamedTuple):
    """A 95% interval."""

    low: float
    high: float


def wilson(passed: int, judged: int) -> Bounds | None:
    """The Wilson interval of ``passed`` of ``judged``; None where nothing was judged."""
    if judged == 0:
        return None
    found = stats.binomtest(passed, judged).proportion_ci(LEVEL, method="wilson")
    return Bounds(float(found.low), float(found.high))


def mean_bounds(scores: Sequence[float]) -> Bounds | None:
    """Student's t interval of the mean of ``scores``; None for fewer than two, and the mean
    itself at both ends where they do not vary."""
    if len(scores) < 2:
        return None
    mean = sum(scores) / len(scores)
    spread = stats.sem(scores)
    if spread == 0:
        return Bounds(mean, mean)
    low, high = stats.t.interval(LEVEL, len(scores) - 1, loc=mean, scale=spread)
    return Bounds(float(low), float(high))


class Paired(NamedTuple):
    """One check of two runs over the cases both judged: how many pairs, how many went worse
    and better, and each test's p (None where no pair differs, so no test has anything to
    weigh), raw and after Holm's correction."""

    check: str
    pairs: int
    worse: int
    better: int
    mcnemar: float | None
    wilcoxon: float | None
    mcnemar_holm: float | None = None
    wilcoxon_holm: float | None = None

    @property
    def decidable(self) -> bool:
        """Whether the discordant pairs are enough for McNemar's test to reach ``ALPHA`` at
        all: with five, even all going one way gives p = 0.0625."""
        discordant = self.worse + self.better
        return discordant > 0 and mcnemar(discordant, 0) < ALPHA


def mcnemar(worse: int, better: int) -> float:
    """The exact McNemar test's two-sided p of ``worse`` and ``better`` discordant pairs."""
    return float(stats.binomtest(worse, worse + better, 0.5).pvalue)


def wilcoxon(differences: Sequence[float]) -> float | None:
    """Wilcoxon's signed-rank two-sided p of paired differences, zeros dropped; None where none
    is left."""
    moved = [d for d in differences if d != 0]
    if not moved:
        return None
    return float(stats.wilcoxon(moved, zero_method="wilcox").pvalue)


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


def paired(rows: Sequence[Row]) -> tuple[Paired, ...]:
    """Each check of a comparison, its cases paired, with Holm's correction across checks; a
    check over the whole run has no cases to pair and is left out."""
    by_check: dict[str, list[Row]] = {}
    for row in rows:
        if row.case is not None and row.before is not None and row.now is not None:
            by_check.setdefault(row.check, []).append(row)
    found = []
    for check, pairs in by_check.items():
        judged = [
            (row.before.verdict, row.now.verdict)
            for row in pairs
            if row.before is not None
            and row.now is not None
            and row.before.verdict.status != "error"
            and row.now.verdict.status != "error"
        ]
        worse = sum(was.status == "pass" and now.status == "fail" for was, now in judged)
        better = sum(was.status == "fail" and now.status == "pass" for was, now in judged)
        differences = [
            now.score - was.score
            for was, now in judged
            if was.score is not None and now.score is not None
        ]
        found.append(
            Paired(
                check,
                len(judged),
                worse,
                better,
                mcnemar(worse, better) if worse + better else None,
                wilcoxon(differences),
            )
        )
    mcnemars = holm([p.mcnemar for p in found])
    wilcoxons = holm([p.wilcoxon for p in found])
    return tuple(
        p._replace(mcnemar_holm=m, wilcoxon_holm=w)
        for p, m, w in zip(found, mcnemars, wilcoxons, strict=True)
    )
