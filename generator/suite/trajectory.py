"""An agent's trajectory: the steps of one answer, in the three forms it takes.

Live, a target reports it in its returned ``metadata`` (``steps``, ``tools``, ``tool_calls``,
``finish``, any subset) or hands each model call to the run through ``record_call``. Recorded,
it rides the response in the run document. Replayed, it is read back from the document exactly
as recorded. ``Trajectory`` is the one form the checks read, and ``steps_of`` is the only place
steps are made from calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from generator.document.codec import compact, rounded
from generator.document.json_text import json_value
from generator.document.trajectory import ModelStep, RecordedResponse, ToolCall, ToolStep
from generator.document.values import ToolStatus
from generator.suite.collect import ModelCall

TOOL_USE_FINISHES = frozenset({"tool_use", "tool_calls"})
"""Finish reasons with which a provider says its reply asked for tools."""


class TrajectoryError(ValueError):
    """A reported trajectory that contradicts itself; the case errors with this sentence."""


@dataclass(frozen=True)
class ToolUse:
    """One tool call: its name (None when nobody named it), arguments as JSON text, outcome."""

    tool: str | None
    arguments: str | None = None
    result: str | None = None
    status: ToolStatus = "success"


@dataclass(frozen=True)
class ReportedStep:
    """A model step (with the finish its reply reported) or a tool step (with its call)."""

    index: int
    actor: Literal["model", "tool"]
    finish: str | None = None
    use: ToolUse | None = None


@dataclass(frozen=True)
class Trajectory:
    """What a target reported about how it reached its answer; None where it said nothing."""

    steps: tuple[ReportedStep, ...] | None = None
    tools: tuple[str | None, ...] | None = None
    """The names called, in order; None at a call nobody named."""
    tool_calls: tuple[ToolUse, ...] | None = None
    finish: str | None = None

    def names(self) -> tuple[str | None, ...] | None:
        """The tools called, in order: from the steps, else ``tools``, else the names in
        ``tool_calls``; None when the target reported none of them."""
        if self.steps is not None:
            return tuple(step.use.tool for step in self.steps if step.use is not None)
        if self.tools is not None:
            return self.tools
        if self.tool_calls is not None:
            return tuple(use.tool for use in self.tool_calls)
        return None

    def uses(self) -> tuple[ToolUse, ...] | None:
        """The tool calls with their arguments: from the steps, else from ``tool_calls``."""
        if self.steps is not None:
            return tuple(step.use for step in self.steps if step.use is not None)
        return self.tool_calls


def steps_of(calls: Sequence[tuple[str | None, Sequence[ToolUse]]]) -> tuple[ReportedStep, ...]:
    """Per call, one model step with its finish, then one tool step per tool call; from 0."""
    steps: list[ReportedStep] = []
    for finish, uses in calls:
        steps.append(ReportedStep(len(steps), "model", finish=finish))
        steps += [ReportedStep(len(steps) + n, "tool", use=use) for n, use in enumerate(uses)]
    return tuple(steps)


def arguments_text(arguments: Any) -> str:
    """Arguments as recorded: canonical compact JSON, numbers at 6 decimals as digline stores
    them; text that is not JSON is kept as given."""
    value = arguments
    if isinstance(arguments, str):
        try:
            value = json_value(arguments)
        except ValueError:
            return arguments
    return compact(rounded(value))


def from_calls(calls: Sequence[ModelCall]) -> Trajectory:
    """The trajectory of collected calls: steps by ``steps_of``, the rest from the steps."""
    steps = steps_of(
        [
            (
                call.finish,
                [
                    ToolUse(
                        record.tool,
                        arguments_text(record.arguments) if record.has_arguments else None,
                        record.result,
                        record.status,
                    )
                    for record in call.tool_calls
                ],
            )
            for call in calls
        ]
    )
    uses = tuple(step.use for step in steps if step.use is not None)
    model_steps = [step for step in steps if step.actor == "model"]
    return Trajectory(
        steps=steps,
        tools=tuple(use.tool for use in uses if use.tool is not None),
        tool_calls=uses,
        finish=model_steps[-1].finish,
    )


def reported(metadata: Mapping[str, Any], by_application: bool = False) -> Trajectory:
    """The trajectory a target put in its ``metadata``, checked for the shapes it must have.

    ``null`` among ``tools`` is a call nobody named, kept in its place. An application behind
    an http target names each call's ``tool`` (``null`` where it does not know) and ``status``
    (``not_reported`` where it does not know), as digline asks of one: a failed tool must not
    read as one that worked by saying nothing. A function target's calls succeed by default.
    """
    steps = _reported_steps(metadata["steps"]) if "steps" in metadata else None
    tools = metadata.get("tools")
    if tools is not None and not (
        isinstance(tools, list) and all(t is None or (isinstance(t, str) and t) for t in tools)
    ):
        raise TrajectoryError("metadata.tools is not a list of tool names")
    calls = metadata.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise TrajectoryError("metadata.tool_calls is not a list")
    if by_application and calls is not None:
        for n, call in enumerate(calls):
            for key in ("tool", "status"):
                if isinstance(call, Mapping) and key not in call:
                    raise TrajectoryError(f"metadata.tool_calls[{n}] has no {key}")
    finish = metadata.get("finish")
    if finish is not None and not isinstance(finish, str):
        raise TrajectoryError("metadata.finish is not a string")
    trajectory = Trajectory(
        steps=steps,
        tools=tuple(tools) if tools is not None else None,
        tool_calls=tuple(_use(c, f"metadata.tool_calls[{n}]") for n, c in enumerate(calls))
        if calls is not None
        else None,
        finish=finish,
    )
    if (
        steps is not None
        and trajectory.tool_calls is not None
        and trajectory.uses() != trajectory.tool_calls
    ):
        raise TrajectoryError("metadata.steps and metadata.tool_calls name different tool calls")
    return trajectory


def _reported_steps(value: Any) -> tuple[ReportedStep, ...]:
    if not isinstance(value, list) or not value:
        raise TrajectoryError("metadata.steps is not a non-empty list of steps")
    steps = []
    for n, step in enumerate(value):
        where = f"metadata.steps[{n}]"
        if not isinstance(step, Mapping) or step.get("index") != n:
            raise TrajectoryError(f"{where} is not a step numbered {n}")
        if step.get("actor") == "model":
            finish = step.get("finish")
            if finish is not None and not isinstance(finish, str):
                raise TrajectoryError(f"{where}.finish is not a string")
            steps.append(ReportedStep(n, "model", finish=finish))
        elif step.get("actor") == "tool":
            steps.append(ReportedStep(n, "tool", use=_use(step, where)))
        else:
            raise TrajectoryError(f"{where}.actor is neither model nor tool")
    if steps[0].actor != "model":
        raise TrajectoryError(
            "metadata.steps[0] is not a model step: a trajectory starts with a call"
        )
    return tuple(steps)


def _use(call: Any, where: str) -> ToolUse:
    if not isinstance(call, Mapping):
        raise TrajectoryError(f"{where} is not a mapping")
    tool, status, result = call.get("tool"), call.get("status", "success"), call.get("result")
    if tool is not None and (not isinstance(tool, str) or not tool):
        raise TrajectoryError(f"{where}.tool is not a tool name")
    if status not in get_args(ToolStatus):
        raise TrajectoryError(f"{where}.status is not one of success, error, not_reported")
    arguments = arguments_text(call["arguments"]) if "arguments" in call else None
    return ToolUse(
        tool,
        arguments,
        result if isinstance(result, str) or result is None else repr(result),
        status,
    )


def compose(live: Trajectory, calls: Sequence[ModelCall]) -> Trajectory:
    """Collected calls win over what the target reported; where both name calls, they agree."""
    if not calls:
        return live
    collected = from_calls(calls)
    if live.steps is not None and live.steps != collected.steps:
        raise TrajectoryError("the steps the target reported differ from the calls it recorded")
    if live.tool_calls is not None and live.tool_calls != collected.tool_calls:
        raise TrajectoryError(
            "the tool_calls the target reported differ from the calls it recorded"
        )
    return collected


def _call_document(use: ToolUse) -> dict[str, Any]:
    call: dict[str, Any] = (
        {"tool": use.tool} if use.tool is not None else {"tool_absence": "not_reported"}
    )
    if use.arguments is not None:
        call["arguments"] = use.arguments
    if use.result is not None:
        call["result"] = use.result
    elif use.status == "not_reported":
        call["result_absence"] = "not_reported"
    if use.status != "success":
        call["status"] = use.status
    return call


def recorded_form(trajectory: Trajectory) -> dict[str, Any]:
    """The trajectory as a recorded response carries it: reported keys only, never ``[]`` for
    "not reported"."""
    form: dict[str, Any] = {}
    if trajectory.finish is not None:
        form["finish"] = trajectory.finish
    if trajectory.tools is not None:
        form["tools"] = list(trajectory.tools)
    if trajectory.tool_calls is not None:
        form["tool_calls"] = [_call_document(use) for use in trajectory.tool_calls]
    if trajectory.steps is not None:
        form["steps"] = [
            {"index": s.index, "actor": "model"}
            | ({"finish": s.finish} if s.finish is not None else {})
            if s.use is None
            else {"index": s.index, "actor": "tool", "call": _call_document(s.use)}
            for s in trajectory.steps
        ]
    return form


def _use_of(call: ToolCall) -> ToolUse:
    return ToolUse(call.tool, call.arguments, call.result, call.outcome)


def from_record(response: RecordedResponse) -> Trajectory:
    """The trajectory exactly as a recorded response holds it, for a replay."""
    steps = None
    if response.steps is not None:
        steps = tuple(
            ReportedStep(s.index, "model", finish=s.finish)
            if isinstance(s, ModelStep)
            else ReportedStep(s.index, "tool", use=_use_of(s.call))
            for s in response.steps
            if isinstance(s, ModelStep | ToolStep)
        )
    return Trajectory(
        steps=steps,
        tools=tuple(response.tools) if response.tools is not None else None,
        tool_calls=tuple(_use_of(c) for c in response.tool_calls)
        if response.tool_calls is not None
        else None,
        finish=response.finish,
    )
