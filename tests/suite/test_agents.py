"""Agents: the calls a target makes become its trajectory, recorded, checked and replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator import record_call
from generator.document.codec import read_run
from generator.suite.collect import collecting
from generator.suite.trajectory import ReportedStep, ToolUse, steps_of
from tests.suite._suites import write_suite

AGENT = """
from generator import record_call

def answer(case):
    calls = record_call(finish="tool_use", tool_calls=[{"tool": "lookup", "arguments": {"id": 1}},
                                                        {"tool": "search", "arguments": '{"q": "x"}'}],
                        usage={"input_tokens": 100, "output_tokens": 10}, latency_ms=200.0, model="m")
    calls[0].returned("found")
    calls[1].failed()
    more = record_call(finish="tool_use", tool_calls=["refund"],
                       usage={"input_tokens": 150, "output_tokens": 12}, latency_ms=250.0, model="m")
    more[0].returned({"ok": True})
    record_call(finish="end_turn", usage={"input_tokens": 180, "output_tokens": 30}, latency_ms=300.0, model="m")
    return {"output": "done", "input": case["id"]}
"""

JUDGE = """
from generator import record_call

def judge(rubric, output, case):
    record_call(finish="end_turn", tool_calls=["judge_tool"])
    return 0.9
"""

SIX = """
[[assertions]]
type = "tools_called"
tools = ["lookup", "search", "refund"]

[[assertions]]
type = "subsequence"
tools = ["lookup", "refund"]

[[assertions]]
type = "before"
first = "lookup"
then = "refund"

[[assertions]]
type = "never"
tool = "delete"

[[assertions]]
type = "tool_called_with"
tool = "lookup"
arguments = { id = 1 }
match = "exact"

[[assertions]]
type = "max_steps"
limit = 3
count = "model"
"""


def _run(runsite, suite: Path, out: Path, *extra: str) -> Any:
    result = runsite("run", str(suite), "--no-archive", "--out", str(out), *extra)
    assert result.exit_code in (0, 2), result.output
    return read_run(out.read_bytes()).run


def _replay(runsite, suite: Path, stored: Path, out: Path) -> Any:
    result = runsite("replay", str(suite), "--run", str(stored), "--no-archive", "--out", str(out))
    assert result.exit_code in (0, 2), result.output
    return read_run(out.read_bytes()).run


def _outcomes(run: Any) -> list[list[tuple[str, str, float | None]]]:
    return [[(v.assertion, v.status, v.score) for v in case.verdicts] for case in run.results]


def test_steps_of_makes_a_model_step_then_its_tool_steps_for_each_call():
    a, b = ToolUse("a"), ToolUse("b")
    assert steps_of([("tool_use", [a, b]), ("end_turn", [])]) == (
        ReportedStep(0, "model", finish="tool_use"),
        ReportedStep(1, "tool", use=a),
        ReportedStep(2, "tool", use=b),
        ReportedStep(3, "model", finish="end_turn"),
    )


def test_record_call_outside_a_run_does_nothing_and_inside_collects_in_order():
    assert [r.tool for r in record_call(finish="tool_use", tool_calls=["x"])] == ["x"]
    with collecting() as collection:
        record_call(finish="tool_use", tool_calls=["x"])
        record_call(finish="end_turn")
    assert [call.finish for call in collection.calls] == ["tool_use", "end_turn"]


def test_three_calls_in_one_case_give_six_steps_summed_usage_and_an_unpriced_cost(
    runsite, tmp_path
):
    checks = SIX + '\n[[assertions]]\ntype = "cost_budget"\nmax_usd = 0.01\ntolerance = 0.1\n'
    checks += '\n[[assertions]]\ntype = "llm_rubric"\nrubric = "r"\njudge = "judges:judge"\nthreshold = 0.5\ntolerance = 0.1\n'
    suite = write_suite(
        tmp_path,
        app=AGENT,
        assertions=checks,
        cases=[{"id": "a"}],
        suite_extra="record_responses = true",
        files={"judges.py": JUDGE},
    )
    run = _run(runsite, suite, tmp_path / "run.json")
    response = (run.results[0].responses or [])[0]
    steps = response.steps or []
    assert [(s.actor, getattr(s, "finish", None)) for s in steps] == [
        ("model", "tool_use"),
        ("tool", None),
        ("tool", None),
        ("model", "tool_use"),
        ("tool", None),
        ("model", "end_turn"),
    ]
    assert response.tools == ["lookup", "search", "refund"]
    assert response.finish == "end_turn"
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (430, 52)
    assert response.latency_ms == 750.0
    assert response.cost_usd is None
    budget = next(v for v in run.results[0].verdicts if v.assertion == "cost_budget")
    assert (budget.status, budget.reason) == (
        "error",
        "calls recorded through generator.record_call: tokens counted, no prices declared by the target",
    )
    assert "judge_tool" not in json.dumps(response.model_dump(mode="json"))
    assert [v.status for v in run.results[0].verdicts[:6]] == ["pass"] * 6
    calls = response.tool_calls or []
    assert [(c.tool, c.arguments, c.result, c.outcome) for c in calls] == [
        ("lookup", '{"id":1}', "found", "success"),
        ("search", '{"q":"x"}', None, "error"),
        ("refund", None, "{'ok': True}", "success"),
    ]


def test_declared_prices_price_each_call_at_the_model_it_reports(runsite, tmp_path):
    target = 'type = "function"\nfunction = "app:answer"\n[target.prices]\nm = { input_per_mtok = 2.0, output_per_mtok = 10.0 }'
    suite = write_suite(
        tmp_path,
        app=AGENT,
        target=target,
        cases=[{"id": "a"}],
        suite_extra="record_responses = true",
        assertions='[[assertions]]\ntype = "cost_budget"\nmax_usd = 0.01\ntolerance = 0.1',
    )
    response = (_run(runsite, suite, tmp_path / "run.json").results[0].responses or [])[0]
    assert response.cost_usd == (430 * 2.0 + 52 * 10.0) / 1_000_000


def test_live_and_replay_give_the_same_verdicts_and_a_changed_argument_flips_only_its_own(
    runsite, tmp_path
):
    suite = write_suite(tmp_path, app=AGENT, assertions=SIX, suite_extra="record_responses = true")
    live = _run(runsite, suite, tmp_path / "live.json")
    replayed = _replay(runsite, suite, tmp_path / "live.json", tmp_path / "replay.json")
    assert _outcomes(replayed) == _outcomes(live)
    assert replayed.rejudged_from == live.key

    write_suite(
        tmp_path,
        app=AGENT,
        assertions=SIX.replace("arguments = { id = 1 }", "arguments = { id = 2 }"),
        suite_extra="record_responses = true",
    )
    changed = _replay(runsite, suite, tmp_path / "live.json", tmp_path / "changed.json")
    flipped = [
        (before[0], before[1], after[1])
        for case_before, case_after in zip(_outcomes(live), _outcomes(changed), strict=True)
        for before, after in zip(case_before, case_after, strict=True)
        if before[1] != after[1]
    ]
    assert flipped == [("tool_called_with", "pass", "fail"), ("tool_called_with", "pass", "fail")]


def test_a_reply_that_finished_on_tool_use_naming_no_tool_errors_live_and_replayed(
    runsite, tmp_path
):
    app = "def answer(case):\n    return {'output': 'x', 'metadata': {'finish': 'tool_use', 'tools': []}}\n"
    checks = '[[assertions]]\ntype = "tools_called"\ntools = ["lookup"]'
    suite = write_suite(
        tmp_path,
        app=app,
        assertions=checks,
        cases=[{"id": "a"}],
        suite_extra="record_responses = true",
    )
    live = _run(runsite, suite, tmp_path / "live.json")
    replayed = _replay(runsite, suite, tmp_path / "live.json", tmp_path / "replay.json")
    for run in (live, replayed):
        verdict = run.results[0].verdicts[0]
        assert (verdict.status, verdict.reason) == (
            "error",
            "the reply finished on tool use and named no tool",
        )


def test_tools_reported_without_tool_calls_are_judged_the_same_live_and_replayed(runsite, tmp_path):
    app = "def answer(case):\n    return {'output': 'x', 'metadata': {'tools': ['lookup', 'refund']}}\n"
    checks = '[[assertions]]\ntype = "tools_called"\ntools = ["lookup", "refund"]\n[[assertions]]\ntype = "never"\ntool = "refund"\nname = "no_refund"'
    suite = write_suite(
        tmp_path,
        app=app,
        assertions=checks.replace('"refund"\nname = "no_refund"', '"delete"'),
        cases=[{"id": "a"}],
        suite_extra="record_responses = true",
    )
    live = _run(runsite, suite, tmp_path / "live.json")
    replayed = _replay(runsite, suite, tmp_path / "live.json", tmp_path / "replay.json")
    assert (
        _outcomes(live)
        == _outcomes(replayed)
        == [[("tools_called", "pass", 1.0), ("never", "pass", 1.0)]]
    )
    response = (live.results[0].responses or [])[0]
    assert (response.tools, response.tool_calls, response.steps, response.finish) == (
        ["lookup", "refund"],
        None,
        None,
        None,
    )


def test_a_trajectory_not_reported_is_not_recorded_and_never_written_as_empty(runsite, tmp_path):
    suite = write_suite(tmp_path, suite_extra="record_responses = true")
    run = _run(runsite, suite, tmp_path / "run.json")
    written = json.loads((tmp_path / "run.json").read_bytes())
    response = written["results"][0]["responses"][0]
    assert set(response) == {"output", "kind", "latency_ms"}
    assert run.results[0].responses is not None


def test_an_oversize_answer_records_neither_answer_nor_trajectory(runsite, tmp_path):
    app = "def answer(case):\n    return {'output': 'ok', 'metadata': {'tools': ['x' * 70000]}}\n"
    suite = write_suite(
        tmp_path,
        app=app,
        suite_extra="record_responses = true",
        assertions='[[assertions]]\ntype = "tools_called"\ntools = ["x"]',
    )
    run = _run(runsite, suite, tmp_path / "run.json")
    response = (run.results[0].responses or [])[0]
    # the trajectory is counted on its steps or calls; names alone are not, so this one is kept
    assert response.oversize is None
    big = "def answer(case):\n    return {'output': 'ok', 'metadata': {'tool_calls': [{'tool': 'x', 'arguments': {'q': 'y' * 70000}}]}}\n"
    write_suite(
        tmp_path,
        app=big,
        suite_extra="record_responses = true",
        assertions='[[assertions]]\ntype = "contains"\nneedle = "ok"',
    )
    response = (_run(runsite, suite, tmp_path / "big.json").results[0].responses or [])[0]
    assert (response.oversize, response.output, response.tool_calls, response.tools) == (
        True,
        None,
        None,
        None,
    )
