"""What a check's samples say: the line, calls over a cap, a judge split three ways, the noise
floor. Each limit is pinned at it and a millionth either side."""

from __future__ import annotations

import pytest

from generator.account.checks import Check
from generator.account.samples import directions, exceedance, noise_floor, on_the_line, overlap
from tests._helpers import a_redacted_verdict


def sampled(samples: list[float], **overrides):
    return a_redacted_verdict(
        samples=samples, sample_min=min(samples), sample_max=max(samples), **overrides
    )


@pytest.mark.parametrize(
    ("samples", "expected"),
    [
        ([0.5, 0.9], True),  # some below, some above
        ([0.699999, 0.9], True),  # a millionth below is below
        ([0.5, 0.7], True),  # some below, the top one at the threshold: it passed
        ([0.7, 0.9], False),  # sample_min at the threshold: every sample passed
        ([0.7, 0.7], False),  # all at the threshold (1.0 to 1.0 at 1.0): every sample passed
        ([0.7000004, 0.9], False),  # within a millionth of it is at it, at storage precision
        ([0.5, 0.699999], False),  # a millionth below: every sample failed
    ],
)
def test_a_check_is_on_the_line_exactly_when_its_samples_fall_on_both_sides(samples, expected):
    verdict = sampled(samples, score=0.8, threshold=0.7)
    assert on_the_line(verdict) is expected


def test_an_unsampled_check_is_never_on_the_line_even_with_its_score_on_the_threshold():
    assert not on_the_line(a_redacted_verdict(score=0.7, threshold=0.7))


def a_budget(samples: list[float], status: str = "pass", **metadata):
    # A cost budget's sample is cap / (cap + cost); its threshold 0.5 is a call costing the cap.
    score = round(sum(samples) / len(samples), 6)
    return sampled(
        samples,
        assertion="cost_budget",
        score=score,
        status=status,
        threshold=0.5,
        metadata={"max_usd": 0.002, **metadata},
    )


def test_a_passing_budget_names_its_calls_over_the_cap_and_the_costliest():
    # Samples 0.6, 0.45, 0.48, 0.7: the mean 0.5575 passes; 0.45 and 0.48 are below 0.5, so 2 of
    # 4 calls exceeded the cap. The costliest is sample_min 0.45: 0.002 * 0.55 / 0.45 = 0.002444.
    over = exceedance(a_budget([0.6, 0.45, 0.48, 0.7]))
    assert over is not None
    assert (over.count, over.samples, over.cap) == (2, 4, 0.002)
    assert over.worst == pytest.approx(0.0024444444)


@pytest.mark.parametrize(
    ("lowest", "count", "worst"),
    [
        (0.5, None, None),  # at the threshold: the call cost exactly the cap, not over it
        (0.499999, 1, "at_cap"),  # a millionth below: over, but the clamp chose that figure
        (0.499998, 1, 0.002 * 0.500002 / 0.499998),  # two millionths below: a real figure
    ],
)
def test_a_call_within_a_millionth_of_the_threshold_reads_as_at_the_cap(lowest, count, worst):
    over = exceedance(a_budget([0.8, lowest, 0.9]))
    if count is None:
        assert over is None
    else:
        assert over is not None
        assert over.count == count
        assert over.worst == (worst if isinstance(worst, str) else pytest.approx(worst))


def test_a_failing_budget_a_budget_without_a_cap_and_an_unsampled_one_report_no_exceedance():
    assert exceedance(a_budget([0.3, 0.45], status="fail")) is None
    no_cap = sampled([0.6, 0.45, 0.7], score=0.583333, threshold=0.5, metadata={})
    assert exceedance(no_cap) is None
    unsampled = a_redacted_verdict(score=0.6, threshold=0.5, metadata={"max_usd": 0.002})
    assert exceedance(unsampled) is None


def test_a_call_scored_zero_puts_no_figure_on_its_cost():
    over = exceedance(a_budget([1.0, 0.0, 1.0, 1.0]))
    assert over is not None
    assert over.worst == "unbounded"


def test_a_judge_whose_samples_fall_three_ways_is_counted_per_direction():
    three = sampled([0.0, 1.0, 0.5, 1.0], score=0.625, threshold=0.5, judged=True)
    assert directions(three) == (1, 1, 2)


def test_two_directions_or_a_score_nobody_judged_is_no_three_way_spread():
    assert directions(sampled([0.0, 1.0, 1.0], score=0.666667, threshold=0.5, judged=True)) is None
    assert directions(sampled([0.0, 1.0, 0.5], score=0.5, threshold=0.5)) is None


def test_intervals_that_touch_overlap_and_a_millionth_apart_do_not():
    assert overlap((0.0, 0.794648), (0.794648, 0.939542))
    assert not overlap((0.0, 0.794647), (0.794648, 0.939542))


def located(verdict, case: str | None = "c") -> Check:
    return Check(("case", case or "", verdict.assertion_id, 0), case, "check", verdict, 0)


def test_a_case_check_has_a_noise_floor_only_where_it_declares_one():
    # Samples 0.6, 0.8: sd = 0.141421, K = 2, w = 1: half-width 1 * √2 * 0.141421 / √2 = 0.141421
    # around the score 0.7.
    declared = sampled([0.6, 0.8], score=0.7, threshold=0.5, floor_standard_errors=1.0)
    low, high = noise_floor(located(declared)) or (0, 0)
    assert (round(low, 6), round(high, 6)) == (0.558579, 0.841421)
    assert noise_floor(located(sampled([0.6, 0.8], score=0.7, threshold=0.5))) is None


def test_samples_of_only_zeros_and_ones_give_a_case_check_no_noise_floor():
    binary = sampled([0.0, 1.0, 1.0], score=0.666667, threshold=0.5, floor_standard_errors=2.0)
    assert noise_floor(located(binary)) is None


def test_a_whole_run_check_uses_its_sampled_interval_as_its_floor_unless_it_has_no_width():
    spread = sampled([0.7, 0.8], score=0.75, threshold=0.5)
    assert noise_floor(located(spread, case=None)) == (0.7, 0.8)
    flat = sampled([0.75, 0.75], score=0.75, threshold=0.5)
    assert noise_floor(located(flat, case=None)) is None
