"""Running a suite: ask the target for every case and sample, judge, and build the run document.

The runner reads no clock and no repository: the host passes the moment the run started, the
commit, the run metadata and the artifacts as values, so the same inputs make the same document.
The document is validated before it is returned, so a run that runsite writes is always one
that runsite reads back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.document.codec import compact, validate
from generator.document.model import SCHEMA, Run
from generator.document.numbers import at_precision
from generator.suite.aggregates import Aggregate, CaseOutcome
from generator.suite.checks import Judge, Judgement
from generator.suite.identity import assertion_id, config_hash
from generator.suite.sampling import verdict_of
from generator.suite.spec import Case, Suite
from generator.suite.targets import Caller, Reply
from generator.suite.trajectory import recorded_form

RECORDING_CEILING = 65_536
"""Characters an output or input may have and still be recorded; past it, neither is."""


@dataclass(frozen=True)
class Setting:
    """What the host knows about the run before it starts."""

    created_at: str
    git_commit: str | None
    judge_config: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    artifacts: dict[str, str] = field(default_factory=dict)
    """Path → text of each file under test."""
    pricing: str = ""
    """The digest of the price the target declares, or empty."""
    target_config: dict[str, Any] | None = None
    """The configuration to record instead of what the target reports (a replay's)."""


@dataclass
class _Tally:
    """What the run cost, counted as calls are made."""

    calls: int = 0
    counted: int = 0
    spent_usd: float = 0.0
    costs_known: bool = True
    tokens: dict[str, int] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    """The first configuration a reply reported (an http target's ``config_path``)."""

    def add(self, reply: Reply) -> Reply:
        """Count ``reply``; one that reports another configuration than the first errors, since
        one run measures one system."""
        self.calls += 1
        if reply.config and not self.config:
            self.config = dict(reply.config)
        elif reply.config and reply.config != self.config:
            reply = Reply(
                None,
                reply.latency_ms,
                input=reply.input,
                usage=reply.usage,
                error="the target answered under another configuration part way through the run",
                error_kind="raised",
            )
        cost = reply.answer.cost_usd if reply.answer else None
        if cost is None:
            self.costs_known = False
        else:
            self.spent_usd += cost
        if reply.usage:
            self.counted += 1
            for key, count in reply.usage.items():
                self.tokens[key] = self.tokens.get(key, 0) + count
        return reply

    def totals(self) -> dict[str, Any]:
        totals: dict[str, Any] = {
            "calls": self.calls,
            "counted": self.counted,
            "spent_usd": at_precision(self.spent_usd),
            "every_call_seen": True,
            "every_cost_known": self.costs_known,
        }
        if self.counted:
            totals["tokens"] = {
                k: v for k, v in sorted(self.tokens.items()) if v or k.endswith("put_tokens")
            }
        return totals


class _CountedJudges(dict[str, Judge]):
    """The suite's judge functions, each call counted for the run's bill."""

    def __init__(self, judges: Mapping[str, Judge]) -> None:
        self.calls = 0
        super().__init__({ref: self._counted(judge) for ref, judge in judges.items()})

    def _counted(self, judge: Judge) -> Judge:
        def call(**arguments: Any) -> Any:
            self.calls += 1
            return judge(**arguments)

        return call


def run_suite(
    suite: Suite,
    call: Caller,
    judges: Mapping[str, Judge],
    setting: Setting,
    progress: Callable[[], None] | None = None,
    rejudged_from: str | None = None,
) -> Run:
    """Measure every case of ``suite`` against the target ``call`` and return the run.

    A replay passes the key of the run whose recorded answers ``call`` hands back; the target
    is then never called, and the run's bill counts no target call.
    """
    instruments = {reference: type(judge).__name__ for reference, judge in judges.items()}
    check_ids = [assertion_id(check, instruments) for check in suite.checks]
    aggregate_ids = [assertion_id(rule, instruments) for rule in suite.aggregates]
    tally, counted = _Tally(), _CountedJudges(judges)
    results = []
    for case in suite.cases:
        measured = tally if rejudged_from is None else _Tally()
        results.append(_measure(suite, case, call, counted, check_ids, measured))
        if progress:
            progress()
    doc: dict[str, Any] = {
        "schema_version": SCHEMA,
        "tenant": suite.tenant,
        "environment": suite.environment,
        "suite": suite.name,
        "config_hash": config_hash(
            list(zip(suite.checks, check_ids, strict=True)),
            list(zip(suite.aggregates, aggregate_ids, strict=True)),
            suite.samples,
            suite.agreement,
            setting.pricing,
        ),
        "created_at": setting.created_at,
        "git_commit": setting.git_commit,
        "redacted": False,
        "projected": False,
        "metadata": dict(setting.metadata),
        "results": results,
        "aggregate": [
            _aggregate(suite, rule, identity, results, check_ids)
            for rule, identity in zip(suite.aggregates, aggregate_ids, strict=True)
        ],
        "artifacts": {
            path: {"sha": hashlib.sha256(text.encode("utf-8")).hexdigest(), "text": text}
            for path, text in sorted(setting.artifacts.items())
        },
        "target_config": _config(
            tally.config if setting.target_config is None else setting.target_config
        ),
        "judge_config": setting.judge_config,
        "usage": {
            "target": tally.totals(),
            "judge": {
                "calls": counted.calls,
                "counted": 0,
                "spent_usd": 0.0,
                "every_call_seen": True,
            }
            | ({"every_cost_known": False} if counted.calls else {}),
        },
    }
    if suite.pinned:
        doc["pinned"] = list(suite.pinned)
    if rejudged_from is not None:
        doc["rejudged_from"] = rejudged_from
    return validate(Run, doc)


def _measure(
    suite: Suite,
    case: Case,
    call: Caller,
    judges: Mapping[str, Judge],
    ids: Sequence[str],
    tally: _Tally,
) -> dict[str, Any]:
    canary = {"canary": True} if case.canary else {}
    if case.suspended is not None:
        return {
            "case_id": case.id,
            "suspended": True,
            "suspended_reason": case.suspended,
            "verdicts": [],
        } | canary
    replies = [tally.add(call(case)) for _ in range(suite.samples)]
    mapping = case.as_mapping()
    verdicts = []
    for check, identity in zip(suite.checks, ids, strict=True):
        judgements = [
            check.judge(reply.answer, mapping, judges)
            if reply.answer
            else Judgement.error(reply.error or "")
            for reply in replies
        ]
        verdicts.append(verdict_of(check, identity, judgements, suite.agreement or 1.0))
    result: dict[str, Any] = {"case_id": case.id, "suspended": False, "verdicts": verdicts}
    kinds = {reply.error_kind for reply in replies}
    if None not in kinds:
        result["error_kind"] = sorted(k for k in kinds if k)[0]
    if suite.record_responses:
        result["responses"] = [_recorded(reply) for reply in replies]
    return result | canary


def _recorded(reply: Reply) -> dict[str, Any]:
    """One reply as the document records it: whole, or marked oversize with its numbers only.

    The ceiling applies to the output, the input and the trajectory (counted once, on its
    steps where there are steps); over it, none of them is recorded, since a clipped answer or
    trajectory judged again would look complete.
    """
    recorded: dict[str, Any] = {"latency_ms": at_precision(reply.latency_ms)}
    if reply.usage:
        recorded["usage"] = reply.usage
    answer = reply.answer
    if answer is None:
        return recorded
    if answer.cost_usd is not None:
        recorded["cost_usd"] = answer.cost_usd
    output = answer.output if isinstance(answer.output, str) else compact(answer.output)
    trajectory = recorded_form(answer.trajectory)
    counted = trajectory.get("steps", trajectory.get("tool_calls", []))
    sizes = (len(output), len(reply.input or ""), len(compact(counted)))
    if max(sizes) > RECORDING_CEILING:
        return recorded | {"oversize": True}
    texts = {"output": output, "kind": answer.kind} | (
        {"input": reply.input} if reply.input else {}
    )
    return recorded | texts | trajectory


def _aggregate(
    suite: Suite,
    rule: Aggregate,
    identity: str,
    results: Sequence[Mapping[str, Any]],
    check_ids: Sequence[str],
) -> dict[str, Any]:
    """The aggregate's verdict over its cases: every case, or its group's."""
    over = check_ids[next(n for n, c in enumerate(suite.checks) if c.label == rule.over)]
    outcomes = []
    for case, result in zip(suite.cases, results, strict=True):
        if rule.group is not None and case.group != rule.group:
            continue
        verdict = next((v for v in result["verdicts"] if v["assertion_id"] == over), None)
        outcomes.append(
            CaseOutcome(
                case.label,
                result["suspended"],
                verdict["status"] if verdict else None,
                case.canary,
                tuple(verdict.get("samples", ())) if verdict else (),
                verdict["threshold"] if verdict else 1.0,
            )
        )
    return verdict_of(rule, identity, [rule.judge(outcomes)], 1.0)


def _config(reported: dict[str, Any]) -> dict[str, Any]:
    """The target's configuration as the document records it: what the target reported."""
    return {"values": dict(sorted(reported.items()))} if reported else {}


def nothing_judged(run: Run) -> bool:
    """True when no verdict of the run has a score: exit 2 for ``runsite run``."""
    verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
    return all(v.status == "error" for v in verdicts)
