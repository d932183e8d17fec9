"""An application behind a URL: post a JSON body built from the case, read the answer back.

As digline's http target reads it: the body is sent as JSON with sorted keys (and recorded as
the answer's input); ``output_path``, ``cost_path``, ``latency_from_response``,
``config_path``, ``tools_path``, ``tool_calls_path`` and ``usage_path`` are dotted paths into
the response. A configuration the application reports is believed only under digline's rules:
the closed set of keys, scalars only, ``provider`` and ``model`` named, ``null`` read as not
sent, ``base_url`` reduced to its host; one that breaks them, or contradicts ``expect_config``,
errors its case.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import urlsplit

from generator.document.json_text import TooDeep, json_value
from generator.suite.checks import Answer
from generator.suite.spec import Case
from generator.suite.target_spec import MISSING, HttpTarget, read_reference
from generator.suite.targets import USAGE_KEYS, Caller, Reply
from generator.suite.trajectory import TrajectoryError, reported

CONFIG_KEYS = frozenset(
    {
        "provider",
        "model",
        "max_tokens",
        "temperature",
        "top_p",
        "top_k",
        "seed",
        "region",
        "base_url",
        "response_format",
        "json_mode",
    }
)
"""What an application may report about how it is set up."""


class _Unreadable(ValueError):
    """The response lacks, or misstates, something the target declares a path to."""


def _at(document: Any, path: str) -> Any:
    """The value at a dotted path (``data.answer``, ``choices.0.text``)."""
    value = document
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise _Unreadable(f"the response has no {path}")
    return value


def _body(template: Any, case: Mapping[str, Any]) -> Any:
    """The body for ``case``: each ``case.`` string in the tables replaced by the case's value.
    An array is posted as written, references and all, as digline posts it."""
    if isinstance(template, dict):
        return {key: _body(item, case) for key, item in template.items()}
    if isinstance(template, str) and template.startswith("case."):
        value = read_reference(case, template.split(".")[1:])
        if value is MISSING:
            raise _Unreadable(f"the case has no {template}, which the body asks for")
        return value
    return template


def http_caller(target: HttpTarget) -> Caller:
    """POST each case's body as JSON and read the answer from the JSON that comes back."""

    def call(case: Case) -> Reply:
        started = time.perf_counter()
        try:
            built = _body(target.body, case.fields())
        except _Unreadable as error:
            return _error(str(error), started, None, "raised")
        body = json.dumps(built, sort_keys=True)
        request = urllib.request.Request(
            target.url,
            data=body.encode("utf-8"),
            headers={"Content-Type": "application/json", **target.headers},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=target.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            return _error(f"the target answered HTTP {error.code}", started, body, "raised")
        except TimeoutError:
            reason = f"the target did not answer within {target.timeout:g} s"
            return _error(reason, started, body, "raised")
        except urllib.error.URLError as error:
            reason = f"the target could not be reached ({error.reason})"
            return _error(reason, started, body, "raised")
        try:
            return _read(target, raw, (time.perf_counter() - started) * 1000, body)
        except (_Unreadable, TrajectoryError) as error:
            return _error(str(error), started, body, "shape")

    return call


def _error(
    reason: str, started: float, body: str | None, kind: Literal["raised", "shape"]
) -> Reply:
    latency = (time.perf_counter() - started) * 1000
    return Reply(None, latency, input=body, error=reason, error_kind=kind)


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise _Unreadable(f"the response's {path} is not a number of at least 0")
    return float(value)


def _read(target: HttpTarget, raw: bytes, latency: float, body: str) -> Reply:
    try:
        document = json_value(raw)
    except TooDeep as error:
        raise _Unreadable(f"the response is JSON {error}") from None
    except ValueError:
        raise _Unreadable("the response is not JSON") from None
    output = _at(document, target.output_path)
    if not isinstance(output, str | dict | list):
        raise _Unreadable(f"the response's {target.output_path} is not an answer")
    cost = _number(_at(document, target.cost_path), target.cost_path) if target.cost_path else None
    if target.latency_from_response:
        path = target.latency_from_response
        latency = _number(_at(document, path), path)
    config = reported_config(_at(document, target.config_path)) if target.config_path else {}
    for key, value in (target.expect_config or {}).items():
        if config.get(key) != value:
            raise _Unreadable(f"the application reported a {key} the suite does not expect")
    trajectory = {}
    if target.tools_path:
        trajectory["tools"] = _at(document, target.tools_path)
    if target.tool_calls_path:
        trajectory["tool_calls"] = _at(document, target.tool_calls_path)
    found = reported(trajectory, by_application=True)
    names = found.names()
    if (
        found.tools is not None
        and found.tool_calls is not None
        and names != tuple(use.tool for use in found.tool_calls)
    ):
        raise _Unreadable("the tools and the tool calls the response reports differ")
    answer = Answer(
        output,
        "text" if isinstance(output, str) else "structured",
        cost_usd=cost,
        latency_ms=latency,
        trajectory=found,
        input=body,
    )
    usage = _usage(_at(document, target.usage_path)) if target.usage_path else None
    return Reply(answer, latency, input=body, usage=usage, config=config)


def reported_config(found: Any) -> dict[str, Any]:
    """A configuration an application reported, under digline's rules, or ``_Unreadable``."""
    if not isinstance(found, dict):
        raise _Unreadable("the reported configuration is not an object")
    if set(found) - CONFIG_KEYS:
        raise _Unreadable(
            f"the reported configuration holds keys outside {', '.join(sorted(CONFIG_KEYS))}"
        )
    if any(not isinstance(v, str | int | float | bool | None) for v in found.values()):
        raise _Unreadable("the reported configuration holds a value that is not a scalar")
    for key in ("provider", "model"):
        if not isinstance(found.get(key), str) or not found[key]:
            raise _Unreadable(f"the reported configuration names no {key}")
    config = {k: v for k, v in found.items() if v is not None}
    if "base_url" in config:
        host = host_of(str(config.pop("base_url")))
        if host:
            config["base_url"] = host
    return config


def host_of(url: str) -> str | None:
    """The host (and port) of ``url``: what a configuration records of where a server is."""
    try:
        parsed = urlsplit(url if "//" in url else f"//{url}")
        name, port = parsed.hostname, parsed.port
    except ValueError:
        return None
    if not name or not all(c.isalnum() or c in "._-[]:%" for c in name):
        return None
    return f"{name}:{port}" if port else name


def _usage(found: Any) -> dict[str, int]:
    if not isinstance(found, dict) or set(found) - USAGE_KEYS:
        raise _Unreadable(f"the reported usage is not an object of {', '.join(sorted(USAGE_KEYS))}")
    if not {"input_tokens", "output_tokens"} <= set(found) or any(
        isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in found.values()
    ):
        raise _Unreadable("the reported usage gives no whole input_tokens and output_tokens")
    return {k: n for k, n in found.items() if n or k in ("input_tokens", "output_tokens")}
