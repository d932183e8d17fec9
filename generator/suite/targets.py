"""The system under test: a Python function, or an application behind a URL.

A target is called once per sample of each case and gives back a ``Reply``: the answer the
checks read, or the reason there is none. A target that raises, times out, answers HTTP 500 or
returns something that is not an answer gives an error reply: the checks then record errors,
never fails, because nobody established what the system would have said.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from generator.document.codec import compact
from generator.document.numbers import at_precision
from generator.suite.checks import Answer
from generator.suite.collect import ModelCall, collecting
from generator.suite.spec import Case, HttpTarget, Price, read_reference
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


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0


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
        if key in value and value[key] is not None and not _number(value[key]):
            return _shape(f"the target's {key} is not a number of at least 0", latency_ms)
    usage = value.get("usage")
    if usage is not None and not (
        isinstance(usage, Mapping)
        and {"input_tokens", "output_tokens"} <= set(usage) <= USAGE_KEYS
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in usage.values())
    ):
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
        usage=dict(usage) if usage else None,
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
        if not call.usage:
            return None, f"call {n} reported no token usage to price"
        total += price.cost(call.usage)
    return at_precision(total), None


def _at(document: Any, path: str) -> Any:
    """The value at a dotted path (``data.answer``, ``choices.0.text``), or KeyError."""
    value = document
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(path)
    return value


def _body(template: Any, case: Case) -> Any:
    if isinstance(template, dict):
        return {key: _body(item, case) for key, item in template.items()}
    if isinstance(template, list):
        return [_body(item, case) for item in template]
    if isinstance(template, str) and template.startswith("case."):
        return read_reference(case, template.split(".")[1:])
    return template


def http_caller(target: HttpTarget) -> Caller:
    """POST each case's body as JSON and read the answer from the JSON that comes back."""

    def call(case: Case) -> Reply:
        body = compact(_body(target.body, case))
        request = urllib.request.Request(
            target.url,
            data=body.encode("utf-8"),
            headers={"Content-Type": "application/json", **target.headers},
            method="POST",
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=target.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            return _raised(f"the target answered HTTP {error.code}", started, body)
        except TimeoutError:
            return _raised(f"the target did not answer within {target.timeout:g} s", started, body)
        except urllib.error.URLError as error:
            return _raised(f"the target could not be reached ({error.reason})", started, body)
        latency = (time.perf_counter() - started) * 1000
        return _read_response(target, raw, latency, body)

    return call


def _raised(reason: str, started: float, body: str) -> Reply:
    latency = (time.perf_counter() - started) * 1000
    return Reply(None, latency, input=body, error=reason, error_kind="raised")


def _read_response(target: HttpTarget, raw: bytes, latency: float, body: str) -> Reply:
    try:
        document = json.loads(raw)
        output = _at(document, target.output_path)
        cost = _at(document, target.cost_path) if target.cost_path else None
        if target.latency_from_response:
            latency = float(_at(document, target.latency_from_response))
        config = _at(document, target.config_path) if target.config_path else {}
    except (ValueError, KeyError, TypeError) as error:
        reason = (
            f"the response has no {error.args[0]}"
            if isinstance(error, KeyError)
            else "the response is not JSON"
        )
        return Reply(None, latency, input=body, error=reason, error_kind="shape")
    if (cost is not None and not _number(cost)) or not isinstance(config, dict):
        return Reply(
            None,
            latency,
            input=body,
            error="the response's cost or config is malformed",
            error_kind="shape",
        )
    kind: Literal["text", "structured"] = "text" if isinstance(output, str) else "structured"
    answer = Answer(output, kind, cost_usd=cost, latency_ms=latency)
    return Reply(answer, latency, input=body, config=config)
