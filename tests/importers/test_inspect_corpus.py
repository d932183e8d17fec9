"""The six Inspect logs of the corpus arrive as runs that say what the logs say: every sample of
every epoch, every metric Inspect reported, every tool call of every sample, and what the calls
cost, each checked against the log itself read by the test's own reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.document.codec import read_run, run_bytes
from generator.document.model import Run
from generator.document.numbers import at_precision
from generator.document.trajectory import ModelStep, ToolStep
from generator.importers import detect, inspect_ai, read_files
from generator.importers.options import Options
from tests._helpers import git
from tests.importers._logs import LOGS, as_json_log, sample_counts

ALL = sorted(LOGS.iterdir())
ACME = Options(tenant="acme")


def _run(path: Path, options: Options = ACME) -> Run:
    batch = read_files([path], options)
    assert not batch.refused, [str(r) for r in batch.refused]
    return batch.arrivals[0].reading.run


def _scorer_spans(sample: dict[str, Any]) -> set[str]:
    spans = {e["id"]: e for e in sample["events"] if e["event"] == "span_begin"}

    def grading(span_id: str | None) -> bool:
        while span_id in spans:
            if spans[span_id]["type"] in ("scorer", "scorers"):
                return True
            span_id = spans[span_id].get("parent_id")
        return False

    return {span for span in spans if grading(span)}


def _events(sample: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    grading = _scorer_spans(sample)
    return [e for e in sample["events"] if e["event"] == kind and e["span_id"] not in grading]


def test_the_corpus_holds_the_six_logs_of_both_containers():
    assert [p.name for p in ALL] == [
        "graded_model-roles.json",
        "qa_epochs3_mean-max.eval",
        "refund-agent.eval",
        "refund-agent.json",
        "refund-agent_crash_sample-error.eval",
        "refund-agent_crash_status-error.eval",
    ]
    assert all(detect(path) is inspect_ai for path in ALL)


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_each_case_has_as_many_samples_as_the_log_has_epochs_of_it(path):
    log, run = as_json_log(path), _run(path)
    epochs = log["eval"]["config"].get("epochs", 1)
    counts = sample_counts(log)
    assert [case.case_id for case in run.results] == log["eval"]["dataset"]["sample_ids"]
    for case in run.results:
        assert len(case.responses or ()) == counts[case.case_id]
        for verdict in case.verdicts:
            if epochs > 1:
                assert verdict.metadata["samples"] == epochs
                assert len(verdict.samples or ()) == epochs - verdict.metadata["errored_samples"]
            else:
                assert verdict.samples is None


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_every_metric_is_a_run_level_check_with_the_value_inspect_reported(path):
    log, run = as_json_log(path), _run(path)
    reported = {
        "/".join(p for p in (score["name"], score.get("reducer"), metric) if p): value["value"]
        for score in (log.get("results") or {}).get("scores", [])
        for metric, value in score["metrics"].items()
    }
    assert {v.assertion: v.score for v in run.aggregate} == {
        name: at_precision(value) for name, value in reported.items()
    }
    assert (reported == {}) == ("results" not in log)


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_each_sample_records_its_tool_calls_and_model_calls_as_its_events_have_them(path):
    log, run = as_json_log(path), _run(path)
    responses = {
        (case.case_id, n): response
        for case in run.results
        for n, response in enumerate(case.responses or ())
    }
    for sample in sorted(log["samples"], key=lambda s: s["epoch"]):
        response = responses[(str(sample["id"]), sample["epoch"] - 1)]
        tools = _events(sample, "tool")
        models = _events(sample, "model")
        assert [c.tool for c in response.tool_calls or ()] == [t["function"] for t in tools]
        assert [c.status == "error" for c in response.tool_calls or ()] == [
            bool(t.get("error") or t.get("failed")) for t in tools
        ]
        steps = response.steps or []
        assert [s.finish for s in steps if isinstance(s, ModelStep)] == [
            m["output"]["choices"][0]["stop_reason"] for m in models
        ]
        assert [s.call for s in steps if isinstance(s, ToolStep)] == response.tool_calls


def test_the_refund_agents_tool_calls_are_those_its_readme_describes():
    run = _run(LOGS / "refund-agent.eval")
    assert {case.case_id: (case.responses or [])[0].tools for case in run.results} == {
        "r1": ["lookup_order", "refund", "submit"],
        "r2": ["lookup_order", "refund", "refund", "submit"],
        "r3": ["lookup_order", "submit"],
        "r4": ["lookup_order", "refund", "submit"],
        "r5": ["lookup_order"] * 5,
    }
    r2 = (run.results[1].responses or [])[0]
    assert [c.outcome for c in r2.tool_calls or ()] == ["success", "error", "success", "success"]


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_the_usage_of_the_target_and_the_judge_adds_up_to_the_evals(path):
    log, run = as_json_log(path), _run(path)
    assert run.usage is not None
    sides = (run.usage.target.tokens, run.usage.judge.tokens)
    counted = [t for t in sides if t is not None]
    if "stats" in log:
        usage = log["stats"]["model_usage"].values()
        assert sum(t.input_tokens for t in counted) == sum(u["input_tokens"] for u in usage)
        assert sum(t.output_tokens for t in counted) == sum(u["output_tokens"] for u in usage)
        spent = run.usage.target.spent_usd + run.usage.judge.spent_usd
        assert at_precision(spent) == at_precision(sum(u["total_cost"] for u in usage))
    per_sample = sum(
        r.usage.input_tokens for c in run.results for r in c.responses or () if r.usage
    )
    assert run.usage.target.tokens is not None
    assert per_sample == run.usage.target.tokens.input_tokens


def test_the_model_is_named_and_a_grader_is_the_judge():
    graded = _run(LOGS / "graded_model-roles.json")
    assert graded.target_config.values == {"provider": "mockllm", "model": "model"}
    assert graded.judge_config.identities == ["mockllm/grader"]
    assert all(v.judged for case in graded.results for v in case.verdicts)
    assert graded.usage is not None and graded.usage.judge.calls == 8
    agent = _run(LOGS / "refund-agent.eval")
    assert agent.judge_config.identities is None
    assert not any(v.judged for case in agent.results for v in case.verdicts)


@pytest.mark.parametrize(
    "name", ["refund-agent_crash_sample-error.eval", "refund-agent_crash_status-error.eval"]
)
def test_a_sample_that_raised_errors_every_check_of_its_case(name):
    run = _run(LOGS / name)
    crashed = run.results[4]
    assert crashed.case_id == "r5"
    assert [v.status for v in crashed.verdicts] == ["error"] * 3
    assert crashed.error_kind == "raised"
    assert all(v.reason and "RuntimeError" in v.reason for v in crashed.verdicts)
    (response,) = crashed.responses or []
    assert [c.outcome for c in response.tool_calls or ()] == ["success", "error"]
    assert all(v.status != "error" for case in run.results[:4] for v in case.verdicts)


def test_a_message_limit_is_said_as_a_limit_and_the_sample_still_judged():
    r5 = _run(LOGS / "refund-agent.eval").results[4]
    assert [v.status for v in r5.verdicts] == ["fail", "fail", "pass"]
    for verdict in r5.verdicts:
        assert verdict.metadata["message_limit"] == 12
        assert verdict.metadata["limited_samples"] == 1
    assert r5.error_kind is None


def test_letters_default_to_a_threshold_of_one_and_other_numbers_never_fail():
    run = _run(LOGS / "refund-agent.eval")
    assert {v.assertion: v.threshold for v in run.results[0].verdicts} == {
        "includes": 1.0,
        "refund_succeeded": 1.0,
        "tool_error_count": 0.0,
    }
    assert all(v.threshold == 0.0 for v in run.aggregate)


def test_a_threshold_from_the_config_judges_the_scorer_and_changes_the_rules():
    log = LOGS / "qa_epochs3_mean-max.eval"
    default = _run(log)
    from generator.archive.config import Inspect

    eased = _run(log, Options(tenant="acme", inspect=Inspect(thresholds={"includes": 0.6})))
    before = {c.case_id: c.verdicts[0].status for c in default.results}
    after = {c.case_id: c.verdicts[0].status for c in eased.results}
    assert [k for k in before if before[k] != after[k]] == ["q07", "q08"]
    assert eased.config_hash != default.config_hash
    assert [v.assertion_id for c in eased.results for v in c.verdicts] == [
        v.assertion_id for c in default.results for v in c.verdicts
    ]


def test_with_several_epochs_the_score_is_the_first_reducers_and_each_epoch_a_sample():
    run = _run(LOGS / "qa_epochs3_mean-max.eval")
    q07 = run.results[6].verdicts[0]
    assert (q07.samples, q07.score, q07.status) == ([1.0, 1.0, 0.0], 0.666667, "fail")
    assert (q07.sample_min, q07.sample_max) == (0.0, 1.0)


def test_each_log_reads_as_the_same_bytes_every_time():
    for path in ALL:
        first, second = (read_files([path], ACME).arrivals[0].data for _ in range(2))
        assert first == second
        assert run_bytes(read_run(first).run) == first


def test_importing_the_corpus_commits_once_and_again_archives_nothing(runsite, archive):
    result = runsite("import", "--root", str(archive), "--tenant", "acme", str(LOGS))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "6 archived, 0 already there"
    head = git(archive, "rev-parse", "HEAD")
    again = runsite("import", "--root", str(archive), "--tenant", "acme", str(LOGS))
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[-1] == "0 archived, 6 already there"
    assert git(archive, "rev-parse", "HEAD") == head
    assert git(archive, "rev-list", "--count", "HEAD").strip() == "2"


def test_two_logs_of_one_task_pair_check_by_check(runsite, archive):
    paths = [str(LOGS / "refund-agent.eval"), str(LOGS / "refund-agent.json")]
    runsite("import", "--root", str(archive), "--tenant", "acme", *paths)
    result = runsite(
        "explain",
        "refund_agent@latest",
        "--against",
        "refund_agent@latest~1",
        "--json",
        "--root",
        str(archive),
    )
    assert result.exit_code == 0, result.output
    facts = {f["kind"]: f["params"] for f in json.loads(result.stdout)["facts"]}
    assert "tally.rules.same" in facts
    assert facts["tally.moved"] == {
        "errored": 0,
        "improved": 0,
        "missing": 0,
        "new": 0,
        "regressed": 0,
        "unchanged": 20,
    }


def test_the_tenant_comes_from_the_evals_metadata_and_the_flags_name_both(tmp_path, write_json):
    log = as_json_log(LOGS / "refund-agent.json")
    log["eval"]["metadata"] = {"tenant": "northwind", "environment": "ci"}
    named = _run(write_json(log, "named.json"), Options())
    assert (named.tenant, named.environment, named.suite) == ("northwind", "ci", "refund_agent")
    flagged = _run(write_json(log, "named.json"), Options(tenant="acme", suite="refunds"))
    assert (flagged.tenant, flagged.suite) == ("acme", "refunds")


def test_a_log_that_names_no_tenant_is_refused_unless_one_is_given(runsite, archive):
    result = runsite("import", "--root", str(archive), str(LOGS / "refund-agent.eval"))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[0] == (
        f"runsite: {LOGS / 'refund-agent.eval'}: header.json: eval.metadata.tenant: "
        "missing, and neither --tenant nor runsite.toml's [inspect] tenant names the run's tenant"
    )
    assert git(archive, "rev-list", "--count", "HEAD").strip() == "1"
