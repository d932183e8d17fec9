"""Replay: judge a stored run's recorded answers again with a suite's current checks.

The target is never called. Each case is handed back its recorded answers in order, with
``finish``, ``tools``, ``tool_calls`` and ``steps`` exactly as recorded, so a check judges the
trajectory the live run judged. Whatever a replay cannot give back is refused before anything
is judged, naming what is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from generator.document.json_text import json_value
from generator.document.model import Run
from generator.document.trajectory import RecordedResponse
from generator.errors import Refused
from generator.suite.agent_checks import MaxSteps, ToolCalledWith, TrajectoryCheck
from generator.suite.checks import Answer, AnswerCheck
from generator.suite.spec import Suite
from generator.suite.targets import Caller, Reply
from generator.suite.trajectory import from_record

_NEEDS: dict[str, tuple[str, ...]] = {
    "steps": ("steps",),
    "calls": ("tool_calls", "steps"),
    "names": ("steps", "tools", "tool_calls"),
}


def replayable(suite: Suite, stored: Run) -> Suite:
    """``suite`` over the stored run's cases, or a refusal saying what the run did not record."""
    if stored.redacted:
        raise Refused(f"run {stored.key}: a redacted run keeps no answers to judge again")
    by_id = {case.id: case for case in suite.cases}
    cases = []
    for result in stored.results:
        case = by_id.get(result.case_id)
        if case is None:
            raise Refused(
                f"run {stored.key}: the case {result.case_id!r} is not among the suite's cases"
            )
        if result.suspended:
            cases.append(
                case.model_copy(update={"suspended": result.suspended_reason or "set aside"})
            )
            continue
        if result.responses is None:
            raise Refused(
                f"run {stored.key}: the case {result.case_id!r} has no recorded answers; "
                "a replay needs a run measured with record_responses = true"
            )
        if len(result.responses) != suite.samples:
            raise Refused(
                f"run {stored.key}: the case {result.case_id!r} recorded {len(result.responses)} "
                f"answers, and the suite asks for {suite.samples} samples"
            )
        cases.append(case.model_copy(update={"suspended": None}))
    responses = [r for result in stored.results for r in result.responses or ()]
    for position, check in enumerate(suite.checks, 1):
        keys = _needed_keys(check)
        if keys and not any(getattr(r, key) is not None for r in responses for key in keys):
            raise Refused(
                f"[[assertions]] #{position} ({check.label}): needs {' or '.join(keys)}, and run "
                f"{stored.key} recorded none (record_responses records them from schema 23)"
            )
    return replace(suite, cases=tuple(cases))


def _needed_keys(check: AnswerCheck) -> tuple[str, ...]:
    if isinstance(check, MaxSteps):
        return _NEEDS["steps"]
    if isinstance(check, ToolCalledWith):
        return _NEEDS["calls"]
    if isinstance(check, TrajectoryCheck):
        return _NEEDS["names"]
    return ()


def replay_caller(stored: Run) -> Caller:
    """A target that hands back each case's recorded answers, in the order they were made."""
    queues: dict[str, Iterator[RecordedResponse]] = {
        result.case_id: iter(result.responses or ()) for result in stored.results
    }
    kinds = {result.case_id: result.error_kind for result in stored.results}

    def call(case: Any) -> Reply:
        return reply_from_record(next(queues[case.id]), kinds[case.id])

    return call


def reply_from_record(response: RecordedResponse, error_kind: Any = None) -> Reply:
    """A recorded answer as the reply the target gave."""
    latency = response.latency_ms or 0.0
    if response.oversize:
        return Reply(
            None, latency, error="the answer was over the recording ceiling and was not recorded"
        )
    if response.output is None:
        return Reply(
            None,
            latency,
            error="no answer was recorded: the target gave none",
            error_kind=error_kind,
        )
    structured = response.kind == "structured"
    try:
        output = json_value(response.output) if structured else response.output
    except ValueError as error:
        reason = f"the recorded structured answer cannot be read: {error}"
        return Reply(None, latency, error=reason, error_kind=error_kind)
    answer = Answer(
        output,
        "structured" if structured else "text",
        cost_usd=response.cost_usd,
        latency_ms=response.latency_ms,
        trajectory=from_record(response),
    )
    usage = response.usage.model_dump(exclude_none=True) if response.usage else None
    return Reply(answer, latency, input=response.input, usage=usage)
