"""Shapes of promptfoo evals the shared corpus does not hold, made from it as promptfoo would
write them: a test judged by its ``threshold`` over weighted assertions, ``--repeat`` rows, and a
score outside 0 to 1. Each keeps the equalities with promptfoo's own counts."""

from __future__ import annotations

import copy
import json
from typing import Any

from generator.account.tally import case_status
from generator.document.redact import redact
from generator.importers import read_files
from generator.importers.options import Options
from tests.conftest import CORPUS

RUN1 = CORPUS / "promptfoo" / "run1" / "eval.json"


def _eval() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(RUN1.read_text(encoding="utf-8"))
    return found


def _runs(write_json, found: dict[str, Any]):
    batch = read_files([write_json(found, "eval.json")], Options(tenant="acme"))
    assert not batch.refused, [str(r) for r in batch.refused]
    return [a.reading.run for a in batch.arrivals]


def _rows(found: dict[str, Any], test: int) -> list[dict[str, Any]]:
    return [r for r in found["results"]["results"] if r["testIdx"] == test]


def test_a_test_passed_by_its_threshold_passes_though_an_assertion_failed(write_json):
    found = _eval()
    for row in _rows(found, 2):  # c03: its rubric failed at 0.2 on every column
        extra = {"type": "icontains", "value": "a", "weight": 3}
        row["testCase"]["threshold"] = 0.5
        row["testCase"]["assert"].append(extra)
        component = {"pass": True, "score": 1, "reason": "ok", "assertion": extra}
        row["gradingResult"]["componentResults"].append(component)
        row |= {"success": True, "score": 0.8, "failureReason": 0}
    runs = _runs(write_json, found)
    for run in runs:
        case = run.results[2]
        rubric, contains, test = case.verdicts
        assert (rubric.score, rubric.status, rubric.threshold) == (0.2, "pass", 0.0)
        assert (rubric.metadata["passed"], rubric.metadata["failed"]) == (0, 1)
        assert contains.metadata["weight"] == 3
        assert (test.assertion, test.score, test.status, test.threshold) == (
            "test",
            0.8,
            "pass",
            0.5,
        )
        assert case_status(redact(run).results[2]) == "passed"
    loose = _runs(write_json, _eval())
    assert runs[0].config_hash != loose[0].config_hash
    assert [v.assertion_id for v in runs[0].results[2].verdicts][::2] == [
        v.assertion_id for v in loose[0].results[2].verdicts
    ]


def test_repeated_rows_are_the_samples_of_each_check(write_json):
    found = _eval()
    rows = found["results"]["results"]
    again = copy.deepcopy(rows)
    for row in again:
        row["testIdx"] += 6
    flipped = next(r for r in again if r["testIdx"] == 6 and r["promptIdx"] == 0)
    flipped |= {"success": False, "score": 0, "failureReason": 1, "error": "no river"}
    flipped["gradingResult"]["componentResults"][0] |= {"pass": False, "score": 0}
    found["results"]["results"] = rows + again
    runs = _runs(write_json, found)
    assert [len(run.results) for run in runs] == [6] * 4
    keyword, test = runs[0].results[0].verdicts
    assert (keyword.samples, keyword.score, keyword.status) == ([1.0, 0.0], 0.5, "fail")
    assert (test.metadata["passed"], test.metadata["failed"]) == (1, 1)
    assert len(runs[0].results[0].responses or ()) == 2
    errored = runs[2].results[4].verdicts[1]
    assert (errored.status, errored.metadata["errored"]) == ("error", 2)
    for run, column in zip(runs, found["results"]["prompts"], strict=True):
        counts = [
            sum(v.metadata[k] for c in run.results for v in c.verdicts if v.assertion == "test")
            for k in ("passed", "failed", "errored")
        ]
        metrics = column["metrics"]
        once = [metrics[k] for k in ("testPassCount", "testFailCount", "testErrorCount")]
        assert sum(counts) == 2 * sum(once)


def test_a_score_outside_zero_to_one_is_an_error_that_keeps_the_number(write_json):
    found = _eval()
    for row in _rows(found, 0):
        row["gradingResult"]["componentResults"][0]["score"] = 3
    keyword = _runs(write_json, found)[0].results[0].verdicts[0]
    assert (keyword.status, keyword.score, keyword.metadata["value"]) == ("error", None, 3.0)


def test_a_prompt_and_provider_without_rows_makes_no_run(write_json):
    found = _eval()
    rows = found["results"]["results"]
    found["results"]["results"] = [r for r in rows if r["promptIdx"] != 3]
    assert len(_runs(write_json, found)) == 3
