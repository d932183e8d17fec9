"""Every figure of ``significance`` is scipy.stats' own, which it no longer imports: to the last
bit where it follows scipy's arithmetic (the intervals, the signed-rank test, the approximate
U test), and within a relative 1e-12 where it counts an exact distribution in integers that
scipy sums in floats (McNemar's, Fisher's, the exact U test). Inputs span ties, zeros, one to
sixty values and p-values down to 1e-300."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from generator.account.significance import (
    falling,
    mcnemar,
    mean_bounds,
    wilcoxon,
    wilson,
    within_case,
)

EXACT = 1e-12
"""How near an exact count, divided once, lies to scipy's sum of floats: 8e-14 at worst seen, for
McNemar's p far in its tail, where scipy's binomial strays."""
AGREES = settings(deadline=None, max_examples=150)
"""scipy.stats takes a millisecond or more a figure, its permutation test a tenth of a second:
no deadline."""

TIED = st.sampled_from([-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.5])
"""Few values, so that draws tie and hold zeros."""
FREE = st.floats(min_value=-1, max_value=1, allow_subnormal=False)
SCORES = st.one_of(TIED.map(abs), st.floats(min_value=0, max_value=1, allow_subnormal=False))


def _scipy_wilcoxon(moved: list[float]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on small samples and ties
        return float(stats.wilcoxon(moved, zero_method="wilcox").pvalue)


@AGREES
@given(st.integers(min_value=1, max_value=10**7), st.data())
def test_the_wilson_interval_is_scipys(judged: int, data: st.DataObject):
    passed = data.draw(st.one_of(st.integers(0, min(judged, 60)), st.integers(0, judged)))
    found = wilson(passed, judged)
    expected = stats.binomtest(passed, judged).proportion_ci(0.95, method="wilson")
    assert found == (float(expected.low), float(expected.high))


def test_every_wilson_interval_to_sixty_is_scipys():
    for judged in range(1, 61):
        for passed in range(judged + 1):
            expected = stats.binomtest(passed, judged).proportion_ci(0.95, method="wilson")
            assert wilson(passed, judged) == (float(expected.low), float(expected.high))


@AGREES
@given(
    st.lists(
        st.one_of(TIED, FREE, st.floats(min_value=-1e6, max_value=1e6)), min_size=2, max_size=60
    )
)
def test_the_t_interval_of_a_mean_is_scipys(scores: list[float]):
    found = mean_bounds(scores)
    spread = stats.sem(scores)
    mean = sum(scores) / len(scores)
    if spread == 0:
        assert found == (mean, mean)
    else:
        low, high = stats.t.interval(0.95, len(scores) - 1, loc=mean, scale=spread)
        assert found == (float(low), float(high))


@AGREES
@given(st.integers(0, 1000), st.integers(0, 1000))
def test_mcnemar_is_scipys_binomial_test(worse: int, better: int):
    if worse + better:
        expected = stats.binomtest(worse, worse + better).pvalue
        assert mcnemar(worse, better) == pytest.approx(expected, rel=EXACT, abs=0)


def test_mcnemar_is_scipys_far_in_the_tail():
    for worse, better in [(0, 1000), (1, 999), (3, 600), (0, 61), (30, 31)]:
        expected = stats.binomtest(worse, worse + better).pvalue
        assert mcnemar(worse, better) == pytest.approx(expected, rel=EXACT, abs=0)


@AGREES
@given(
    st.lists(st.one_of(TIED, FREE), min_size=14, max_size=60).filter(
        lambda differences: sum(1 for d in differences if d) > 13
    )
)
def test_wilcoxon_is_scipys_with_ties_and_zeros(differences: list[float]):
    """Past 13 differences left (fewer take scipy's permutation test, below, a tenth of a
    second each)."""
    assert wilcoxon(differences) == _scipy_wilcoxon([d for d in differences if d])


@settings(deadline=None, max_examples=40)
@given(st.lists(TIED, min_size=2, max_size=13))
def test_wilcoxon_is_scipys_permutation_test_where_few_tie(differences: list[float]):
    moved = [d for d in differences if d]
    if moved:
        assert wilcoxon(moved) == _scipy_wilcoxon(moved)


@AGREES
@given(st.lists(FREE.filter(bool), min_size=1, max_size=60, unique_by=abs))
def test_wilcoxon_is_scipys_without_ties_exact_to_fifty(differences: list[float]):
    assert wilcoxon(differences) == _scipy_wilcoxon(differences)


def test_wilcoxon_is_scipys_at_its_extremes():
    for differences in [[0.01 * n for n in range(1, 51)], [0.01 * n for n in range(1, 61)]]:
        assert wilcoxon(differences) == _scipy_wilcoxon(differences)
    assert wilcoxon([0.01 * n for n in range(1, 51)]) == 2 / 2**50


@AGREES
@given(st.lists(st.one_of(TIED, FREE), max_size=60))
def test_the_direction_is_scipys_signed_ranks(differences: list[float]):
    moved = [d for d in differences if d]
    ranks = stats.rankdata([abs(d) for d in moved])
    below = sum(r for r, d in zip(ranks, moved, strict=True) if d < 0)
    assert falling(differences) == (below > sum(ranks) - below)


@AGREES
@given(
    st.lists(st.sampled_from([0.0, 1.0]), min_size=1, max_size=60),
    st.lists(st.sampled_from([0.0, 1.0]), min_size=1, max_size=60),
)
def test_fishers_test_is_scipys(before: list[float], now: list[float]):
    found = within_case(before, now)
    table = [[now.count(1), now.count(0)], [before.count(1), before.count(0)]]
    assert found is not None and found.test == "fisher"
    assert found.p == pytest.approx(stats.fisher_exact(table).pvalue, rel=EXACT, abs=0)


def test_fishers_test_is_scipys_far_in_the_tail():
    for passed, failed in [(60, 0), (59, 1), (50, 5)]:
        now, before = [1.0] * passed + [0.0] * failed, [0.0] * passed + [1.0] * failed
        found = within_case(before, now)
        expected = stats.fisher_exact([[passed, failed], [failed, passed]]).pvalue
        assert found is not None and found.p == pytest.approx(expected, rel=EXACT, abs=0)


def _u(before: list[float], now: list[float]) -> tuple[float, float]:
    found = within_case(before, now)
    assert found is not None and found.test == "mann_whitney"
    return found.p, float(stats.mannwhitneyu(now, before).pvalue)


GRADED = st.floats(min_value=0.01, max_value=0.99, allow_subnormal=False)
"""Scores none of which is 0 or 1, so that a case's samples are never Fisher's."""


@AGREES
@given(st.data())
def test_the_exact_u_test_is_scipys(data: st.DataObject):
    """Without ties, and eight values or fewer on one side."""
    small, large = data.draw(st.integers(1, 8)), data.draw(st.integers(1, 60))
    values = data.draw(
        st.lists(GRADED, min_size=small + large, max_size=small + large, unique=True)
    )
    before, now = values[:small], values[small:]
    if data.draw(st.booleans()):
        before, now = now, before
    found, expected = _u(before, now)
    assert found == pytest.approx(expected, rel=EXACT, abs=0)


@AGREES
@given(st.lists(SCORES, min_size=1, max_size=60), st.lists(SCORES, min_size=1, max_size=60))
def test_the_approximate_u_test_is_scipys(before: list[float], now: list[float]):
    """With ties, or more than eight values on each side."""
    if {*before, *now} <= {0.0, 1.0}:
        return
    if len({*before, *now}) == len(before) + len(now) and min(len(before), len(now)) <= 8:
        return  # the exact test's, above
    found, expected = _u(before, now)
    assert found == expected


def test_the_u_test_is_scipys_far_in_the_tail():
    low, high = [0.001 * n for n in range(1, 9)], [0.5 + 0.001 * n for n in range(60)]
    assert _u(low, high)[0] == pytest.approx(_u(low, high)[1], rel=EXACT, abs=0)
    low, high = [0.001 * n for n in range(1, 61)], [0.5 + 0.001 * n for n in range(60)]
    assert _u(low, high)[0] == _u(low, high)[1]
    assert _u([0.5] * 5, [0.5] * 7) == (1.0, 1.0)


def test_no_figure_imports_scipy_stats():
    """Each figure, each of its methods, worked out in a process of its own."""
    script = """
import sys
from generator.account import significance as s
s.wilson(3, 10), s.mean_bounds([0.5, 0.7, 0.9]), s.mean_interval(0.5, 0.1, 12), s.mcnemar(7, 1)
s.wilcoxon([0.1, -0.2, 0.3]), s.wilcoxon([0.1, -0.1, 0.2]), s.wilcoxon([0.1] * 60)
s.falling([0.1, -0.2]), s.within_case([1, 0], [0, 0])
s.within_case([0.2], [0.3, 0.4]), s.within_case([0.2] * 9, [0.3] * 9)
print(sorted(m for m in sys.modules if m == "scipy.stats" or m.startswith("scipy.stats.")))
"""
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]"
