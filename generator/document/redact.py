"""``redact``: the one way from a run to what may be published.

Built by allow-list: each kept key is named here, so a key added to the run model later stays
inside the perimeter until someone decides, in this file, that it travels. Redacting a redacted
run narrows it to what both disclosures release, so redacting twice changes nothing and a second
redaction never widens the first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.document.model import SCHEMA, Artifact, CaseResult, Run
from generator.document.record import ConfigParts, RunHeader, VerdictNumbers, published_settings
from generator.document.redacted import NOTHING, Disclosure, RedactedArtifact, RedactedRun
from generator.document.trajectory import ModelStep, RecordedResponse, ToolCall

Labeller = Callable[[str | None], str | None]

_RUN_KEYS = tuple(RunHeader.model_fields)
_VERDICT_KEYS = tuple(key for key in VerdictNumbers.model_fields if key != "metadata")
_CASE_KEYS = ("case_id", "suspended", "canary", "calibration", "error_kind")
_RESPONSE_KEYS = ("oversize", "kind", "cost_usd", "latency_ms", "usage", "finish")


def redact(run: Run | RedactedRun, disclosure: Disclosure = NOTHING) -> RedactedRun:
    """The publishable projection of ``run`` under ``disclosure``."""
    if isinstance(run, RedactedRun):
        disclosure = run.disclosure.meet(disclosure)
        cases: list[dict[str, Any]] = [
            _narrow_case(c.model_dump(), disclosure) for c in run.results
        ]
    else:
        cases = [_case(case, disclosure) for case in run.results]
    doc = {
        **_kept(run, _RUN_KEYS),
        "schema_version": SCHEMA,
        "disclosure": disclosure,
        "metadata": {k: v for k, v in run.metadata.items() if k in disclosure.run_metadata},
        "results": cases,
        "aggregate": [_verdict(v, disclosure) for v in run.aggregate],
        "artifacts": {
            path: _artifact(artifact, path in disclosure.artifacts)
            for path, artifact in run.artifacts.items()
        },
        "target_config": _config(run.target_config),
        "judge_config": _config(run.judge_config),
    }
    return RedactedRun.model_validate(doc)


def _kept(record: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """The named keys of ``record`` that it carries (absent stays absent)."""
    return {
        key: value
        for key in keys
        if (value := getattr(record, key)) is not None or key in record.written_null
    }


def _verdict(verdict: VerdictNumbers, disclosure: Disclosure) -> dict[str, Any]:
    metadata = {
        key: value for key, value in verdict.metadata.items() if disclosure.releases(key, value)
    }
    return {**_kept(verdict, _VERDICT_KEYS), "metadata": metadata}


def _artifact(artifact: Artifact | RedactedArtifact, disclosed: bool) -> dict[str, Any]:
    if disclosed and artifact.text is not None:
        return {"sha": artifact.sha, "text": artifact.text}
    return {"withheld": True}


def _config(config: ConfigParts) -> dict[str, Any]:
    """Identities, the values of known settings, and the names of every other setting."""
    kept = config.model_dump(include={"identities", "values", "withheld"}, exclude_none=True)
    values = config.values
    if values is not None:
        shown = published_settings(values)
        kept["values"] = {k: v for k, v in values.items() if k in shown}
        hidden = values.keys() - shown
        if hidden:
            kept["withheld"] = sorted(set(config.withheld or ()) | hidden)
    return kept


def _labeller(disclosure: Disclosure) -> Labeller:
    """Tool labels for one case: the name where disclosed, else ``tool #N`` by first appearance."""
    order: dict[str, int] = {}

    def label(name: str | None) -> str | None:
        if name is None:
            return None
        number = order.setdefault(name, len(order) + 1)
        return name if disclosure.discloses_tool(name) else f"tool #{number}"

    return label


def _case(case: CaseResult, disclosure: Disclosure) -> dict[str, Any]:
    kept = _kept(case, _CASE_KEYS)
    kept["verdicts"] = [_verdict(v, disclosure) for v in case.verdicts]
    if case.responses is not None:
        label = _labeller(disclosure)
        kept["responses"] = [_response(r, label) for r in case.responses]
    return kept


def _response(response: RecordedResponse, label: Labeller) -> dict[str, Any]:
    kept = _kept(response, _RESPONSE_KEYS)
    if response.steps is not None:
        kept["steps"] = [
            {"index": s.index, "actor": "model", **({"finish": s.finish} if s.finish else {})}
            if isinstance(s, ModelStep)
            else {"index": s.index, "actor": "tool", **_call(s.call, label)}
            for s in response.steps
        ]
    if response.tool_calls is not None:
        kept["tool_calls"] = [_call(call, label) for call in response.tool_calls]
    if response.tools is not None:
        kept["tools"] = [label(name) for name in response.tools]
    return kept


def _call(call: ToolCall, label: Labeller) -> dict[str, Any]:
    named = label(call.tool)
    return {"status": call.outcome, **({"tool": named} if named else {})}


def _narrow_case(case: dict[str, Any], disclosure: Disclosure) -> dict[str, Any]:
    """A redacted case (as a mapping) narrowed to ``disclosure``."""
    for verdict in case["verdicts"]:
        verdict["metadata"] = {
            key: value
            for key, value in verdict["metadata"].items()
            if disclosure.releases(key, value)
        }
    label = _labeller(disclosure)
    for response in case.get("responses") or ():
        for item in [*(response.get("steps") or ()), *(response.get("tool_calls") or ())]:
            if item.get("tool"):
                item["tool"] = label(item["tool"])
        if response.get("tools") is not None:
            response["tools"] = [label(name) for name in response["tools"]]
    return case
