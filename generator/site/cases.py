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


def _steps(
    response: RedactedResponse, t: Mapping[str, str]
) -> tuple[tuple[str, str, str, bool], ...]:
    """An answer's skeleton: (actor, actor label, text, failed) per step; tool calls stand in
    for steps in a document recorded before steps existed."""
    if response.steps is not None:
        return tuple(
            (
                step.actor,
                t[f"step.{step.actor}"],
                (t["step.finish"].format(finish=step.finish) if step.finish else "")
                if step.actor == "model"
                else f"{step.tool or t['step.unnamed']} · {t['trajectory.status.' + (step.status or 'success')]}",
                step.status == "error",
            )
            for step in response.steps
        )
    return tuple(
        (
            "tool",
            t["step.tool"],
            f"{call.tool or t['step.unnamed']} · {t['trajectory.status.' + call.status]}",
            call.status == "error",
        )
        for call in response.tool_calls or ()
    )


def _trajectories(case: RedactedCase, t: Mapping[str, str]) -> list[dict[str, Any]]:
    """The case's answers grouped by skeleton: samples that took the same steps are shown once."""
    groups: dict[tuple[tuple[str, str, str, bool], ...], list[int]] = {}
    oversize = []
    for n, response in enumerate(case.responses or (), 1):
        if response.oversize:
            oversize.append(n)
        elif response.steps is not None or response.tool_calls is not None:
            groups.setdefault(_steps(response, t), []).append(n)
    shown = [
        {
            "answers": t["case.answers"].format(numbers=", ".join(map(str, numbers))),
            "steps": [
                {"actor": a, "actor_label": label, "text": text, "failed": failed}
                for a, label, text, failed in steps
            ],
            "note": t["step.no_tools"],
        }
        for steps, numbers in groups.items()
    ]
    if oversize:
        numbers = ", ".join(map(str, oversize))
        shown.append(
            {
                "answers": t["case.answers"].format(numbers=numbers),
                "steps": [],
                "note": t["step.oversize"],
            }
        )
    return shown


def case_views(run: RedactedRun, t: Mapping[str, str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The case × check matrix of a run page (check names, then a row per case), each row with
    its cells and the case's trajectories."""
    names = list(dict.fromkeys(v.assertion for case in run.results for v in case.verdicts))
    rows = []
    for case in run.results:
        by_name = {v.assertion: v for v in case.verdicts}
        statuses = [v.status for v in case.verdicts]
        rows.append(
            {
                "case_id": case.case_id,
                "suspended": case.suspended,
                "open": any(status != "pass" for status in statuses),
                "cells": [
                    {"status": by_name[name].status, "score": number(by_name[name].score)}
                    if name in by_name
                    else None
                    for name in names
                ],
                "trajectories": _trajectories(case, t),
            }
        )
    return names, rows
