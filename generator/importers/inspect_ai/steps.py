"""A sample's events as the recorded trajectory, and what its model calls cost.

The events are walked in order. A model event is one model step, with the finish its reply
reported (``stop_reason``); a tool event is one tool step, its call in the form a run document
writes one (the arguments as canonical JSON, the result as text, ``status: error`` where the tool
raised a ToolError or failed outright). Events inside a scorer's span are the grading, not the
system under test: a model called there is the judge, and it is counted on the judge's side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.document.codec import compact, validate
from generator.document.numbers import at_precision
from generator.errors import DocumentRefused
from generator.importers.inspect_ai.log import (
    EVENTS,
    ModelEvent,
    ModelUsage,
    SpanBegin,
    ToolEvent,
)

_TOKENS = (
    ("input_tokens", "input_tokens"),
    ("output_tokens", "output_tokens"),
    ("input_tokens_cache_read", "cache_read_tokens"),
    ("input_tokens_cache_write", "cache_write_tokens"),
    ("reasoning_tokens", "thinking_tokens"),
)
"""Inspect's name for each token count, and the run document's."""


@dataclass
class Bill:
    """Model calls counted as they are met: tokens, cost, and time waiting for the model."""

    calls: int = 0
    counted: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    cost: float = 0.0
    priced: int = 0
    seconds: float = 0.0
    timed: int = 0

    def add(self, usage: ModelUsage | None, seconds: float | None) -> None:
        self.calls += 1
        if seconds is not None:
            self.seconds += seconds
            self.timed += 1
        if usage is None:
            return
        self.counted += 1
        for inspect_name, name in _TOKENS:
            count = getattr(usage, inspect_name)
            if count is not None:
                self.tokens[name] = self.tokens.get(name, 0) + count
        if usage.total_cost is not None:
            self.cost += usage.total_cost
            self.priced += 1

    def merge(self, other: Bill) -> None:
        self.calls += other.calls
        self.counted += other.counted
        for name, count in other.tokens.items():
            self.tokens[name] = self.tokens.get(name, 0) + count
        self.cost += other.cost
        self.priced += other.priced
        self.seconds += other.seconds
        self.timed += other.timed

    def usage(self) -> dict[str, int] | None:
        """Token counts as a run document writes them: cache counts only where not zero,
        thinking tokens where a call reported them."""
        if not self.counted:
            return None
        usage = {name: self.tokens.get(name, 0) for name in ("input_tokens", "output_tokens")}
        for name in ("cache_read_tokens", "cache_write_tokens"):
            if self.tokens.get(name):
                usage[name] = self.tokens[name]
        if "thinking_tokens" in self.tokens:
            usage["thinking_tokens"] = self.tokens["thinking_tokens"]
        return usage

    def answer(self) -> dict[str, Any]:
        """Cost, latency and usage of one sample's calls, each where every call reported it."""
        found: dict[str, Any] = {}
        if self.calls and self.priced == self.calls:
            found["cost_usd"] = at_precision(self.cost)
        if self.calls and self.timed == self.calls:
            found["latency_ms"] = at_precision(self.seconds * 1000)
        usage = self.usage()
        if usage is not None:
            found["usage"] = usage
        return found

    def totals(self, every_call_seen: bool) -> dict[str, Any]:
        """The bill of one side of the run."""
        totals: dict[str, Any] = {
            "calls": self.calls,
            "counted": self.counted,
            "spent_usd": at_precision(self.cost),
            "every_call_seen": every_call_seen,
            "every_cost_known": self.priced == self.calls,
        }
        usage = self.usage()
        if usage is not None:
            totals["tokens"] = usage
        return totals


@dataclass
class SampleTrace:
    """What one sample did, and what its calls cost."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    target: Bill = field(default_factory=Bill)
    judge: Bill = field(default_factory=Bill)
    judges: set[str] = field(default_factory=set)
    """Models called inside a scorer."""
    judged: set[str] = field(default_factory=set)
    """Scorers that called a model."""

    def recorded(self) -> dict[str, Any]:
        """The trajectory's keys of a recorded response.

        Steps are written only where the first is a model step, as a document's trajectory
        starts; a solver that ran a tool before any model call keeps its calls alone.
        """
        found: dict[str, Any] = {
            "tool_calls": self.calls,
            "tools": [call["tool"] for call in self.calls if "tool" in call],
        }
        models = [step for step in self.steps if step["actor"] == "model"]
        if self.steps and self.steps[0]["actor"] == "model":
            found["steps"] = self.steps
        if models and "finish" in models[-1]:
            found["finish"] = models[-1]["finish"]
        return found | self.target.answer()


def trajectory_of(events: list[dict[str, Any]]) -> SampleTrace:
    """The trajectory of a sample's (resolved) events."""
    found = SampleTrace()
    grading: dict[str, str | None] = {}
    for position, raw in enumerate(events):
        if not isinstance(raw, dict) or raw.get("event") not in EVENTS:
            continue
        event = _event(raw, position)
        if isinstance(event, SpanBegin):
            grading[event.id] = _scorer_of(event, grading)
            continue
        scorer = grading.get(event.span_id) if event.span_id is not None else None
        if isinstance(event, ModelEvent):
            output = event.output
            usage, seconds = (output.usage, output.time) if output else (None, None)
            if scorer is not None:
                found.judge.add(usage, seconds)
                found.judges.add(event.model)
                if scorer:
                    found.judged.add(scorer)
                continue
            found.target.add(usage, seconds)
            step: dict[str, Any] = {"index": len(found.steps), "actor": "model"}
            finish = output.choices[0].stop_reason if output and output.choices else None
            if finish:
                step["finish"] = finish
            found.steps.append(step)
        elif scorer is None:
            call = _call(event)
            found.calls.append(call)
            found.steps.append({"index": len(found.steps), "actor": "tool", "call": call})
    return found


def _event(raw: dict[str, Any], position: int) -> ModelEvent | ToolEvent | SpanBegin:
    try:
        return validate(EVENTS[raw["event"]], raw)
    except DocumentRefused as refused:
        inside = f".{refused.where}" if refused.where else ""
        raise DocumentRefused(f"events[{position}]{inside}", refused.problem) from None


def _scorer_of(span: SpanBegin, grading: dict[str, str | None]) -> str | None:
    """The scorer whose span holds ``span``, if one does, from what its parent's span was found
    to be (a span begins inside its parent): once a span, however deep spans nest."""
    if span.type == "scorer":
        return span.name
    if span.type == "scorers":
        return ""  # grading, though no one scorer's
    return grading.get(span.parent_id) if span.parent_id is not None else None


def _call(event: ToolEvent) -> dict[str, Any]:
    """A tool event as a run document writes a call. A tool that raised a ToolError returned
    nothing, and its message is what the model was given instead."""
    result = event.result if isinstance(event.result, str) else compact(event.result)
    if event.error is not None and not result:
        result = event.error.message
    call: dict[str, Any] = (
        {"tool": event.function} if event.function else {"tool_absence": "not_reported"}
    )
    call |= {"arguments": compact(event.arguments), "result": result}
    if event.error is not None or event.failed:
        call["status"] = "error"
    return call
