"""What a run page shows of each check and each case: counts, verdicts, and the skeleton of
every recorded trajectory (step, actor, a model step's finish, a tool step's outcome)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.document.redacted import RedactedCase, RedactedResponse, RedactedRun, RedactedVerdict
from generator.site.charts import number


def tally(run: RedactedRun) -> tuple[int, int, int]:
    """How many verdicts of the run passed, failed, and could not be judged."""
    verdicts = [v for case in run.results for v in case.verdicts] + list(run.aggregate)
    return (
        sum(v.status == "pass" for v in verdicts),
        sum(v.status == "fail" for v in verdicts),
        sum(v.status == "error" for v in verdicts),
    )


def check_rows(run: RedactedRun) -> list[dict[str, Any]]:
    """One row per check: how its verdicts went across the cases, and its mean score."""
    named: dict[str, list[RedactedVerdict]] = {}
    for verdict in [v for case in run.results for v in case.verdicts] + list(run.aggregate):
        named.setdefault(verdict.assertion, []).append(verdict)
    rows = []
    for name, verdicts in named.items():
        scores = [v.score for v in verdicts if v.score is not None]
        rows.append(
            {
                "name": name,
                "passed": sum(v.status == "pass" for v in verdicts),
                "failed": sum(v.status == "fail" for v in verdicts),
                "errored": sum(v.status == "error" for v in verdicts),
                "score": number(sum(scores) / len(scores)) if scores else "",
                "threshold": number(verdicts[0].threshold),
                "tolerance": number(verdicts[0].tolerance),
            }
        )
    return rows


def _verdict_row(verdict: RedactedVerdict) -> dict[str, Any]:
    interval = ""
    if verdict.sample_min is not None and verdict.samples is not None:
        interval = (
            f"{number(verdict.sample_min)}–{number(verdict.sample_max)} ({len(verdict.samples)})"
        )
    return {
        "name": verdict.assertion,
        "status": verdict.status,
        "score": number(verdict.score),
        "threshold": number(verdict.threshold),
        "interval": interval,
    }


def _answer(response: RedactedResponse, n: int, t: Mapping[str, str]) -> dict[str, Any]:
    facts = []
    if response.latency_ms is not None:
        facts.append(f"{response.latency_ms:.1f} ms")
    if response.cost_usd is not None:
        facts.append(f"{number(response.cost_usd)} USD")
    if response.usage is not None:
        facts.append(f"{response.usage.input_tokens} + {response.usage.output_tokens} tokens")
    if response.steps is not None:
        facts.append(t["step.count"].format(steps=len(response.steps)))
    steps = [
        {
            "actor": step.actor,
            "actor_label": t[f"step.{step.actor}"],
            "text": t["step.finish"].format(finish=step.finish)
            if step.actor == "model" and step.finish
            else ""
            if step.actor == "model"
            else f"{step.tool or t['step.unnamed']} · {t['trajectory.status.' + (step.status or 'success')]}",
            "failed": step.status == "error",
        }
        for step in response.steps or ()
    ]
    if not steps and response.tool_calls:
        steps = [
            {
                "actor": "tool",
                "actor_label": t["step.tool"],
                "text": f"{call.tool or t['step.unnamed']} · {t['trajectory.status.' + call.status]}",
                "failed": call.status == "error",
            }
            for call in response.tool_calls
        ]
    note = t["step.oversize"] if response.oversize else t["step.none"]
    return {
        "title": t["case.answer"].format(n=n),
        "facts": " · ".join(facts),
        "steps": steps,
        "note": note,
    }


def _case(case: RedactedCase, t: Mapping[str, str]) -> dict[str, Any]:
    statuses = [v.status for v in case.verdicts]
    summary = (
        t["status.suspended"]
        if case.suspended
        else t["summary.counts"].format(
            passed=statuses.count("pass"),
            failed=statuses.count("fail"),
            errored=statuses.count("error"),
        )
    )
    responses = case.responses or []
    traced = [r for r in responses if r.steps is not None or r.tool_calls is not None or r.oversize]
    return {
        "case_id": case.case_id,
        "suspended": case.suspended,
        "open": any(status != "pass" for status in statuses),
        "summary": summary,
        "verdicts": [_verdict_row(v) for v in case.verdicts],
        "answers": [_answer(r, n, t) for n, r in enumerate(responses, 1) if r in traced],
    }


def case_views(run: RedactedRun, t: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every case of the run, as the run page lists them."""
    return [_case(case, t) for case in run.results]
