"""The skeleton of every recorded trajectory of a run (step, actor, a model step's finish, a tool
step's tool and outcome), grouped across the whole run: an agent that takes the same five steps
in 150 answers has those five steps once, with the answers that took them, what they cost in
time and tokens, and how the trajectory checks judged their cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from generator.document.redacted import RedactedResponse, RedactedRun, RedactedVerdict

StepShape = tuple[str, str | None, str | None, str | None]
"""A step of a skeleton: actor, a model step's finish, a tool step's tool and status."""


def _steps(response: RedactedResponse) -> tuple[StepShape, ...]:
    """An answer's skeleton; tool calls stand in for steps in a document recorded before
    steps existed."""
    if response.steps is not None:
        return tuple(
            (step.actor, step.finish, step.tool, step.status or "success")
            if step.actor == "tool"
            else (step.actor, step.finish, None, None)
            for step in response.steps
        )
    return tuple(("tool", None, call.tool, call.status) for call in response.tool_calls or ())


def _spans(numbers: Sequence[int]) -> str:
    """Answer numbers as runs: ``1–3, 5``."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans)


TRAJECTORY_KEYS = frozenset(
    {
        "tool_calls",
        "tool_steps",
        "violations",
        "occurrences",
        "arguments_matched",
        "steps",
        "called",
        "matched",
    }
)
"""What a trajectory check records in its verdict's metadata (counts, which always travel): how
a page tells the checks that judged an answer's steps from the others. digline's
``tools_called`` counts what was ``called`` and ``matched``."""


def judges_steps(verdict: RedactedVerdict) -> bool:
    """Whether ``verdict`` is a trajectory check's: it judged an answer's steps."""
    return not TRAJECTORY_KEYS.isdisjoint(verdict.metadata)


@dataclass(frozen=True)
class Judged:
    """How one trajectory check went on the cases of a trajectory."""

    check: str
    passed: tuple[str, ...]
    """The cases where it passed."""
    failed: tuple[str, ...]
    """The cases where it failed."""
    errored: tuple[str, ...]
    """The cases where it could not judge."""


@dataclass(frozen=True)
class Skeleton:
    """One skeleton, which answers of which cases took it, what they cost in time and tokens
    where recorded, and how the trajectory checks judged those cases."""

    number: int
    steps: tuple[StepShape, ...]
    oversize: bool
    every: tuple[str, ...]
    """The cases all of whose answers took it."""
    some: tuple[tuple[str, str], ...]
    """(case id, answer numbers) for the cases only some of whose answers took it."""
    answers: int
    latency: tuple[float, float, float] | None
    """The answers' latencies in ms (lowest, median, highest), where all were recorded."""
    tokens: tuple[int, int] | None
    """The median answer's input and output tokens, where all were recorded."""
    judged: tuple[Judged, ...]

    def taken_by(self, case: str) -> str | None:
        """Which answers of ``case`` took it: ``""`` for every one, the answer numbers for
        some, None for none."""
        if case in self.every:
            return ""
        return next((spans for some, spans in self.some if some == case), None)


def _judged(run: RedactedRun, cases: Sequence[str]) -> tuple[Judged, ...]:
    """The trajectory checks' verdicts on ``cases``, check by check."""
    verdicts: dict[str, list[tuple[str, str]]] = {}
    for case in run.results:
        if case.case_id in cases:
            for v in case.verdicts:
                if judges_steps(v):
                    verdicts.setdefault(v.assertion, []).append((case.case_id, v.status))
    return tuple(
        Judged(
            check,
            tuple(case for case, status in found if status == "pass"),
            tuple(case for case, status in found if status == "fail"),
            tuple(case for case, status in found if status == "error"),
        )
        for check, found in verdicts.items()
    )


def skeletons(run: RedactedRun) -> list[Skeleton]:
    """The run's distinct skeletons in order of first appearance; answers too large to record
    form a group of their own."""
    groups: dict[tuple[bool, tuple[StepShape, ...]], dict[str, list[int]]] = {}
    taken: dict[tuple[bool, tuple[StepShape, ...]], list[RedactedResponse]] = {}
    answers: dict[str, int] = {}
    for case in run.results:
        answers[case.case_id] = len(case.responses or ())
        for n, response in enumerate(case.responses or (), 1):
            if response.oversize:
                key: tuple[bool, tuple[StepShape, ...]] = (True, ())
            elif response.steps is not None or response.tool_calls is not None:
                key = (False, _steps(response))
            else:
                continue
            groups.setdefault(key, {}).setdefault(case.case_id, []).append(n)
            taken.setdefault(key, []).append(response)
    found = []
    for number, ((oversize, steps), cases) in enumerate(groups.items(), 1):
        responses = taken[(oversize, steps)]
        latencies = [r.latency_ms for r in responses if r.latency_ms is not None]
        usages = [r.usage for r in responses if r.usage is not None]
        found.append(
            Skeleton(
                number,
                steps,
                oversize,
                tuple(case for case, took in cases.items() if len(took) == answers[case]),
                tuple(
                    (case, _spans(took))
                    for case, took in cases.items()
                    if len(took) < answers[case]
                ),
                len(responses),
                (min(latencies), median(latencies), max(latencies))
                if latencies and len(latencies) == len(responses)
                else None,
                (
                    round(median([u.input_tokens for u in usages])),
                    round(median([u.output_tokens for u in usages])),
                )
                if usages and len(usages) == len(responses)
                else None,
                _judged(run, list(cases)),
            )
        )
    return found
