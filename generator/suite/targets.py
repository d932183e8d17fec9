"""The system under test called once per sample, and the ``Reply`` it gives: a Python function
here (an application behind a URL is ``http_target``, a model ``providers``).

A target is called once per sample of each case and gives back a ``Reply``: the answer the
checks read, or the reason there is none. A target that raises, times out, answers HTTP 500 or
returns something that is not an answer gives an error reply: the checks then record errors,
never fails, because nobody established what the system would have said.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from generator.document.codec import compact
from generator.document.numbers import at_precision
from generator.suite.checks import Answer
from generator.suite.collect import ModelCall, collecting
from generator.suite.spec import Case
from generator.suite.target_spec import Price
from generator.suite.trajectory import TrajectoryError, compose, reported

REPLY_KEYS = frozenset({"output", "input", "cost_usd", "latency_ms", "usage", "metadata"})
USAGE_KEYS = frozenset(
    {"input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "thinking_tokens"}
)


@dataclass(frozen=True)
class Reply:
    """One call of the target."""

    answer: Answer | None
    latency_ms: float
    input: str | None = None
    usage: dict[str, int] | None = None
    config: dict[str, Any] = field(default_factory=dict)
    """What the target said about how it is set up (an http target's ``config_path``)."""
    error: str | None = None
    error_kind: Literal["raised", "shape"] | None = None


Caller = Callable[[Case], Reply]


def amount(value: Any) -> bool:
    """Whether ``value`` is a number of at least 0 (a cost, a latency)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0


def token_counts(value: Any) -> dict[str, int] | None:
    """``value`` as token counts (``input_tokens`` and ``output_tokens`` at least, every count
    a whole number of at least 0), or None when it is not that."""
    if not (
        isinstance(value, Mapping)
        and {"input_tokens", "output_tokens"} <= set(value) <= USAGE_KEYS
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value.values())
    ):
        return None
    return dict(value)


def reply_of(value: Any, latency_ms: float) -> Reply:
    """A function target's return value read as a reply: a string, or a mapping of known keys."""
    if isinstance(value, str):
        return Reply(Answer(value, "text", latency_ms=latency_ms), latency_ms)
    if not isinstance(value, Mapping) or "output" not in value:
        return _shape("the target returned neither a string nor a mapping with output", latency_ms)
    unknown = sorted(set(value) - REPLY_KEYS)
    if unknown:
        return _shape(
            f"the target returned keys runsite does not read: {', '.join(unknown)}", latency_ms
        )
    for key in ("cost_usd", "latency_ms"):
        if key in value and value[key] is not None and not amount(value[key]):
            return _shape(f"the target's {key} is not a number of at least 0", latency_ms)
    usage = value.get("usage")
    if usage is not None and token_counts(usage) is None:
        return _shape("the target's usage is not a mapping of token counts", latency_ms)
    metadata = value.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        return _shape("the target's metadata is not a mapping", latency_ms)
    try:
        trajectory = reported(metadata)
    except TrajectoryError as error:
        return _shape(str(error), latency_ms)
    output = value["output"]
    latency = float(value.get("latency_ms", latency_ms))
    answer = Answer(
        output,
        "text" if isinstance(output, str) else "structured",
        cost_usd=value.get("cost_usd"),
        latency_ms=latency,
        trajectory=trajectory,
    )
    given_input = value.get("input")
    return Reply(
        answer,
        latency,
        input=given_input
        if isinstance(given_input, str) or given_input is None
        else compact(given_input),
        usage=token_counts(usage),
    )


def _shape(reason: str, latency_ms: float) -> Reply:
    return Reply(None, latency_ms, error=reason, error_kind="shape")


def function_caller(
    function: Callable[[dict[str, Any]], Any], prices: Mapping[str, Price]
) -> Caller:
    """Call ``function`` with the case as a mapping, timing it and collecting its model calls."""

    def call(case: Case) -> Reply:
        started = time.perf_counter()
        with collecting() as collection:
            try:
                value = function(case.as_mapping())
            except Exception as error:
                latency = (time.perf_counter() - started) * 1000
                reason = f"the target raised {type(error).__name__}: {error}"
                return Reply(None, latency, error=reason, error_kind="raised")
        reply = reply_of(value, (time.perf_counter() - started) * 1000)
        return _with_calls(reply, collection.calls, prices) if collection.calls else reply

    return call


def _with_calls(reply: Reply, calls: Sequence[ModelCall], prices: Mapping[str, Price]) -> Reply:
    """A reply whose model calls were collected: the calls decide its trajectory and its bill.

    Latency is the time spent waiting for the model, summed over the calls (the tools' time is
    not in it); where a call did not say, the whole call of the target is timed instead.
    """
    if reply.answer is None:
        return reply
    try:
        trajectory = compose(reply.answer.trajectory, calls)
    except TrajectoryError as error:
        return _shape(str(error), reply.latency_ms)
    latencies = [call.latency_ms for call in calls]
    latency = (
        sum(v for v in latencies if v is not None) if None not in latencies else reply.latency_ms
    )
    usage: dict[str, int] | None = None
    if all(call.usage for call in calls):
        usage = {}
        for call in calls:
            for key, count in (call.usage or {}).items():
                usage[key] = usage.get(key, 0) + count
    cost, unpriced = _priced(calls, prices)
    answer = replace(
        reply.answer, trajectory=trajectory, cost_usd=cost, latency_ms=latency, unpriced=unpriced
    )
    return replace(reply, answer=answer, latency_ms=latency, usage=usage)


def _priced(
    calls: Sequence[ModelCall], prices: Mapping[str, Price]
) -> tuple[float | None, str | None]:
    """The cost of collected calls at the prices the target declares, or why it is unknown.

    Each call is priced at the model it reports; one call that cannot be priced leaves the
    whole cost unknown, because a partial cost is not a cost.
    """
    if not prices:
        return (
            None,
            "calls recorded through generator.record_call: tokens counted, no prices declared by the target",
        )
    total = 0.0
    for n, call in enumerate(calls):
        price = prices.get(call.model or "")
        if price is None:
            return None, f"call {n} names a model the target's prices do not list"
        cost = price.cost(call.usage) if call.usage else None
        if cost is None:
            return None, f"call {n} reported no token usage its model's prices can price"
        total += cost
    return at_precision(total), None
