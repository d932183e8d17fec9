"""The six checks on an agent's trajectory: digline's ``tools_called`` and
``tool_called_with``, and runsite's own ``subsequence``, ``before``, ``never`` and
``max_steps``. Each is binary with mandatory parameters and no default that passes.

Three things are errors, never fails: a target that reported nothing to read (absent is not
empty), a model step that finished on tool use with no tool step after it (the provider
contradicted itself), and a call nobody named (or whose arguments are not a JSON object) where
the verdict turns on it. Arguments are compared at 6 decimals, as digline stores them.
Score metadata holds counts, and the names called where the check is about names (as
``tools_called`` writes them): a name is a string, and no string crosses a boundary unless a
disclosure names it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, JsonValue, model_validator

from generator.document.codec import rounded
from generator.document.json_text import json_value
from generator.suite.checks import ALL_KINDS, Answer, AnswerCheck, Judge, Judgement, Tolerance, Unit
from generator.suite.checks import Needle as Name
from generator.suite.trajectory import TOOL_USE_FINISHES, Trajectory

_NO_NAMES = (
    "the target reported no steps, tools or tool_calls: return them in its metadata, "
    "or hand each model call to generator.record_call"
)
_NO_STEPS = (
    "the target reported no steps: return metadata.steps, or hand each model call to "
    "generator.record_call"
)
_NO_CALLS = (
    "the target reported neither tool_calls nor steps: return them in its metadata, or hand "
    "each model call to generator.record_call"
)
_UNNAMED = "a call nobody named decides this verdict"
_UNREADABLE = (
    "no readable call of the tool had the declared arguments, and a call with no name, or "
    "with arguments that are not a JSON object, may be the one"
)
_OTHER = "\x00another tool"
"""Stands for an unnamed call read as a tool the check does not name."""


def contradiction(trajectory: Trajectory) -> str | None:
    """Why a trajectory contradicts itself, if it does."""
    steps = trajectory.steps
    if steps is not None:
        for step, after in itertools.zip_longest(steps, steps[1:]):
            if (
                step.actor == "model"
                and step.finish in TOOL_USE_FINISHES
                and (after is None or after.actor != "tool")
            ):
                return f"step {step.index} finished on tool use and no tool step follows it"
    elif trajectory.finish in TOOL_USE_FINISHES and not trajectory.tools:
        return "the reply finished on tool use and named no tool"
    return None


class TrajectoryCheck(AnswerCheck):
    """A check on the names of the tools called, in order."""

    default_accepts = ALL_KINDS
    threshold: Annotated[float, Field(ge=1, le=1)] = 1.0
    tolerance: Annotated[float, Field(ge=0, le=0)] = 0.0
    named: ClassVar[tuple[str, ...]] = ()
    """Parameters holding tool names: an unnamed call may be read as one of these."""

    def names(self) -> tuple[str, ...]:
        values = [getattr(self, key) for key in self.named]
        return tuple(n for v in values for n in (v if isinstance(v, list) else [v]))

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        called = answer.trajectory.names()
        if called is None:
            return Judgement.error(_NO_NAMES)
        problem = contradiction(answer.trajectory)
        if problem:
            return Judgement.error(problem)
        return _decided(called, self.names(), self.verdict)

    def verdict(self, called: Sequence[str]) -> Judgement:
        raise NotImplementedError


def _decided(
    called: Sequence[str | None],
    names: Sequence[str],
    verdict: Callable[[Sequence[str]], Judgement],
) -> Judgement:
    """The verdict on ``called``, or an error when an unnamed call could change it."""
    unnamed = [n for n, name in enumerate(called) if name is None]
    if not unnamed:
        return verdict([name for name in called if name is not None])
    readings = itertools.product([*dict.fromkeys(names), _OTHER], repeat=len(unnamed))
    outcomes = set()
    for reading in itertools.islice(readings, 4096):
        filled = list(called)
        for position, name in zip(unnamed, reading, strict=True):
            filled[position] = name
        outcomes.add(verdict([n for n in filled if n is not None]).score)
    if len(outcomes) > 1:
        return Judgement.error(_UNNAMED)
    return verdict([n if n is not None else _OTHER for n in called])


class ToolsCalled(TrajectoryCheck):
    """The tools called are exactly this sequence."""

    kind = "tools_called"
    identity_type = "ToolsCalled"
    named = ("expected",)
    type: Literal["tools_called"]
    expected: list[Name]
    threshold: Unit = 1.0
    tolerance: Tolerance = 0.0

    @model_validator(mode="before")
    @classmethod
    def _spelled(cls, values: Any) -> Any:
        """``tools`` is runsite's spelling of ``expected``."""
        if isinstance(values, dict) and "tools" in values and "expected" not in values:
            return {("expected" if k == "tools" else k): v for k, v in values.items()}
        return values

    def verdict(self, called: Sequence[str]) -> Judgement:
        same = list(called) == self.expected
        return Judgement.of(
            same,
            "the tools were called as declared"
            if same
            else "the tools called differ from the declared sequence",
            tool_calls=len(called),
            called=list(called),
        )


class Subsequence(TrajectoryCheck):
    """These tools were called in this order, with anything between them."""

    kind = "subsequence"
    identity_type = "Subsequence"
    named = ("tools",)
    type: Literal["subsequence"]
    tools: Annotated[list[Name], Field(min_length=1)]

    def verdict(self, called: Sequence[str]) -> Judgement:
        matched = 0
        for name in called:
            if matched < len(self.tools) and name == self.tools[matched]:
                matched += 1
        return Judgement.of(
            matched == len(self.tools),
            f"{matched} of {len(self.tools)} tools found in order",
            matched=matched,
            expected=len(self.tools),
            tool_steps=len(called),
            called=list(called),
        )


class Before(TrajectoryCheck):
    """No call of ``then`` without a call of ``first`` before it."""

    kind = "before"
    identity_type = "Before"
    named = ("first", "then")
    type: Literal["before"]
    first: Name
    then: Name

    @model_validator(mode="after")
    def _two_tools(self) -> Before:
        if self.first == self.then:
            raise ValueError("then: the same tool as first; a tool cannot come before itself")
        return self

    def verdict(self, called: Sequence[str]) -> Judgement:
        seen_first, violations = False, 0
        for name in called:
            seen_first = seen_first or name == self.first
            violations += name == self.then and not seen_first
        return Judgement.of(
            violations == 0,
            f"{violations} calls of the second tool came before any call of the first",
            violations=violations,
            first_calls=called.count(self.first),
            then_calls=called.count(self.then),
        )


class Never(TrajectoryCheck):
    """The tool was never called."""

    kind = "never"
    identity_type = "Never"
    named = ("tool",)
    type: Literal["never"]
    tool: Name

    def verdict(self, called: Sequence[str]) -> Judgement:
        occurrences = called.count(self.tool)
        return Judgement.of(
            occurrences == 0, f"called {occurrences} times", occurrences=occurrences
        )


class MaxSteps(TrajectoryCheck):
    """At most ``limit`` steps of the ``count`` actor: an agent's turns are its model steps."""

    kind = "max_steps"
    identity_type = "MaxSteps"
    type: Literal["max_steps"]
    limit: Annotated[int, Field(ge=1)]
    count: Literal["model", "tool"]

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        steps = answer.trajectory.steps
        if steps is None:
            return Judgement.error(_NO_STEPS)
        problem = contradiction(answer.trajectory)
        if problem:
            return Judgement.error(problem)
        taken = sum(step.actor == self.count for step in steps)
        return Judgement.of(
            taken <= self.limit, f"{taken} {self.count} steps", steps=taken, limit=self.limit
        )


class ToolCalledWith(TrajectoryCheck):
    """Some call of ``tool`` had these arguments, exactly or as a subset."""

    kind = "tool_called_with"
    identity_type = "ToolCalledWith"
    type: Literal["tool_called_with"]
    tool: Name
    arguments: Annotated[dict[str, JsonValue], Field(min_length=1)]
    match: Literal["exact", "subset"] = "exact"
    threshold: Unit = 1.0
    tolerance: Tolerance = 0.0

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        uses = answer.trajectory.uses()
        if uses is None:
            return Judgement.error(_NO_CALLS)
        problem = contradiction(answer.trajectory)
        if problem:
            return Judgement.error(problem)
        wanted = rounded(self.arguments)
        best, unreadable = 0, 0
        for use in uses:
            if use.tool is not None and use.tool != self.tool:
                continue
            given = _arguments(use.arguments) if use.tool is not None else None
            if given is None:
                unreadable += 1
                continue
            matched = sum(key in given and given[key] == value for key, value in wanted.items())
            if matched == len(wanted) and (self.match == "subset" or set(given) == set(wanted)):
                return self._found(matched)
            best = max(best, matched)
        if unreadable:
            return Judgement.error(_UNREADABLE)
        return Judgement.of(
            False,
            "no call of the tool had the declared arguments",
            arguments_matched=best,
            arguments_expected=len(self.arguments),
        )

    def _found(self, matched: int) -> Judgement:
        return Judgement.of(
            True,
            "a call of the tool had the declared arguments",
            arguments_matched=matched,
            arguments_expected=len(self.arguments),
        )


def _arguments(text: str | None) -> dict[str, Any] | None:
    """A call's arguments as an object at storage precision (none reported reads as ``{}``), or
    None when they are not a JSON object."""
    try:
        given = json_value(text) if text is not None else {}
    except ValueError:
        return None
    return rounded(given) if isinstance(given, dict) else None


TRAJECTORY_CHECKS: dict[str, type[AnswerCheck]] = {
    c.kind: c for c in (ToolsCalled, ToolCalledWith, Subsequence, Before, Never, MaxSteps)
}


def contradictions(checks: Sequence[AnswerCheck]) -> tuple[int, str, str] | None:
    """The first pair of trajectory checks no case could pass together, as (position, key,
    problem) of the later one; every case is asked every check, so such a suite fails all."""
    for n, check in enumerate(checks):
        for m, other in enumerate(checks[:n]):
            problem = _contradicts(check, other) or _contradicts(other, check)
            if problem:
                return n, _key(check), f"{problem} (check #{m + 1})"
    return None


def _key(check: AnswerCheck) -> str:
    keys = {"never": "tool", "before": "then", "max_steps": "limit", "tools_called": "expected"}
    return keys.get(check.type, "tools")


def _requires(check: AnswerCheck) -> set[str]:
    if isinstance(check, ToolsCalled):
        return set(check.expected)
    if isinstance(check, Subsequence):
        return set(check.tools)
    if isinstance(check, ToolCalledWith):
        return {check.tool}
    return set()


def _contradicts(a: AnswerCheck, b: AnswerCheck) -> str | None:
    if isinstance(a, Never):
        if a.tool in _requires(b):
            return "never calling a tool that another check requires"
        if isinstance(b, Before) and a.tool in (b.first, b.then):
            return "never calling a tool that a before check orders"
    if isinstance(a, Before) and isinstance(b, Before) and (a.first, a.then) == (b.then, b.first):
        return "two before checks that order the same tools both ways"
    if (
        isinstance(a, MaxSteps)
        and a.count == "tool"
        and isinstance(b, Subsequence | ToolsCalled)
        and a.limit < len(b.tools if isinstance(b, Subsequence) else b.expected)
    ):
        return "a tool-step limit below the number of calls another check requires"
    return None
