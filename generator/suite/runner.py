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
from generator.suite.aggregates import CaseOutcome
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
    target_config: dict[str, Any]
    judge_config: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    artifacts: dict[str, str] = field(default_factory=dict)
    """Path → text of each file under test."""


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

    def add(self, reply: Reply) -> None:
        self.calls += 1
        if reply.config and not self.config:
            self.config = {
                k: v for k, v in reply.config.items() if isinstance(v, str | int | float | bool)
            }
        cost = reply.answer.cost_usd if reply.answer else None
        if cost is None:
            self.costs_known = False
        else:
            self.spent_usd += cost
        if reply.usage:
            self.counted += 1
            for key, count in reply.usage.items():
                self.tokens[key] = self.tokens.get(key, 0) + count

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
    rules = [*suite.checks, *suite.aggregates]
    ids = {rule.label: assertion_id(rule) for rule in rules}
    tally, counted = _Tally(), _CountedJudges(judges)
    results = []
    for case in suite.cases:
        results.append(
            _measure(suite, case, call, counted, ids, tally if rejudged_from is None else _Tally())
        )
        if progress:
            progress()
    doc: dict[str, Any] = {
        "schema_version": SCHEMA,
        "tenant": suite.tenant,
        "environment": suite.environment,
        "suite": suite.name,
        "config_hash": config_hash(rules, suite.samples, suite.needed),
        "created_at": setting.created_at,
        "git_commit": setting.git_commit,
        "redacted": False,
        "projected": False,
        "metadata": dict(setting.metadata),
        "results": results,
        "aggregate": [_aggregate(rule, results, suite.cases, ids) for rule in suite.aggregates],
        "artifacts": {
            path: {"sha": hashlib.sha256(text.encode("utf-8")).hexdigest(), "text": text}
            for path, text in sorted(setting.artifacts.items())
        },
        "target_config": _reported(setting.target_config, tally.config),
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
    if rejudged_from is not None:
        doc["rejudged_from"] = rejudged_from
    return validate(Run, doc)


def _measure(
    suite: Suite,
    case: Case,
    call: Caller,
    judges: Mapping[str, Judge],
    ids: Mapping[str, str],
    tally: _Tally,
) -> dict[str, Any]:
    if case.suspended is not None:
        return {
            "case_id": case.id,
            "suspended": True,
            "suspended_reason": case.suspended,
            "verdicts": [],
        }
    replies = [call(case) for _ in range(suite.samples)]
    for reply in replies:
        tally.add(reply)
    mapping = case.as_mapping()
    verdicts = []
    for check in suite.checks:
        judgements = [
            check.judge(reply.answer, mapping, judges)
            if reply.answer
            else Judgement.error(reply.error or "")
            for reply in replies
        ]
        verdicts.append(verdict_of(check, ids[check.label], judgements, suite.needed))
    result: dict[str, Any] = {"case_id": case.id, "suspended": False, "verdicts": verdicts}
    kinds = {reply.error_kind for reply in replies}
    if None not in kinds:
        result["error_kind"] = sorted(k for k in kinds if k)[0]
    if suite.record_responses:
        result["responses"] = [_recorded(reply) for reply in replies]
    return result


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
    rule: Any, results: Sequence[Mapping[str, Any]], cases: Sequence[Case], ids: Mapping[str, str]
) -> dict[str, Any]:
    outcomes = []
    for case, result in zip(cases, results, strict=True):
        status = next(
            (v["status"] for v in result["verdicts"] if v["assertion"] == rule.over), None
        )
        outcomes.append(CaseOutcome(case.label, result["suspended"], status))
    return verdict_of(rule, ids[rule.label], [rule.judge(outcomes)], 1)


def _reported(declared: dict[str, Any], reported: dict[str, Any]) -> dict[str, Any]:
    """The target's configuration: what the suite declares, with what the target said over it."""
    if not reported:
        return declared
    return declared | {"values": {**declared.get("values", {}), **reported}}


def nothing_judged(run: Run) -> bool:
    """True when no verdict of the run has a score: exit 2 for ``runsite run``."""
    verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
    return all(v.status == "error" for v in verdicts)
