"""The reading of a run against a reference, rule by rule, on runs built for each rule."""

from __future__ import annotations

from typing import Any

import pytest

from generator.reading import NotComparable, Reading, explain, text
from generator.reading.facts import Param
from tests._helpers import a_redacted_run, a_verdict


def measured(*verdicts: dict[str, Any], case: str = "c") -> dict[str, Any]:
    return {"case_id": case, "suspended": False, "verdicts": list(verdicts)}


def a_run_of(*cases: dict[str, Any], **overrides: Any):
    """A run of these cases only: no whole-run checks and no files under test unless given."""
    return a_redacted_run(
        results=list(cases),
        aggregate=overrides.pop("aggregate", []),
        artifacts=overrides.pop("artifacts", {}),
        **overrides,
    )


def kinds(reading: Reading, section: str | None = None) -> list[str]:
    return [f.kind for f in reading.facts if section is None or f.section == section]


def only(reading: Reading, kind: str) -> dict[str, Param]:
    [found] = [f.params for f in reading.facts if f.kind == kind]
    return found


def test_a_pass_to_fail_flip_is_a_regression_even_within_tolerance_and_exits_1():
    before = a_run_of(measured(a_verdict(score=0.71, threshold=0.7, tolerance=0.05)))
    now = a_run_of(measured(a_verdict(score=0.69, status="fail", threshold=0.7, tolerance=0.05)))
    reading = explain(now, before)
    assert only(reading, "check.regressed.flip") == {
        "case": "c",
        "check": "contains",
        "before": 0.71,
        "now": 0.69,
        "threshold": 0.7,
    }
    assert reading.exit_code == 1


@pytest.mark.parametrize(
    ("now", "kind"),
    [
        (0.75, "check.unchanged"),  # a drop of exactly the tolerance 0.05
        (0.750001, "check.unchanged"),  # a millionth inside it
        (0.749999, "check.regressed"),  # a millionth beyond it
    ],
)
def test_a_movement_is_judged_against_the_current_runs_tolerance_inclusively(now, kind):
    # The reference declared no tolerance at all; the current run's 0.05 is what counts.
    before = a_run_of(measured(a_verdict(score=0.8, threshold=0.5, tolerance=0.0)))
    current = a_run_of(measured(a_verdict(score=now, threshold=0.5, tolerance=0.05)))
    reading = explain(current, before)
    assert kind in kinds(reading, "moved")
    assert reading.exit_code == (1 if kind == "check.regressed" else 0)


def test_a_score_inside_the_references_declared_noise_floor_is_unchanged_within_noise():
    # Reference samples 0.6, 0.8 around 0.7 with w = 1: floor 0.558579 to 0.841421. The new 0.6
    # moved by 0.1, beyond the tolerance 0.05, but inside the floor.
    floor = {"samples": [0.6, 0.8], "sample_min": 0.6, "sample_max": 0.8}
    before = a_run_of(
        measured(
            a_verdict(score=0.7, threshold=0.5, tolerance=0.05, floor_standard_errors=1.0, **floor)
        )
    )
    now = a_run_of(measured(a_verdict(score=0.6, threshold=0.5, tolerance=0.05)))
    reading = explain(now, before)
    assert only(reading, "check.within_noise") == {
        "case": "c",
        "check": "contains",
        "before": 0.7,
        "now": 0.6,
        "low": 0.558579,
        "high": 0.841421,
    }
    assert only(reading, "tally.within_noise") == {"count": 1}
    assert reading.exit_code == 0


def test_a_whole_run_check_whose_denominator_moved_is_never_unchanged():
    # Same accuracy 0.85 over the same 20 cases, but counted over 18 of them (two could not be
    # judged): not unchanged, and not worse either.
    def accuracy(considered: int) -> dict[str, Any]:
        return a_verdict(
            assertion="accuracy",
            assertion_id="b00de39e2f9bb72b",
            score=0.85,
            threshold=0.7,
            tolerance=0.15,
            metadata={"considered": considered, "errored_excluded": 20 - considered},
        )

    before = a_run_of(aggregate=[accuracy(20)])
    now = a_run_of(aggregate=[accuracy(18)])
    reading = explain(now, before)
    assert only(reading, "check.denominator_moved") == {
        "check": "accuracy",
        "before": 20,
        "now": 18,
    }
    assert only(reading, "tally.moved")["unchanged"] == 0
    assert "the whole run" in text(reading, "en")


def test_a_whole_run_check_that_drops_as_its_denominator_moves_is_not_worse_unless_it_flips():
    # digline's rule: fewer cases counted of as many seen is another measurement, so a drop is
    # not a regression; a flip from pass to fail still is one.
    def f1(score: float, considered: int) -> dict[str, Any]:
        return a_verdict(
            assertion="f1",
            assertion_id="68473fe22b0e79a2",
            score=score,
            status="pass" if score >= 0.5 else "fail",
            threshold=0.5,
            tolerance=0.0,
            metadata={"considered": considered, "errored_excluded": 7 - considered},
        )

    dropped = explain(a_run_of(aggregate=[f1(0.55, 6)]), a_run_of(aggregate=[f1(0.9, 7)]))
    assert kinds(dropped, "moved") == ["check.denominator_moved"]
    assert dropped.exit_code == 0
    flipped = explain(a_run_of(aggregate=[f1(0.4, 6)]), a_run_of(aggregate=[f1(0.9, 7)]))
    assert "check.regressed.flip" in kinds(flipped, "moved")
    assert flipped.exit_code == 1


def test_a_check_that_errored_now_exits_2_and_one_that_errored_only_before_does_not():
    scored = a_verdict(score=0.9, threshold=0.5)
    errored = a_verdict(score=None, status="error", threshold=0.5)
    now_errored = explain(a_run_of(measured(errored)), a_run_of(measured(scored)))
    assert kinds(now_errored, "moved") == ["check.errored.now"]
    assert now_errored.exit_code == 2
    before_errored = explain(a_run_of(measured(scored)), a_run_of(measured(errored)))
    assert kinds(before_errored, "moved") == ["check.errored.before"]
    assert before_errored.exit_code == 0


def test_worse_outranks_could_not_be_judged():
    before = a_run_of(measured(a_verdict(score=1.0), a_verdict(assertion_id="0123456789abcdef")))
    now = a_run_of(
        measured(
            a_verdict(score=0.0, status="fail"),
            a_verdict(assertion_id="0123456789abcdef", score=None, status="error"),
        )
    )
    assert explain(now, before).exit_code == 1


def test_a_different_judge_is_the_first_thing_the_reading_says():
    before = a_run_of(measured(a_verdict()), judge_config={"identities": ["local/judge"]})
    now = a_run_of(measured(a_verdict()), judge_config={"identities": ["openai/gpt-4o-mini"]})
    reading = explain(now, before)
    assert reading.facts[0].kind == "tally.judge_changed"
    assert kinds(reading, "underneath") == [
        "setting.judge.identity.added",
        "setting.judge.identity.removed",
    ]
    assert text(reading, "en").splitlines()[3].startswith("- The judge is not the one")


def test_a_withheld_setting_reads_as_unknown_never_as_a_change_and_does_not_lead():
    config = {"values": {"model": "m-1", "provider": "local"}, "withheld": ["base_url"]}
    before = a_run_of(measured(a_verdict()), judge_config=config)
    now = a_run_of(measured(a_verdict()), judge_config=config)
    reading = explain(now, before)
    assert "tally.judge_changed" not in kinds(reading)
    assert [f.params for f in reading.facts if f.kind == "setting.judge.unknown"] == [
        {"name": "base_url"}
    ]


def test_target_settings_that_differ_are_named_with_both_values():
    before = a_run_of(
        measured(a_verdict()), target_config={"values": {"model": "m-1", "provider": "local"}}
    )
    now = a_run_of(
        measured(a_verdict()),
        target_config={"values": {"model": "m-2", "provider": "local", "seed": 7}},
    )
    reading = explain(now, before)
    assert [(f.kind, f.params) for f in reading.facts if f.kind.startswith("setting.target")] == [
        ("setting.target.changed", {"name": "model", "before": "m-1", "now": "m-2"}),
        ("setting.target.added", {"name": "seed", "now": 7}),
    ]


def test_a_check_only_one_run_has_is_new_or_missing_and_neither_is_worse():
    before = a_run_of(measured(a_verdict(), case="kept"), measured(a_verdict(), case="dropped"))
    now = a_run_of(
        measured(a_verdict(), case="kept"),
        measured(a_verdict(score=0.0, status="fail"), case="added"),
    )
    reading = explain(now, before)
    assert [(f.kind, f.params) for f in reading.facts if f.section == "moved"] == [
        ("check.new", {"case": "added", "check": "contains", "now": 0.0, "threshold": 1.0}),
        ("check.missing", {"case": "dropped", "check": "contains"}),
    ]
    assert reading.exit_code == 0


def test_a_calibration_check_outside_its_band_exits_2_and_is_not_read_as_a_movement():
    band = {"check": "contains", "assertion_id": "d697b44c72db127b", "low": 0.7, "high": 0.95}
    before = a_run_of(measured(a_verdict(score=0.8, threshold=0.5)) | {"calibration": band})
    now = a_run_of(measured(a_verdict(score=0.96, threshold=0.5)) | {"calibration": band})
    reading = explain(now, before)
    assert only(reading, "tally.calibration") == {"count": 1}
    assert kinds(reading, "moved") == ["check.calibration_missed"]
    assert only(reading, "tally.moved")["improved"] == 0
    assert reading.exit_code == 2


def test_the_reading_refuses_a_reference_of_another_tenant():
    with pytest.raises(NotComparable, match=r"tenant: they belong to different tenants"):
        explain(a_run_of(measured(a_verdict())), a_run_of(measured(a_verdict()), tenant="globex"))


def test_a_run_with_no_check_that_produced_a_score_exits_2_even_alone():
    reading = explain(a_run_of(measured(a_verdict(score=None, status="error"))))
    assert "tally.nothing_judged" in kinds(reading, "ran")
    assert reading.exit_code == 2


def test_a_run_whose_target_bill_left_calls_out_says_so():
    usage = {
        "target": {"calls": 3, "counted": 0, "spent_usd": 0.0036, "every_cost_known": False},
        "judge": {"calls": 0, "counted": 0, "spent_usd": 0.0},
    }
    reading = explain(a_run_of(measured(a_verdict()), usage=usage))
    assert only(reading, "tally.unpriced.target") == {"spent": 0.0036}


def test_a_rejudged_run_says_where_its_answers_came_from_before_any_count():
    source = "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169"
    reading = explain(a_run_of(measured(a_verdict()), rejudged_from=source))
    assert reading.facts[0].kind == "tally.rejudged"
    assert reading.facts[0].params == {"source": source}


def test_a_case_whose_target_raised_says_why_it_could_not_be_judged():
    case = measured(a_verdict(score=None, status="error")) | {"error_kind": "raised"}
    reading = explain(a_run_of(case))
    assert kinds(reading, "found") == ["check.errored.raised"]


def test_a_threshold_that_moved_is_named_and_the_rules_are_not_called_the_same():
    before = a_run_of(measured(a_verdict(score=0.8, threshold=0.7)))
    now = a_run_of(measured(a_verdict(score=0.8, threshold=0.75)))
    reading = explain(now, before)
    assert "tally.rules.changed" in kinds(reading, "ran")
    assert only(reading, "setting.threshold.raised") == {
        "check": "contains",
        "before": 0.7,
        "now": 0.75,
    }
