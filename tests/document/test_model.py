"""What the model holds to: absent stays absent, limits at 6 decimals, trajectories agree."""

from __future__ import annotations

import json
from typing import Any

import pytest

from generator.document.codec import read_run, run_bytes
from generator.errors import DocumentRefused
from tests._helpers import a_run, a_verdict


def _read(run: dict[str, Any]):
    return read_run(json.dumps(run).encode()).run


def _refusal(run: dict[str, Any]) -> str:
    with pytest.raises(DocumentRefused) as caught:
        _read(run)
    return str(caught.value)


def test_absent_keys_stay_absent_and_empty_lists_stay_lists():
    run = a_run()
    del run["usage"]
    run["results"][1]["responses"] = [{"output": "x", "tool_calls": []}]
    written = json.loads(run_bytes(_read(run)))
    assert "usage" not in written
    assert "pinned" not in written
    response = written["results"][1]["responses"][0]
    assert response == {"output": "x", "tool_calls": []}
    assert "responses" not in written["results"][0]["verdicts"][0]


def test_the_two_keys_the_format_writes_as_null_are_written_as_null():
    run = a_run(git_commit=None)
    run["results"][1]["verdicts"][0] |= {"score": None, "status": "error"}
    written = json.loads(run_bytes(_read(run)))
    assert written["git_commit"] is None
    assert written["results"][1]["verdicts"][0]["score"] is None


@pytest.mark.parametrize(
    ("place", "key"),
    [
        ((), "modules_unchecked"),
        (("usage", "target"), "every_call_seen"),
        (("usage", "target", "tokens"), "thinking_tokens"),
        (("results", 0, "verdicts", 0), "floor_standard_errors"),
        (("results", 0), "error_kind"),
        (("results", 0, "responses", 0), "tool_calls"),
        (("results", 0, "responses", 0, "tool_calls", 0), "arguments"),
    ],
)
def test_an_explicit_null_is_refused_where_the_format_refuses_it(place, key):
    run = a_run()
    target: Any = run
    for part in place:
        target = target[part]
    target[key] = None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in place).lstrip(".")
    # the call is shared by a step and tool_calls, so the second report is "(and 1 more)"
    expected = (
        f"{where + '.' if where else ''}{key}: null; leave the key out when it was not recorded"
    )
    assert _refusal(run).startswith(expected)


@pytest.mark.parametrize(
    ("score", "status"),
    [
        (0.8, "pass"),
        (0.8000004, "pass"),
        (0.7999996, "pass"),
        (0.799999, "fail"),
        (0.800001, "pass"),
    ],
)
def test_a_threshold_is_met_inclusively_at_six_decimals(score, status):
    _read(a_run(aggregate=[a_verdict(score=score, threshold=0.8, status=status)]))
    flipped = "fail" if status == "pass" else "pass"
    assert "status" in _refusal(
        a_run(aggregate=[a_verdict(score=score, threshold=0.8, status=flipped)])
    )


def test_an_error_has_no_score_and_a_score_has_no_error():
    assert _refusal(a_run(aggregate=[a_verdict(score=None, status="fail")])).startswith(
        "aggregate[0].score: null"
    )
    assert "status is 'error'" in _refusal(a_run(aggregate=[a_verdict(score=0.5, status="error")]))


def test_samples_come_with_their_interval_or_not_at_all():
    lone = a_run(aggregate=[a_verdict(samples=[1.0, 1.0])])
    assert _refusal(lone).startswith(
        "aggregate[0].samples: samples, sample_min and sample_max come together"
    )
    wrong_max = a_run(aggregate=[a_verdict(samples=[1.0, 0.5], sample_min=0.5, sample_max=0.9)])
    assert _refusal(wrong_max).startswith("aggregate[0].sample_max: not the largest")


def test_a_suspended_case_has_no_verdict_and_a_measured_case_no_suspension_reason():
    run = a_run()
    run["results"][2]["verdicts"] = [a_verdict()]
    assert _refusal(run).startswith("results[2].verdicts: a suspended case was not measured")
    run = a_run()
    run["results"][1]["suspended_reason"] = "why"
    assert _refusal(run).startswith(
        "results[1].suspended_reason: a reason for a case that is not suspended"
    )


def test_case_ids_are_unique_within_a_run():
    run = a_run()
    run["results"][1]["case_id"] = run["results"][0]["case_id"]
    assert _refusal(run).startswith("results[1].case_id: the same case id appears twice")


def test_steps_must_name_the_same_calls_as_tool_calls():
    run = a_run()
    run["results"][0]["responses"][0]["tool_calls"].pop()
    assert _refusal(run).startswith(
        "results[0].responses[0].steps: the tool steps do not name the calls"
    )


def test_steps_are_numbered_from_zero_and_start_with_a_model_step():
    run = a_run()
    run["results"][0]["responses"][0]["steps"][2]["index"] = 7
    assert _refusal(run).startswith("results[0].responses[0].steps[2].index: steps are numbered")
    run = a_run()
    steps = run["results"][0]["responses"][0]["steps"]
    steps[0], steps[1] = steps[1] | {"index": 0}, steps[0] | {"index": 1}
    assert "steps[0].actor: a trajectory starts with a model step" in _refusal(run)


def test_an_empty_steps_list_is_refused_because_it_would_claim_no_step_was_taken():
    run = a_run()
    run["results"][1]["responses"] = [{"output": "x", "steps": []}]
    assert _refusal(run).startswith("results[1].responses[0].steps: an empty list")


def test_a_step_with_an_unknown_actor_names_the_actor_key():
    run = a_run()
    run["results"][0]["responses"][0]["steps"][1]["actor"] = "human"
    assert _refusal(run).startswith(
        "results[0].responses[0].steps[1].actor: not one of 'model', 'tool'"
    )


def test_a_tool_call_names_its_tool_or_says_nobody_did():
    run = a_run()
    response = run["results"][0]["responses"][0]
    del response["steps"]
    response["tool_calls"][0] = {"tool_absence": "not_reported"}
    _read(run)
    response["tool_calls"][0] = {"result": "x"}
    assert "tool_calls[0].tool: a call carries either tool or tool_absence" in _refusal(run)


def test_an_oversize_response_records_no_trajectory():
    run = a_run()
    run["results"][1]["responses"] = [{"oversize": True, "steps": [{"index": 0, "actor": "model"}]}]
    assert _refusal(run).startswith(
        "results[1].responses[0].steps: an oversize response records neither"
    )


def test_a_redacted_document_cannot_carry_a_perimeter_value():
    run = a_run(redacted=True)
    for case in run["results"]:
        case.pop("suspended_reason", None)
        case["responses"] = [{"withheld": True} for _ in case.get("responses", [])]
        for verdict in case["verdicts"]:
            verdict.pop("reason")
    run["aggregate"][0].pop("reason")
    _read(run)
    run["target_config"]["values"]["base_url"] = "https://inside.example"
    assert (
        _refusal(run) == "target_config.values.base_url: a perimeter value in a redacted document"
    )


def test_the_run_key_is_formed_as_digline_forms_it():
    assert _read(a_run()).key == "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169"


def test_a_timestamp_without_an_offset_is_refused():
    assert _refusal(a_run(created_at="2026-11-29T22:43:20")).startswith(
        "created_at: an ISO-8601 timestamp without"
    )


def test_metadata_holds_json_at_any_depth_and_refuses_what_json_does_not_have():
    """Metadata is checked a mapping at a time, not by pydantic's ``JsonValue``: a suite's
    own code that puts a tuple or a set in a verdict's metadata is still refused."""
    from pydantic import ValidationError

    from generator.document.model import Verdict

    nested = {"n": 1, "s": "x", "b": True, "z": None, "deep": {"list": [1, {"k": [2.5]}]}}
    assert Verdict.model_validate(a_verdict(metadata=nested)).metadata == nested
    for bad in ({"t": (1, 2)}, {"deep": {"set": [{1, 2}]}}, {"keys": {1: "one"}}):
        with pytest.raises(ValidationError):
            Verdict.model_validate(a_verdict(metadata=bad))
