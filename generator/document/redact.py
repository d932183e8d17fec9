"""``redact``: the one way from a run to what may be published.

Built by allow-list: each kept key is named here, so a key added to the run model later stays
inside the perimeter until someone decides, in this file, that it travels. Redacting a redacted
run narrows it to what both disclosures release, so redacting twice changes nothing and a second
redaction never widens the first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.document.disclosure import NOTHING, Disclosure, all_travel
from generator.document.model import SCHEMA, Artifact, CaseResult, Run
from generator.document.record import ConfigParts, RunHeader, VerdictNumbers, published_settings
from generator.document.redacted import RedactedArtifact, RedactedCall, RedactedRun, RedactedStep
from generator.document.trajectory import ModelStep, RecordedResponse, ToolCall, ToolStep

Labeller = Callable[[str | None], str | None]

_RUN_KEYS = tuple(RunHeader.model_fields)
_VERDICT_KEYS = tuple(key for key in VerdictNumbers.model_fields if key != "metadata")
_CASE_KEYS = ("case_id", "suspended", "canary", "calibration", "error_kind")
_RESPONSE_KEYS = ("oversize", "kind", "cost_usd", "latency_ms", "usage", "finish")


def redact(run: Run | RedactedRun, disclosure: Disclosure = NOTHING) -> RedactedRun:
    """The publishable projection of ``run`` under ``disclosure``."""
    if isinstance(run, RedactedRun):
        disclosure = run.disclosure.meet(disclosure)
        label = _labeller(disclosure)
        cases: list[dict[str, Any]] = [
            _narrow_case(c.model_dump(), disclosure, label) for c in run.results
        ]
    else:
        skeletons, label = _Skeletons(), _labeller(disclosure)
        cases = [_case(case, disclosure, skeletons, label) for case in run.results]
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
    withheld = _withheld(run, disclosure)
    if withheld is not None:
        doc["withheld"] = withheld
    return RedactedRun.model_validate(doc)


def _withheld(run: Run | RedactedRun, disclosure: Disclosure) -> dict[str, int] | None:
    """How much payload is taken out, counted: a redacted run narrowed adds the run metadata
    it drops to what was counted when it was made (unknown if that was not counted)."""
    dropped = sum(1 for key in run.metadata if key not in disclosure.run_metadata)
    if isinstance(run, RedactedRun):
        if run.withheld is None:
            return None
        return {**run.withheld.model_dump(), "run_metadata": run.withheld.run_metadata + dropped}
    verdicts = [*(v for case in run.results for v in case.verdicts), *run.aggregate]
    return {
        "reasons": sum(1 for v in verdicts if v.reason is not None),
        "set_aside": sum(1 for case in run.results if case.suspended_reason is not None),
        "run_metadata": dropped,
    }


def _kept(record: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """The named keys of ``record`` that it carries (absent stays absent)."""
    fields, written = record.__dict__, record.written_null
    return {key: value for key in keys if (value := fields[key]) is not None or key in written}


def _verdict(verdict: VerdictNumbers, disclosure: Disclosure) -> dict[str, Any]:
    metadata = verdict.metadata
    if not all_travel(metadata.values()):
        metadata = {
            key: value for key, value in metadata.items() if disclosure.releases(key, value)
        }
    kept = _kept(verdict, _VERDICT_KEYS)
    kept["metadata"] = metadata
    return kept


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
    """Tool labels for one run: the name where disclosed, else ``tool #N`` by first appearance
    in the run, so a tool is the same number in every case and trajectory of its run."""
    order: dict[str, str] = {}

    def label(name: str | None) -> str | None:
        if name is None:
            return None
        found = order.get(name)
        if found is None:
            shown = disclosure.discloses_tool(name)
            found = order[name] = name if shown else f"tool #{len(order) + 1}"
        return found

    return label


class _Skeletons:
    """The steps and calls of one run's trajectories, each distinct one made (and checked) once:
    a run's answers mostly walk the same few steps, and a step is a frozen value, so hundreds of
    its steps can share a handful of records."""

    def __init__(self) -> None:
        self._steps: dict[tuple[object, ...], RedactedStep] = {}
        self._calls: dict[tuple[str | None, str], RedactedCall] = {}

    def step(self, step: ModelStep | ToolStep, label: Labeller) -> RedactedStep:
        if isinstance(step, ModelStep):
            key: tuple[object, ...] = (step.index, step.finish)
        else:
            key = (step.index, label(step.call.tool), step.call.outcome)
        made = self._steps.get(key)
        if made is None:
            if isinstance(step, ModelStep):
                fields: dict[str, object] = {"index": step.index, "actor": "model"}
                fields |= {"finish": step.finish} if step.finish else {}
            else:
                fields = {"index": step.index, "actor": "tool", "status": key[2]}
                fields |= {"tool": key[1]} if key[1] is not None else {}
            made = self._steps[key] = RedactedStep.model_validate(fields)
        return made

    def call(self, call: ToolCall, label: Labeller) -> RedactedCall:
        key = (label(call.tool), call.outcome)
        made = self._calls.get(key)
        if made is None:
            fields = {"status": key[1], **({"tool": key[0]} if key[0] else {})}
            made = self._calls[key] = RedactedCall.model_validate(fields)
        return made


def _case(
    case: CaseResult, disclosure: Disclosure, skeletons: _Skeletons, label: Labeller
) -> dict[str, Any]:
    kept = _kept(case, _CASE_KEYS)
    kept["verdicts"] = [_verdict(v, disclosure) for v in case.verdicts]
    if case.responses is not None:
        kept["responses"] = [_response(r, label, skeletons) for r in case.responses]
    return kept


def _response(response: RecordedResponse, label: Labeller, skeletons: _Skeletons) -> dict[str, Any]:
    kept = _kept(response, _RESPONSE_KEYS)
    if response.steps is not None:
        kept["steps"] = [skeletons.step(step, label) for step in response.steps]
    if response.tool_calls is not None:
        kept["tool_calls"] = [skeletons.call(call, label) for call in response.tool_calls]
    if response.tools is not None:
        kept["tools"] = [label(name) if name else None for name in response.tools]
    return kept


def _narrow_case(case: dict[str, Any], disclosure: Disclosure, label: Labeller) -> dict[str, Any]:
    """A redacted case (as a mapping) narrowed to ``disclosure``, its tools labelled by the
    run's ``label``."""
    for verdict in case["verdicts"]:
        verdict["metadata"] = {
            key: value
            for key, value in verdict["metadata"].items()
            if disclosure.releases(key, value)
        }
    for response in case.get("responses") or ():
        for item in [*(response.get("steps") or ()), *(response.get("tool_calls") or ())]:
            if item.get("tool"):
                item["tool"] = label(item["tool"])
        if response.get("tools") is not None:
            response["tools"] = [label(name) if name else None for name in response["tools"]]
    return case
