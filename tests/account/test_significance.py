"""Whether a change is beyond chance: the intervals and tests are scipy's, Holm's correction
is Holm's, and a comparison's paired counts are its rows' flips."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from generator.account.chance import FEWEST, CheckChance
from generator.account.comparison import comparison_of
from generator.account.significance import (
    ALPHA,
    falling,
    holm,
    mcnemar,
    mean_bounds,
    wilcoxon,
    wilson,
    within_case,
)
from generator.document.codec import read_run
from generator.document.disclosure import Disclosure
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from tests.reading._documents import RUN1, RUN2


def test_the_wilson_interval_of_three_in_ten_is_the_textbook_one():
    found = wilson(3, 10)
    assert found is not None
    assert found.low == pytest.approx(0.1078, abs=1e-4)
    assert found.high == pytest.approx(0.6032, abs=1e-4)
    assert wilson(0, 0) is None


def test_the_wilson_interval_of_two_in_four_is_the_issues():
    assert wilson(2, 4) == pytest.approx((0.150, 0.850), abs=5e-4)


@given(st.integers(min_value=1, max_value=500), st.data())
def test_a_wilson_interval_holds_its_rate(judged: int, data: st.DataObject):
    passed = data.draw(st.integers(min_value=0, max_value=judged))
    found = wilson(passed, judged)
    assert found is not None
    assert 0 <= found.low <= passed / judged <= found.high <= 1


def test_a_mean_has_a_t_interval_from_two_scores():
    scores = [0.5, 0.7, 0.9, 0.6]
    found = mean_bounds(scores)
    mean, spread = sum(scores) / 4, stats.sem(scores)
    expected = stats.t.interval(0.95, 3, loc=mean, scale=spread)
    assert found == pytest.approx(expected)
    assert mean_bounds([0.5]) is None
    assert mean_bounds([0.5, 0.5]) == (0.5, 0.5)


def _chance(worse: int, better: int) -> CheckChance:
    p = mcnemar(worse, better) if worse + better else None
    return CheckChance("c", 10, worse, better, p, p, 0, None, None, None, None, False)


def test_two_cases_of_four_worse_and_none_better_is_even_odds():
    """The issue's own sentence: two cases worse and none better arises by chance in half of
    all comparisons (p = 0.50, exact McNemar); four one way is 0.125; six is the fewest below
    0.05, for McNemar's test and for Wilcoxon's alike."""
    assert mcnemar(2, 0) == pytest.approx(0.5)
    assert mcnemar(4, 0) == pytest.approx(0.125)
    assert mcnemar(FEWEST - 1, 0) > ALPHA > mcnemar(FEWEST, 0)
    assert wilcoxon([-0.1 * n for n in range(1, FEWEST)]) == pytest.approx(0.0625)
    assert wilcoxon([-0.1 * n for n in range(1, FEWEST + 1)]) == pytest.approx(0.03125)
    assert not _chance(FEWEST - 1, 0).verdicts_decidable
    assert _chance(FEWEST, 0).verdicts_decidable
    assert _chance(FEWEST, 0).worse_beyond_chance
    assert not _chance(0, FEWEST).worse_beyond_chance
    assert not _chance(0, 0).verdicts_decidable


SCORES = st.floats(min_value=0, max_value=1).map(lambda x: round(x, 6))
LEISURELY = settings(deadline=None, max_examples=60)
"""scipy's exact tests take tens of milliseconds on a busy machine: no deadline, fewer runs."""


@LEISURELY
@given(st.integers(0, 60), st.integers(0, 60))
def test_mcnemar_is_a_p_and_the_same_either_way(worse: int, better: int):
    if worse + better:
        p = mcnemar(worse, better)
        assert 0 <= p <= 1
        assert mcnemar(better, worse) == pytest.approx(p)


@LEISURELY
@given(st.lists(st.floats(min_value=-1, max_value=1).map(lambda x: round(x, 6)), max_size=30))
def test_wilcoxon_is_a_p_and_the_same_either_way(differences: list[float]):
    p = wilcoxon(differences)
    if p is None:
        assert not any(differences)
    else:
        assert 0 <= p <= 1
        assert wilcoxon([-d for d in differences]) == pytest.approx(p)


@LEISURELY
@given(st.lists(SCORES, max_size=12), st.lists(SCORES, max_size=12))
def test_a_cases_samples_give_a_p_the_same_either_way(before: list[float], now: list[float]):
    there, back = within_case(before, now), within_case(now, before)
    if there is None or back is None:
        assert there is back is None
    else:
        assert 0 <= there.p <= 1
        assert there.test == back.test
        assert there.p == pytest.approx(back.p)


@LEISURELY
@given(st.lists(SCORES, min_size=2, max_size=40))
def test_a_t_interval_holds_its_mean(scores: list[float]):
    found = mean_bounds(scores)
    assert found is not None
    mean = sum(scores) / len(scores)
    assert found.low <= mean + 1e-12 and mean - 1e-12 <= found.high


def test_wilcoxon_is_the_textbook_ones():
    """Hollander and Wolfe's depression scores (R's ``wilcox.test`` example): V = 40 of 45, so
    10 of the 512 sign patterns are as lopsided one way; two-sided p = 20 / 512."""
    x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    differences = [a - b for a, b in zip(x, y, strict=True)]
    assert wilcoxon(differences) == pytest.approx(20 / 512)
    assert not falling(differences)
    assert falling([-d for d in differences])


def test_wilcoxon_drops_zero_differences_and_is_scipys():
    differences = [0.1, -0.05, 0.2, 0.0, 0.15, 0.3, -0.02]
    expected = stats.wilcoxon([d for d in differences if d], zero_method="wilcox").pvalue
    assert wilcoxon(differences) == pytest.approx(expected)
    assert wilcoxon([0.0, 0.0]) is None


def test_holm_steps_down_as_holm_wrote_it():
    assert holm([0.01, 0.04, 0.03, None]) == pytest.approx([0.03, 0.06, 0.06, None])


@given(st.lists(st.one_of(st.none(), st.floats(min_value=0, max_value=1))))
def test_holm_never_lowers_a_p_nor_passes_one_and_keeps_their_order(values: list[float | None]):
    adjusted = holm(values)
    assert [a is None for a in adjusted] == [p is None for p in values]
    pairs = [
        (p, a) for p, a in zip(values, adjusted, strict=True) if p is not None and a is not None
    ]
    assert all(p <= a <= 1 for p, a in pairs)
    ordered = sorted(pairs)
    assert all(x[1] <= y[1] or math.isclose(x[0], y[0]) for x, y in itertools.pairwise(ordered))


def _recorded() -> tuple[RedactedRun, RedactedRun]:
    now, before = (redact(read_run(path.read_bytes()).run, Disclosure()) for path in (RUN2, RUN1))
    return now, before


def test_a_comparisons_pairs_are_its_rows_flips():
    now, before = _recorded()
    compared = comparison_of(now, before)
    tests = {c.check: c for c in compared.chance.checks}
    assert tests
    for check, test in tests.items():
        rows = [r for r in compared.rows if r.check == check and r.before and r.now]
        flips = [
            (r.before.verdict.status, r.now.verdict.status)
            for r in rows
            if r.before is not None and r.now is not None
        ]
        assert test.worse == flips.count(("pass", "fail"))
        assert test.better == flips.count(("fail", "pass"))
        if test.mcnemar is not None:
            assert test.mcnemar == pytest.approx(
                stats.binomtest(test.worse, test.worse + test.better).pvalue
            )
            assert test.mcnemar_holm is not None and test.mcnemar_holm >= test.mcnemar


def test_the_recorded_pair_reads_as_the_issue_says():
    """contains: two of the four judged cases went from pass to fail, p = 0.5; invoice's
    contains samples went from 5 of 5 to 1 of 5, Fisher's p = 0.0476."""
    now, before = _recorded()
    chance = comparison_of(now, before).chance
    contains = next(c for c in chance.checks if c.check == "contains")
    assert (contains.pairs, contains.worse, contains.better) == (4, 2, 0)
    assert contains.mcnemar == pytest.approx(0.5)
    invoice = chance.within("invoice", "contains")
    assert invoice is not None and invoice.test == "fisher"
    assert invoice.p == pytest.approx(stats.fisher_exact([[1, 4], [5, 0]]).pvalue)
    assert chance.worse_beyond_chance == ()


def test_swapping_the_runs_keeps_every_p_and_swaps_worse_for_better():
    now, before = _recorded()
    there, back = comparison_of(now, before).chance, comparison_of(before, now).chance
    for a, b in zip(there.checks, back.checks, strict=True):
        assert (a.check, a.worse, a.better) == (b.check, b.better, b.worse)
        assert a.mcnemar == pytest.approx(b.mcnemar) if a.mcnemar else b.mcnemar is None
        assert a.wilcoxon == pytest.approx(b.wilcoxon) if a.wilcoxon else b.wilcoxon is None
    assert [c.test.p for c in there.cases] == pytest.approx([c.test.p for c in back.cases])


def test_a_cases_samples_compare_by_fisher_when_binary_and_mann_whitney_else():
    binary = within_case([1, 1, 1, 1, 1], [0, 0, 0, 1, 0])
    assert binary is not None and binary.test == "fisher"
    assert binary.p == pytest.approx(stats.fisher_exact([[1, 4], [5, 0]]).pvalue)
    graded = within_case([0.7, 0.8, 0.75], [0.4, 0.5, 0.45])
    assert graded is not None and graded.test == "mann_whitney"
    assert graded.p == pytest.approx(stats.mannwhitneyu([0.4, 0.5, 0.45], [0.7, 0.8, 0.75]).pvalue)
    assert within_case([], [0.5]) is None
