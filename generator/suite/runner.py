"""Running a suite: ask the target for every case and sample, judge, and build the run document.

The runner reads no clock and no repository: the host passes the moment the run started, the
commit, the run metadata and the artifacts as values, so the same inputs make the same document.
The document is validated before it is returned, so a run that runsite writes is always one
that runsite reads back.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
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
from generator.suite.targets import Caller, Reply, amount, token_counts
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
class _Bill:
    """One line of the run's bill (the target's or the judges'), counted as calls are made."""

    calls: int = 0
    counted: int = 0
    spent_usd: float = 0.0
    costs_known: bool = True
    tokens: dict[str, int] = field(default_factory=dict)

    def add(self, usage: Mapping[str, int] | None, cost: float | None) -> None:
        """One call: its token counts where it reported them, its cost where it is known."""
        self.calls += 1
        if cost is None:
            self.costs_known = False
        else:
            self.spent_usd += cost
        if usage:
            self.counted += 1
            for key, count in usage.items():
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


@dataclass
class _Tally(_Bill):
    """The target's line, and the configuration its answers were given under."""

    config: dict[str, Any] = field(default_factory=dict)
    """The configuration the first answer reported (an http target's ``config_path``, a
    provider's settings and the model its API said answered)."""
    declared: dict[str, Any] = field(default_factory=dict)
    """The first configuration any reply reported, an error's included: recorded when no
    answer came."""

    def count(self, reply: Reply) -> Reply:
        """Count ``reply``; an answer under another configuration than the first answer's
        errors, since one run measures one system."""
        self.declared = self.declared or dict(reply.config)
        if reply.config and reply.answer is not None:
            if not self.config:
                self.config = dict(reply.config)
            elif reply.config != self.config:
                reply = Reply(
                    None,
                    reply.latency_ms,
                    input=reply.input,
                    usage=reply.usage,
                    error="the target answered under another configuration part way through "
                    "the run",
                    error_kind="raised",
                )
        self.add(reply.usage, reply.answer.cost_usd if reply.answer else None)
        return reply


class _CountedJudges(dict[str, Judge]):
    """The suite's judges, each call counted on the judges' line of the bill, with the usage
    and cost a judge's reply reports. Judges may be called from several threads at once."""

    def __init__(self, judges: Mapping[str, Judge]) -> None:
        self.bill = _Bill()
        self._lock = threading.Lock()
        super().__init__({ref: self._counted(judge) for ref, judge in judges.items()})

    def _counted(self, judge: Judge) -> Judge:
        def call(**arguments: Any) -> Any:
            try:
                reply = judge(**arguments)
            except Exception:
                self._add(None, None)
                raise
            if isinstance(reply, Mapping):
                cost = reply.get("cost_usd")
                self._add(token_counts(reply.get("usage")), cost if amount(cost) else None)
            else:
                self._add(None, None)
            return reply

        return call

    def _add(self, usage: dict[str, int] | None, cost: float | None) -> None:
        with self._lock:
            self.bill.add(usage, cost)


def run_suite(
    suite: Suite,
    call: Caller,
    judges: Mapping[str, Judge],
    setting: Setting,
    progress: Callable[[], None] | None = None,
    rejudged_from: str | None = None,
    concurrency: int = 1,
) -> Run:
    """Measure every case of ``suite`` against the target ``call`` and return the run.

    A replay passes the key of the run whose recorded answers ``call`` hands back; the target
    is then never called, and the run's bill counts no target call. Up to ``concurrency``
    calls, of the target or of a judge, are made at once.
    """
    instruments = {reference: type(judge).__name__ for reference, judge in judges.items()}
    check_ids = [assertion_id(check, instruments) for check in suite.checks]
    aggregate_ids = [assertion_id(rule, instruments) for rule in suite.aggregates]
    tally, counted = _Tally(), _CountedJudges(judges)
    results = _measured(
        suite,
        call,
        counted,
        check_ids,
        tally if rejudged_from is None else None,
        progress,
        concurrency,
    )
    judging = counted.bill.totals()
    if not counted.bill.calls:
        del judging["every_cost_known"]
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
            (tally.config or tally.declared)
            if setting.target_config is None
            else setting.target_config
        ),
        "judge_config": setting.judge_config,
        "usage": {"target": tally.totals(), "judge": judging},
    }
    if suite.pinned:
        doc["pinned"] = list(suite.pinned)
    if rejudged_from is not None:
        doc["rejudged_from"] = rejudged_from
    return validate(Run, doc)


def _measured(
    suite: Suite,
    call: Caller,
    judges: Mapping[str, Judge],
    ids: Sequence[str],
    tally: _Tally | None,
    progress: Callable[[], None] | None,
    concurrency: int,
) -> list[dict[str, Any]]:
    """Every case's result, in the suite's order.

    The calls run on a pool of ``concurrency`` threads, but the replies are counted in the
    suite's order, case by case and sample by sample, before any of them is judged: the same
    answers make the same document however the calls interleaved, and the first answer that
    sets the run's configuration is the first case's. A replay counts nothing (no ``tally``).
    """
    pool = ThreadPoolExecutor(max_workers=concurrency)
    try:
        asked = [
            [pool.submit(call, case) for _ in range(suite.samples)]
            if case.suspended is None
            else []
            for case in suite.cases
        ]
        judged = []
        for case, futures in zip(suite.cases, asked, strict=True):
            replies = [future.result() for future in futures]
            counted = [tally.count(reply) for reply in replies] if tally else replies
            judged.append(pool.submit(_result, suite, case, counted, judges, ids))
        results = []
        for future in judged:
            results.append(future.result())
            if progress:
                progress()
        return results
    finally:
        # An interrupted run stops asking: the calls not yet started are cancelled, so a
        # Ctrl-C waits for the calls in flight only, not for the rest of a paid run.
        pool.shutdown(cancel_futures=True)


def _result(
    suite: Suite,
    case: Case,
    replies: Sequence[Reply],
    judges: Mapping[str, Judge],
    ids: Sequence[str],
) -> dict[str, Any]:
    """One case's result from its replies: judged by every check, or set aside."""
    canary = {"canary": True} if case.canary else {}
    if case.suspended is not None:
        return {
            "case_id": case.id,
            "suspended": True,
            "suspended_reason": case.suspended,
            "verdicts": [],
        } | canary
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


UNREACHED = re.compile(
    r"(the judge gave no reply: )?the (API|target) (could not be reached|did not answer within) "
)
"""The reason of a verdict whose target or judge gave no reply, in runsite's own words
(``providers.sdk``, ``http_target``): never what a target or a judge said."""


def unreached(run: Run) -> str | None:
    """The first reason a target or a judge of ``run`` could not be reached, for the terminal;
    any other reason may carry what a target said, and stays in the document."""
    verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
    return next(
        (
            v.reason
            for v in verdicts
            if v.status == "error" and v.reason and UNREACHED.match(v.reason)
        ),
        None,
    )


def nothing_judged(run: Run) -> bool:
    """True when no verdict of the run has a score: exit 2 for ``runsite run``."""
    verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
    return all(v.status == "error" for v in verdicts)
