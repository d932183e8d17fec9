"""Running suites end to end: what the document records, and the three outcomes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.document.codec import read_run
from generator.document.model import Run
from generator.suite.agent_checks import Never, Subsequence
from generator.suite.identity import assertion_id
from tests.suite._suites import write_suite

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(runsite, suite: Path, tmp_path: Path, *extra: str) -> tuple[int, Run]:
    out = tmp_path / "run.json"
    result = runsite("run", str(suite), "--no-archive", "--out", str(out), *extra)
    assert result.exit_code in (0, 2), result.output
    return result.exit_code, read_run(out.read_bytes()).run


def test_the_support_example_samples_five_times_and_records_every_answer(runsite, tmp_path):
    code, run = _run(runsite, EXAMPLES / "support" / "suite.toml", tmp_path)
    assert code == 0
    assert (run.tenant, run.suite, run.schema_version) == ("acme", "support", 23)
    measured = [case for case in run.results if not case.suspended]
    assert len(measured) == 5
    for case in measured:
        assert [v.assertion for v in case.verdicts] == [
            "signed",
            "starts_capitalised",
            "answers_briefly",
            "cost_budget",
            "latency_budget",
        ]
        assert all(v.samples is not None and len(v.samples) == 5 for v in case.verdicts)
        assert case.responses is not None and len(case.responses) == 5
        first = case.responses[0]
        assert first.output and first.input and first.kind == "text"
        assert (
            first.cost_usd is not None and first.latency_ms is not None and first.usage is not None
        )
    judged = next(v for v in measured[0].verdicts if v.assertion == "answers_briefly")
    assert judged.judged is True
    assert run.judge_config.identities == ["function/judges:rubric"]
    assert run.artifacts["prompts/system.txt"].text is not None


def test_a_suspended_case_is_recorded_with_its_reason_and_never_measured(runsite, tmp_path):
    _, run = _run(runsite, EXAMPLES / "support" / "suite.toml", tmp_path)
    refund = next(case for case in run.results if case.case_id == "refund")
    assert (refund.suspended, refund.suspended_reason, refund.verdicts, refund.responses) == (
        True,
        "refund API down, ticket OPS-412",
        [],
        None,
    )


def test_the_classifier_example_counts_accuracy_and_precision_over_its_labels(runsite, tmp_path):
    _, run = _run(runsite, EXAMPLES / "classifier" / "suite.toml", tmp_path)
    accuracy, precision = run.aggregate
    # 12 labelled cases, the check passing where the classifier decided as the reviewer did.
    # The rules flag a claim over its category's cap, without a receipt, a possible duplicate,
    # or a meal on a weekend: amount-over-cap, no-receipt, duplicate-claim, weekend-bar and
    # client-dinner (a meal over 120) are positive and flagged (TP 5); parking has no receipt
    # but is negative (FP 1); nothing positive is approved (FN 0); the other six are negative
    # and approved (TN 6). Accuracy 11/12, precision 5/6.
    assert accuracy.metadata["true_positive"] == 5
    assert accuracy.metadata["false_positive"] == 1
    assert accuracy.metadata["false_negative"] == 0
    assert accuracy.metadata["true_negative"] == 6
    assert (accuracy.score, accuracy.status) == (0.916667, "pass")
    assert (precision.score, precision.status) == (0.833333, "pass")


def _identities(suite: Path, tmp_path: Path, name: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    subprocess.run(
        [sys.executable, "-m", "generator", "run", str(suite), "--no-archive", "--out", str(out)],
        check=True,
        capture_output=True,
    )
    doc = json.loads(out.read_bytes())
    return {
        "config_hash": doc["config_hash"],
        "ids": [v["assertion_id"] for v in doc["results"][0]["verdicts"]],
    }


def test_identities_are_stable_across_processes_and_move_with_the_rules_only(tmp_path):
    checks = '[[assertions]]\ntype = "contains"\nneedle = "ok"\n[[assertions]]\ntype = "length"\nmaximum = 40'
    suite = write_suite(tmp_path / "s", assertions=checks)
    first, second = _identities(suite, tmp_path, "one"), _identities(suite, tmp_path, "two")
    assert first == second

    write_suite(tmp_path / "s", assertions=checks, cases=[{"id": "a"}, {"id": "b"}, {"id": "c"}])
    assert _identities(suite, tmp_path, "more-cases") == first

    write_suite(
        tmp_path / "s", assertions=checks.replace("maximum = 40", "maximum = 40\nthreshold = 0.5")
    )
    moved = _identities(suite, tmp_path, "threshold")
    assert moved["config_hash"] != first["config_hash"]
    assert moved["ids"] == first["ids"]

    write_suite(tmp_path / "s", assertions=checks.replace("maximum = 40", "maximum = 41"))
    assert _identities(suite, tmp_path, "parameter")["ids"][1] != first["ids"][1]


def test_a_target_that_raises_errors_every_check_and_the_run_exits_2(runsite, tmp_path):
    suite = write_suite(tmp_path, app="def answer(case):\n    raise RuntimeError('down')\n")
    code, run = _run(runsite, suite, tmp_path)
    assert code == 2
    verdict = run.results[0].verdicts[0]
    assert (verdict.status, verdict.score) == ("error", None)
    assert verdict.reason == "the target raised RuntimeError: down"
    assert run.results[0].error_kind == "raised"


def test_a_target_that_returns_something_else_is_an_error_of_shape(runsite, tmp_path):
    suite = write_suite(tmp_path, app="def answer(case):\n    return {'output': 'ok', 'cost': 1}\n")
    _, run = _run(runsite, suite, tmp_path)
    assert run.results[0].error_kind == "shape"
    assert (
        run.results[0].verdicts[0].reason == "the target returned keys runsite does not read: cost"
    )


def test_samples_that_disagree_below_the_floor_are_an_error_with_the_counts(runsite, tmp_path):
    app = """
    calls = {"n": 0}

    def answer(case):
        calls["n"] += 1
        return "ok" if calls["n"] % 2 else "no"
    """
    suite = write_suite(
        tmp_path, app=app, suite_extra='samples = 4\nmin_agreement = "3/4"', cases=[{"id": "a"}]
    )
    _, run = _run(runsite, suite, tmp_path)
    verdict = run.results[0].verdicts[0]
    assert verdict.status == "error"
    # digline's shape: no spread on a fold that did not agree
    assert verdict.metadata == {
        "agreement": 0.5,
        "errored_samples": 0,
        "samples": 4,
        "scores": [1.0, 0.0, 1.0, 0.0],
    }
    assert verdict.reason == (
        "the samples did not agree: 0.50 of them share the majority outcome, below the "
        "required 0.75"
    )


def test_a_judge_that_raises_or_scores_out_of_range_is_an_error_not_a_fail(runsite, tmp_path):
    checks = (
        '[[assertions]]\ntype = "llm_rubric"\nname = "raises"\nrubric = "r"\njudge = "judges:raises"\n'
        "threshold = 0.5\ntolerance = 0.1\n"
        '[[assertions]]\ntype = "llm_rubric"\nname = "too_high"\nrubric = "r"\njudge = "judges:too_high"\n'
        "threshold = 0.5\ntolerance = 0.1\n"
    )
    judges = "def raises(**_):\n    raise ValueError('no')\n\ndef too_high(**_):\n    return 1.5\n"
    suite = write_suite(tmp_path, assertions=checks, files={"judges.py": judges})
    _, run = _run(runsite, suite, tmp_path)
    assert [(v.assertion, v.status) for v in run.results[0].verdicts] == [
        ("raises", "error"),
        ("too_high", "error"),
    ]
    assert run.usage is not None and run.usage.judge.calls == 4


def test_equals_without_an_expected_value_cannot_judge(runsite, tmp_path):
    suite = write_suite(
        tmp_path,
        assertions='[[assertions]]\ntype = "equals"',
        cases=[{"id": "a"}, {"id": "b", "expected": "ok b"}],
    )
    _, run = _run(runsite, suite, tmp_path)
    assert [case.verdicts[0].status for case in run.results] == ["error", "pass"]


def test_structured_output_is_recorded_as_canonical_json_and_text_checks_cannot_judge_it(
    runsite, tmp_path
):
    app = "def answer(case):\n    return {'output': {'b': 1, 'a': [True]}, 'input': {'q': case['id']}}\n"
    checks = '[[assertions]]\ntype = "contains"\nneedle = "a"\n[[assertions]]\ntype = "is_json"\ntop_level = "object"'
    suite = write_suite(tmp_path, app=app, assertions=checks, suite_extra="record_responses = true")
    _, run = _run(runsite, suite, tmp_path)
    response = (run.results[0].responses or [])[0]
    assert (response.output, response.kind, response.input) == (
        '{"a":[true],"b":1}',
        "structured",
        '{"q":"a"}',
    )
    # is_json reads text, as digline's does: an answer already decoded has nothing to decode
    assert [v.status for v in run.results[0].verdicts] == ["error", "error"]
    assert (
        run.results[0].verdicts[1].reason == "is_json does not read structured output (reads: text)"
    )


def test_meta_annotates_the_run(runsite, tmp_path):
    _, run = _run(
        runsite, write_suite(tmp_path), tmp_path, "--meta", "ticket=OPS-1", "--meta", "who=ci"
    )
    assert run.metadata == {"ticket": "OPS-1", "who": "ci"}


def test_created_at_has_microseconds_and_an_offset_and_the_key_follows_it(runsite, tmp_path):
    result = runsite(
        "run", str(write_suite(tmp_path)), "--no-archive", "--out", str(tmp_path / "r.json")
    )
    run = read_run((tmp_path / "r.json").read_bytes()).run
    assert run.created_at.endswith("+00:00") and len(run.created_at) == len(
        "2026-11-30T01:13:13.375857+00:00"
    )
    assert result.stdout == f"{run.key}\n"


@pytest.mark.parametrize(("module", "attribute"), [("app", "answer")])
def test_two_suites_with_a_module_of_the_same_name_each_get_their_own(
    runsite, tmp_path, module, attribute
):
    one = write_suite(tmp_path / "one", app=f"def {attribute}(case):\n    return 'ok'\n")
    two = write_suite(tmp_path / "two", app=f"def {attribute}(case):\n    return 'no'\n")
    _, first = _run(runsite, one, tmp_path)
    _, second = _run(runsite, two, tmp_path)
    assert first.results[0].verdicts[0].status == "pass"
    assert second.results[0].verdicts[0].status == "fail"


def test_runsites_own_trajectory_checks_get_identities_by_diglines_rule():
    def digest(payload: dict[str, Any]) -> str:
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    kinds = ["conversation", "structured", "text"]
    never = Never(type="never", tool="delete_account")
    assert assertion_id(never, {}) == digest(
        {"__type__": "Never", "tool": "delete_account", "name": "never", "accepts": kinds}
    )
    named = Subsequence(type="subsequence", name="looks_up", tools=["a", "b"], threshold=1.0)
    assert assertion_id(named, {}) == digest(
        {"__type__": "Subsequence", "tools": ["a", "b"], "name": "looks_up", "accepts": kinds}
    )


def test_a_number_written_as_an_integer_keeps_diglines_identity_and_hash(tmp_path):
    written = {
        "integers": "max_ms = 800\ntolerance = 0",
        "floats": "max_ms = 800.0\ntolerance = 0.0",
    }
    found = {}
    for name, numbers in written.items():
        checks = f'[[assertions]]\ntype = "latency_budget"\n{numbers}'
        found[name] = _identities(write_suite(tmp_path / name, assertions=checks), tmp_path, name)
    # digline fingerprints the value as written: 800 and 800.0 are two identities, 0 and 0.0
    # two hashes
    kinds = ["conversation", "structured", "text"]
    assert (
        found["integers"]["ids"][0]
        == hashlib.sha256(
            json.dumps(
                {
                    "__type__": "LatencyBudget",
                    "accepts": kinds,
                    "max_ms": 800,
                    "name": "latency_budget",
                },
                sort_keys=True,
                separators=(",", ":"),
            ).encode()
        ).hexdigest()[:16]
    )
    assert found["integers"]["ids"] != found["floats"]["ids"]
    assert found["integers"]["config_hash"] != found["floats"]["config_hash"]
