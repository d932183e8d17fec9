"""A recorded answer and the trajectory that produced it (schema 23).

A recorded response is payload through and through: what the model said, what it was asked,
which tools it called with what arguments and what they returned. It exists inside the
perimeter only, so that a replay can judge the same answer again; ``redact`` keeps its skeleton
(step indices, actors, finishes, tool statuses) and nothing else.

Schema 23 adds three keys beside ``tool_calls``, each written when the target reported it and
absent when it did not: ``finish`` (the finish reason of the last model call), ``tools`` (the
names of the tools called, in order) and ``steps`` (per model call one model step, then one tool
step per tool call it asked for, indexed from 0).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from generator.document.record import Record, Usage
from generator.document.values import Amount, Count, Name, ToolStatus, check_at, check_each, refusal


class ToolCall(Record):
    """One tool call as the target reported it.

    ``tool`` names the tool, or ``tool_absence`` says nobody named it (never ``"tool": null``).
    ``arguments`` is canonical JSON text; absent means reported without arguments, which is not
    the same fact as ``"{}"``. ``status`` is written only when the call did not succeed.
    """

    tool: Name | None = None
    tool_absence: Literal["not_reported"] | None = None
    arguments: str | None = None
    result: str | None = None
    result_absence: Literal["not_reported", "not_recorded"] | None = None
    status: Literal["error", "not_reported"] | None = None

    @property
    def outcome(self) -> ToolStatus:
        """The call's status with the format's absence spelled out."""
        return self.status or "success"


class ModelStep(Record):
    """A model call. ``finish`` is the finish reason its reply reported, absent if none was."""

    index: Count
    actor: Literal["model"]
    finish: Name | None = None


class ToolStep(Record):
    """A tool call the preceding model step asked for, in the form ``tool_calls`` uses."""

    index: Count
    actor: Literal["tool"]
    call: ToolCall


Step = Annotated[ModelStep | ToolStep, Field(discriminator="actor")]


class RecordedResponse(Record):
    """One sample's answer, recorded when the suite sets ``record_responses``.

    ``{"withheld": true}`` alone is the form a digline-redacted document keeps. ``oversize``
    means a field exceeded the recording ceiling, and then the answer and its whole trajectory
    are left out: a clipped trajectory judged again would look complete.
    """

    withheld: Literal[True] | None = None
    oversize: Literal[True] | None = None
    output: str | None = None
    kind: Literal["text", "structured", "conversation"] | None = None
    input: str | None = None
    cost_usd: Amount | None = None
    latency_ms: Amount | None = None
    usage: Usage | None = None
    tool_calls: list[ToolCall] | None = None
    """Absent: the target said nothing about tools. ``[]``: the model called none."""
    finish: Name | None = None
    tools: list[Name | None] | None = None
    """The names called, in order; null at a call nobody named (an application said so)."""
    steps: list[Step] | None = None


def check_call(call: ToolCall) -> None:
    """Refuse a call that names its tool twice or never, or its result twice."""
    if (call.tool is None) == (call.tool_absence is None):
        raise refusal("tool", "a call carries either tool or tool_absence, exactly one")
    if call.result is not None and call.result_absence is not None:
        raise refusal("result", "a call carries result or result_absence, not both")


def check_response(response: RecordedResponse) -> None:
    """Refuse a response that contradicts itself: more than ``withheld`` in a withheld one, an
    answer in an oversize one, steps out of order or that disagree with ``tool_calls``. Called by
    the run that holds it, once for all its responses, rather than by pydantic for each."""
    if response.withheld and len(response.model_fields_set) > 1:
        raise refusal("withheld", "a withheld response carries no other key")
    if response.oversize:
        for key in ("output", "input", "tool_calls", "tools", "steps"):
            if getattr(response, key) is not None:
                raise refusal(key, "an oversize response records neither answer nor trajectory")
    check_each("tool_calls", response.tool_calls or (), check_call)
    steps = response.steps
    if steps is None:
        return
    if not steps:
        raise refusal("steps", "an empty list would say no step was taken; leave it out")
    for position, step in enumerate(steps):
        if step.index != position:
            raise refusal(f"steps[{position}].index", "steps are numbered 0, 1, 2… in order")
        if isinstance(step, ToolStep):
            check_at(f"steps[{position}].call", check_call, step.call)
    if not isinstance(steps[0], ModelStep):
        raise refusal("steps[0].actor", "a trajectory starts with a model step")
    if response.tool_calls is not None:
        calls = [step.call for step in steps if isinstance(step, ToolStep)]
        if not _same_calls(calls, response.tool_calls):
            raise refusal("steps", "the tool steps do not name the calls in tool_calls")


def _same_calls(these: list[ToolCall], those: list[ToolCall]) -> bool:
    """``these == those``, as pydantic compares records (their fields and undeclared keys),
    without its ``__eq__``, which took 1.7 ms for a run's 300 calls."""
    return len(these) == len(those) and all(
        this.__dict__ == that.__dict__ and this.__pydantic_extra__ == that.__pydantic_extra__
        for this, that in zip(these, those, strict=True)
    )
