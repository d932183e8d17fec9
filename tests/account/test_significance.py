"""Whether a change is beyond chance: the intervals and tests are scipy's, Holm's correction
is Holm's, and a comparison's paired counts are its rows' flips."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from generator.account.comparison import comparison_of
from generator.account.significance import (
    Paired,
    holm,
    mcnemar,
    mean_bounds,
    paired,
    wilcoxon,
    wilson,
    within_case,
)
from generator.document.codec import read_run
from generator.document.disclosure import Disclosure
from generator.document.redact import redact
from tests.reading._documents import RUN1, RUN2


def test_the_wilson_interval_of_three_in_ten_is_the_textbook_one():
    found = wilson(3, 10)
    assert found is not None
    assert found.low == pytest.approx(0.1078, abs=1e-4)
    assert found.high == pytest.approx(0.6032, abs=1e-4)
    assert wilson(0, 0) is None


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


def test_two_cases_of_four_worse_and_none_better_is_even_odds():
    """The issue's own sentence: two cases worse and none better arises by chance in half of
    all comparisons (p = 0.50, exact McNemar); six one way is the fewest below 0.05."""
    assert mcnemar(2, 0) == pytest.approx(0.5)
    assert mcnemar(5, 0) == pytest.approx(0.0625)
    assert mcnemar(6, 0) == pytest.approx(0.03125)
    assert not Paired("c", 10, 5, 0, mcnemar(5, 0), None).decidable
    assert Paired("c", 10, 6, 0, mcnemar(6, 0), None).decidable
    assert not Paired("c", 10, 0, 0, None, None).decidable


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


def test_a_comparisons_pairs_are_its_rows_flips():
    now, before = (redact(read_run(path.read_bytes()).run, Disclosure()) for path in (RUN2, RUN1))
    compared = comparison_of(now, before)
    tests = {p.check: p for p in paired(compared.rows)}
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


def test_a_cases_samples_compare_by_fisher_when_binary_and_mann_whitney_else():
    binary = within_case([1, 1, 1, 1, 1], [0, 0, 0, 1, 0])
    assert binary is not None and binary.test == "fisher"
    assert binary.p == pytest.approx(stats.fisher_exact([[1, 4], [5, 0]]).pvalue)
    graded = within_case([0.7, 0.8, 0.75], [0.4, 0.5, 0.45])
    assert graded is not None and graded.test == "mann_whitney"
    assert graded.p == pytest.approx(stats.mannwhitneyu([0.4, 0.5, 0.45], [0.7, 0.8, 0.75]).pvalue)
    assert within_case([], [0.5]) is None
