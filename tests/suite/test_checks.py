"""The checks as pure functions: graded budgets at their edges, and what each cannot judge."""

from __future__ import annotations

import pytest

from generator.suite.budgets import CostBudget, budget_score
from generator.suite.checks import Answer


@pytest.mark.parametrize(
    ("spent", "expected"),
    [
        (0.0, 1.0),
        (0.001, 0.5),  # at the cap: exactly the threshold, a pass
        (0.0009999994, 0.5),  # within the cap at storage precision
        (0.0010000004, 0.5),  # rounds to the cap: within it
        (0.000999, 0.500250),
        (0.001001, 0.49975),
        (0.002, 0.333333),
    ],
)
def test_a_budget_score_is_on_the_side_of_the_threshold_its_measurement_is_on(spent, expected):
    assert budget_score(spent, 0.001, 0.5) == expected


@pytest.mark.parametrize(
    ("measured", "expected"),
    [
        (799.999999, 0.5),  # one storage step within the cap
        (800.0, 0.5),  # at the cap
        (800.000001, 0.499999),  # one step over: 0.49999999969 would round to a pass
    ],
)
def test_a_measurement_over_its_cap_by_one_storage_step_still_fails(measured, expected):
    assert budget_score(measured, 800.0, 0.5) == expected


@pytest.mark.parametrize(
    ("measured", "expected"),
    [
        (800.0, 0.5),  # at the cap: above a threshold of 0.45, a pass
        (977.777778, 0.449999),  # over the cap, scoring 0.45 at storage precision: a fail
        (1200.0, 0.4),
    ],
)
def test_a_budget_below_the_default_threshold_keeps_each_side_of_its_own_threshold(
    measured, expected
):
    assert budget_score(measured, 800.0, 0.45) == expected


def test_a_cost_budget_without_a_reported_cost_cannot_judge():
    check = CostBudget(type="cost_budget", max_usd=0.01, tolerance=0.1)
    judgement = check.judge(Answer("ok", "text"), {}, {})
    assert (judgement.score, judgement.reason) == (
        None,
        "the target reported no cost for this answer",
    )


def test_a_cost_budget_records_what_it_measured_as_numbers():
    check = CostBudget(type="cost_budget", max_usd=0.002, tolerance=0.05)
    judgement = check.judge(Answer("ok", "text", cost_usd=0.00065), {}, {})
    # digline's corpus records 0.754717 for 0.00065 against a cap of 0.002
    assert judgement.score == 0.754717
    assert judgement.metadata == {"cost_usd": 0.00065, "max_usd": 0.002, "ratio": 0.325}
