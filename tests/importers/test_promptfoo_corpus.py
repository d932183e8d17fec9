"""The two shared promptfoo evals arrive as a run per prompt × provider that says what promptfoo
said: each run's passed, failed and errored tests equal promptfoo's own ``results.prompts[]
.metrics``, as do its tokens and cost; the second eval pairs with the first case by case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.account.tally import case_status
from generator.document.codec import read_run, run_bytes
from generator.document.model import Run
from generator.document.numbers import at_precision
from generator.document.redact import redact
from generator.importers import detect, promptfoo, read_files
from generator.importers.options import Options
from tests._helpers import git
from tests.conftest import CORPUS

PROMPTFOO = CORPUS / "promptfoo"
EVALS = [PROMPTFOO / "run1" / "eval.json", PROMPTFOO / "run2" / "eval.json"]
ACME = Options(tenant="acme")


def _runs(path: Path, options: Options = ACME) -> list[Run]:
    batch = read_files([path], options)
    assert not batch.refused, [str(r) for r in batch.refused]
    return [arrival.reading.run for arrival in batch.arrivals]


def _eval(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def test_promptfoos_json_jsonl_and_export_are_claimed_and_its_other_formats_are_not():
    for run in ("run1", "run2"):
        folder = PROMPTFOO / run
        claimed = {p.name for p in folder.iterdir() if detect(p) is promptfoo}
        assert claimed == {"eval.json", "eval.jsonl", "export.json"}


@pytest.mark.parametrize("path", EVALS, ids=["run1", "run2"])
def test_each_prompt_and_provider_is_a_run_whose_tests_went_as_promptfoos_metrics_say(path):
    columns = _eval(path)["results"]["prompts"]
    runs = _runs(path)
    assert len(runs) == len(columns) == 4
    for run, column in zip(runs, columns, strict=True):
        metrics = column["metrics"]
        statuses = [case_status(redact(run).results[n]) for n in range(len(run.results))]
        assert (statuses.count("passed"), statuses.count("failed"), statuses.count("unjudged")) == (
            metrics["testPassCount"],
            metrics["testFailCount"],
            metrics["testErrorCount"],
        )
        kind, _, model = column["provider"].partition(":")
        assert run.target_config.values == {
            "provider": kind,
            "model": f"{model} ({column['label']})",
        }
        assert (run.suite, run.tenant, run.environment) == (
            "PF fixture C - iteration",
            "acme",
            "promptfoo",
        )


@pytest.mark.parametrize("path", EVALS, ids=["run1", "run2"])
def test_tokens_cost_and_latency_add_up_to_promptfoos_and_the_grader_is_the_judge(path):
    columns = _eval(path)["results"]["prompts"]
    for run, column in zip(_runs(path), columns, strict=True):
        metrics = column["metrics"]
        assert run.usage is not None
        target, judge = run.usage.target, run.usage.judge
        tokens = metrics["tokenUsage"]
        assert target.tokens is not None
        assert (target.tokens.input_tokens, target.tokens.output_tokens) == (
            tokens["prompt"],
            tokens["completion"],
        )
        assert target.spent_usd == at_precision(metrics["cost"])
        graded = tokens["assertions"]
        assert judge.calls == graded["numRequests"]
        assert judge.tokens is not None
        assert (judge.tokens.input_tokens, judge.tokens.output_tokens) == (
            graded["prompt"],
            graded["completion"],
        )
        latencies = [r.latency_ms for c in run.results for r in c.responses or ()]
        assert sum(x or 0 for x in latencies) == metrics["totalLatencyMs"]
        assert run.judge_config.identities == ["openai:chat:model-grader"]


def test_a_check_per_assertion_and_the_tests_own_with_promptfoos_pass_and_score():
    run = _runs(EVALS[0])[0]
    assert [[v.assertion for v in case.verdicts] for case in run.results] == [
        ["keyword", "test"],
        ["format", "test"],
        ["rubric", "test"],
        ["latency", "test"],
        ["icontains", "test"],
        ["python", "test"],
    ]
    rubric = run.results[2].verdicts[0]
    assert (rubric.score, rubric.status, rubric.judged) == (0.2, "fail", True)
    assert [c.case_id for c in run.results][:2] == ["c01 contains", "c02 json"]


def test_a_provider_error_is_an_error_of_every_check_of_its_case():
    errored = _runs(EVALS[0])[2].results[4]
    assert errored.case_id == "c05 error on model-b"
    assert [v.status for v in errored.verdicts] == ["error", "error"]
    assert errored.error_kind == "raised"
    assert all(v.reason and "500" in v.reason for v in errored.verdicts)


def test_export_reads_as_the_same_runs_as_the_output_and_every_time_as_the_same_bytes():
    for run in ("run1", "run2"):
        batches = [
            [a.data for a in read_files([PROMPTFOO / run / name], ACME).arrivals]
            for name in ("eval.json", "export.json", "eval.json")
        ]
        assert batches[0] == batches[1] == batches[2]
        assert all(run_bytes(read_run(data).run) == data for data in batches[0])


def test_jsonl_rows_read_as_the_jsons_cases_and_verdicts():
    for run in ("run1", "run2"):
        rows = _runs(PROMPTFOO / run / "eval.jsonl", Options(tenant="acme", suite="fixture"))
        full = _runs(PROMPTFOO / run / "eval.json")
        assert [r.suite for r in rows] == ["fixture"] * 4
        assert [r.target_config.values for r in rows] == [
            {"provider": "openai", "model": f"chat:model-{m} (prompt {p})"}
            for m, p in (("a", 1), ("a", 2), ("b", 1), ("b", 2))
        ]
        assert [[c.model_dump() for c in r.results] for r in rows] == [
            [c.model_dump() for c in r.results] for r in full
        ]


def test_the_second_eval_pairs_with_the_first_case_by_case(runsite, archive):
    for path in EVALS:
        done = runsite("import", "--root", str(archive), "--tenant", "acme", str(path))
        assert done.exit_code == 0, done.output
    first, second = (_runs(path) for path in EVALS)
    for before, now in zip(first, second, strict=True):
        assert before.target_config == now.target_config
        explained = runsite(
            "explain", now.key, "--against", before.key, "--json", "--root", str(archive)
        )
        assert explained.exit_code in (0, 1, 2), explained.output
        facts = {f["kind"]: f["params"] for f in json.loads(explained.stdout)["facts"]}
        moved = facts["tally.moved"]
        assert (moved["new"], moved["missing"]) == (3, 0)
        assert sum(moved.values()) == 15
        new = {c.case_id for c in now.results} - {c.case_id for c in before.results}
        assert new == {"c07 new test added in v2"}


def test_importing_both_evals_commits_once_and_again_archives_nothing(runsite, archive):
    paths = [str(path) for path in EVALS]
    result = runsite("import", "--root", str(archive), "--tenant", "acme", *paths)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "8 archived, 0 already there"
    head = git(archive, "rev-parse", "HEAD")
    again = runsite("import", "--root", str(archive), "--tenant", "acme", *paths)
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[-1] == "0 archived, 8 already there"
    assert git(archive, "rev-parse", "HEAD") == head
    assert git(archive, "rev-list", "--count", "HEAD").strip() == "2"
