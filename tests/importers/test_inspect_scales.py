"""A scorer that measures on a scale of its own (a count of tool calls, seconds, BLEU × 100)
keeps Inspect's numbers: no error where Inspect recorded none, each reducer's per-case value
Inspect's, judged only against a threshold the archive declares on that scale, else measured."""

from __future__ import annotations

from collections.abc import Callable
from statistics import mean
from typing import Any

import pytest

from generator.account.figures import check_figures
from generator.account.tally import counted, tally_of
from generator.archive.config import Inspect
from generator.document.codec import run_bytes
from generator.document.numbers import at_precision
from generator.document.redact import redact
from generator.importers import read_files
from generator.importers.inspect_ai.scores import value_to_float
from generator.importers.options import Options
from generator.reading import explain
from tests.importers._logs import LOGS, as_json_log

COUNTS = {"r1": 1, "r2": 2, "r3": 4, "r4": 0, "r5": 4}
"""Tool calls per sample, as the issue's scorer counted them: 0 to 4, a mean of 2.2."""


def counting_tool_calls() -> dict[str, Any]:
    """The refund agent's log with ``tool_error_count`` counting 0 to 4, as Inspect would have
    written it: each sample's value, its reduction and the metric's mean."""
    log = as_json_log(LOGS / "refund-agent.json")
    for sample in log["samples"]:
        sample["scores"]["tool_error_count"]["value"] = COUNTS[sample["id"]]
    for reduction in log["reductions"]:
        if reduction["scorer"] == "tool_error_count":
            for sample in reduction["samples"]:
                sample["value"] = float(COUNTS[sample["sample_id"]])
    log["results"]["scores"][2]["metrics"]["mean"]["value"] = mean(COUNTS.values())
    return log


def seconds_over_epochs() -> dict[str, Any]:
    """The QA log (3 epochs, reducers mean and max) with ``includes`` scoring seconds taken,
    each reduction and metric recomputed as Inspect reduces them."""
    log = as_json_log(LOGS / "qa_epochs3_mean-max.eval")
    taken: dict[str, list[float]] = {}
    for sample in log["samples"]:
        seconds = 1.5 * sample["epoch"] + int(sample["id"][1:])
        sample["scores"]["includes"]["value"] = seconds
        taken.setdefault(sample["id"], []).append(seconds)
    reduce: dict[str, Callable[[list[float]], float]] = {"mean": mean, "max": max}
    for reduction in log["reductions"]:
        for sample in reduction["samples"]:
            sample["value"] = reduce[reduction["reducer"]](taken[sample["sample_id"]])
    for score in log["results"]["scores"]:
        per_case = [reduce[score["reducer"]](v) for v in taken.values()]
        score["metrics"]["accuracy"]["value"] = mean(per_case)
    return log


def _imported(log: dict[str, Any], write_json, options: Options | None = None) -> Any:
    batch = read_files([write_json(log, "log.json")], options or Options(tenant="acme"))
    assert not batch.refused, [str(r) for r in batch.refused]
    return batch.arrivals[0].reading.run


def _errors_inspect_recorded(log: dict[str, Any]) -> int:
    return sum(1 for sample in log["samples"] if sample.get("error"))


@pytest.mark.parametrize("made", [counting_tool_calls, seconds_over_epochs])
def test_no_error_verdict_where_inspect_recorded_none(made, write_json):
    log = made()
    assert _errors_inspect_recorded(log) == 0
    run = _imported(log, write_json)
    verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
    assert [v.assertion for v in verdicts if v.status == "error"] == []


@pytest.mark.parametrize("made", [counting_tool_calls, seconds_over_epochs])
def test_each_reducers_per_case_value_is_inspects_on_its_own_scale(made, write_json):
    log = made()
    reducers = log["eval"]["config"].get("epochs_reducer") or ["mean"]
    run = _imported(log, write_json)
    scores = {(c.case_id, v.assertion): v for c in run.results for v in c.verdicts}
    compared = 0
    for reduction in log["reductions"]:
        reducer = reduction.get("reducer") or reducers[0]
        name = reduction["scorer"] + ("" if reducer == reducers[0] else f"/{reducer}")
        for sample in reduction["samples"]:
            verdict = scores[(sample["sample_id"], name)]
            number = value_to_float(sample["value"])
            assert number is not None and verdict.score == at_precision(number)
            compared += 1
    assert compared == sum(len(r["samples"]) for r in log["reductions"])


def test_a_count_with_no_threshold_is_measured_never_judged(write_json):
    run = _imported(counting_tool_calls(), write_json)
    counts = [case.verdicts[2] for case in run.results]
    assert {(v.assertion, v.status, v.own_scale) for v in counts} == {
        ("tool_error_count", "measured", True)
    }
    assert [v.score for v in counts] == [1.0, 2.0, 4.0, 0.0, 4.0]
    metric = run.aggregate[-1]
    assert (metric.assertion, metric.score, metric.status, metric.own_scale) == (
        "tool_error_count/mean",
        2.2,
        "measured",
        True,
    )
    went = counted(counts)
    assert (went.passed, went.failed, went.unjudged, went.measured, went.rate) == (0, 0, 0, 5, None)
    tally = tally_of(redact(run))
    assert tally.status(None) == "failed"  # includes and refund_succeeded fail some cases
    assert tally.verdicts.unjudged == 0
    figures = {(f.whole_run, f.name): f for f in check_figures(redact(run))}
    own = figures[(False, "tool_error_count")]
    assert (own.score, own.own_scale) == (2_200_000, True)
    assert own.mean_bounds is not None and own.mean_bounds.high > 1


def test_a_threshold_declared_on_the_scorers_scale_judges_it(write_json):
    options = Options(tenant="acme", inspect=Inspect(thresholds={"tool_error_count": 2}))
    run = _imported(counting_tool_calls(), write_json, options)
    counts = [case.verdicts[2] for case in run.results]
    assert [(v.score, v.status, v.threshold) for v in counts] == [
        (1.0, "fail", 2.0),
        (2.0, "pass", 2.0),
        (4.0, "pass", 2.0),
        (0.0, "fail", 2.0),
        (4.0, "pass", 2.0),
    ]
    assert all(v.own_scale for v in counts)
    assert run.aggregate[-1].status == "measured"


def test_a_scorer_on_its_own_scale_keeps_its_samples_and_travels_redacted(write_json):
    run = _imported(seconds_over_epochs(), write_json)
    first = run.results[0].verdicts[0]
    assert (first.samples, first.sample_min, first.sample_max) == ([2.5, 4.0, 5.5], 2.5, 5.5)
    assert (first.score, first.status, first.own_scale) == (4.0, "measured", True)
    shown = redact(run).results[0].verdicts[0]
    assert (shown.score, shown.samples, shown.own_scale) == (4.0, [2.5, 4.0, 5.5], True)
    assert run_bytes(run) == run_bytes(_imported(seconds_over_epochs(), write_json))


def test_a_scorer_within_zero_to_one_is_imported_as_before():
    (arrival,) = read_files([LOGS / "refund-agent.json"], Options(tenant="acme")).arrivals
    run = arrival.reading.run
    assert not any(v.own_scale for case in run.results for v in case.verdicts)
    assert [v.status for v in run.aggregate] == ["pass"] * len(run.aggregate)


def test_a_run_that_only_measured_reads_not_judged_and_says_why(write_json):
    """A run whose every check is a measurement no threshold judges passed nothing: its status
    is not judged, never passed, and its reading counts the measurements apart."""
    imported = _imported(counting_tool_calls(), write_json)
    run = imported.model_copy(
        update={
            "results": [
                case.model_copy(
                    update={"verdicts": [v for v in case.verdicts if v.status == "measured"]}
                )
                for case in imported.results
            ],
            "aggregate": [v for v in imported.aggregate if v.status == "measured"],
        }
    )
    redacted = redact(run)
    assert tally_of(redacted).status(None) == "unjudged"
    said = {f.kind: f.params for f in explain(redacted).facts}
    assert said["tally.measured"] == {"count": 6}
    assert (said["tally.checks"]["passed"], said["tally.checks"]["failed"]) == (0, 0)
