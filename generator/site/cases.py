"""What a run page shows of each check and each case: counts, verdicts, and the skeleton of
every recorded trajectory (step, actor, a model step's finish, a tool step's outcome).

Trajectories are grouped by skeleton across the whole run: an agent that takes the same five
steps in 150 answers is shown those five steps once, with the answers that took them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import NamedTuple

from markupsafe import Markup, escape

from generator.account.checks import checks_by_case
from generator.account.memo import once_per_run
from generator.account.places import at_places, threshold_places
from generator.document.redacted import RedactedResponse, RedactedRun, RedactedVerdict
from generator.site.charts import STATUS_LETTER
from generator.site.readings import alone, on_the_line
from generator.site.summary import verdicts_of


def case_anchor(case_id: str) -> str:
    """A case's anchor on every page, the same in both languages and in every build: its id,
    with each character outside letters, digits, ``-`` and ``.`` written as ``_hex_``."""
    return "case-" + "".join(
        c if c.isascii() and (c.isalnum() or c in "-.") else f"_{ord(c):x}_" for c in case_id
    )


@once_per_run
def tally(run: RedactedRun) -> tuple[int, int, int]:
    """How many verdicts of the run passed, failed, and could not be judged."""
    verdicts = verdicts_of(run)
    return (
        sum(v.status == "pass" for v in verdicts),
        sum(v.status == "fail" for v in verdicts),
        sum(v.status == "error" for v in verdicts),
    )


@dataclass(frozen=True)
class CheckRow:
    """One check of a run: how its verdicts went across the cases, and its mean score."""

    name: str
    passed: int
    failed: int
    errored: int
    score: float | None
    threshold: float
    tolerance: float
    places: int
    """Decimals its scores print with (``places``): its tolerance's, or more to tell them apart."""


@once_per_run
def check_rows(run: RedactedRun) -> list[CheckRow]:
    """One row per check, in the order the run first judged it."""
    named: dict[str, list[RedactedVerdict]] = {}
    for verdict in verdicts_of(run):
        named.setdefault(verdict.assertion, []).append(verdict)
    rows = []
    for name, verdicts in named.items():
        scores = [v.score for v in verdicts if v.score is not None]
        rows.append(
            CheckRow(
                name=name,
                passed=sum(v.status == "pass" for v in verdicts),
                failed=sum(v.status == "fail" for v in verdicts),
                errored=sum(v.status == "error" for v in verdicts),
                score=sum(scores) / len(scores) if scores else None,
                threshold=verdicts[0].threshold,
                tolerance=verdicts[0].tolerance,
                places=threshold_places(
                    scores, verdicts[0].threshold, verdicts[0].tolerance or None
                ),
            )
        )
    return rows


Step = tuple[str, str | None, str | None, str | None]
"""A step of a skeleton: actor, a model step's finish, a tool step's tool and status."""


def _steps(response: RedactedResponse) -> tuple[Step, ...]:
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


def step_text(step: Step, t: Mapping[str, str]) -> tuple[str, str, bool]:
    """A step as a page shows it: (actor, what happened, whether it failed)."""
    actor, finish, tool, status = step
    if actor == "model":
        return actor, t["step.finish"].format(finish=finish) if finish else "", False
    said = f"{tool or t['step.unnamed']} · {t['trajectory.status.' + str(status)]}"
    return actor, said, status == "error"


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
    {"tool_calls", "tool_steps", "violations", "occurrences", "arguments_matched", "steps"}
)
"""What a trajectory check records in its verdict's metadata (counts, which always travel): how
a page tells the checks that judged an answer's steps from the others."""


@dataclass(frozen=True)
class Judged:
    """How one trajectory check went on the cases of a trajectory."""

    check: str
    passed: int
    failed: tuple[str, ...]
    """The cases where it failed."""
    errored: tuple[str, ...]
    """The cases where it could not judge."""


@dataclass(frozen=True)
class Trajectory:
    """One skeleton, which answers of which cases took it, what they cost in time and tokens
    where recorded, and how the trajectory checks judged those cases."""

    number: int
    steps: tuple[Step, ...]
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


def _judged(run: RedactedRun, cases: Sequence[str]) -> tuple[Judged, ...]:
    """The trajectory checks' verdicts on ``cases``, check by check."""
    verdicts: dict[str, list[tuple[str, str]]] = {}
    for case in run.results:
        if case.case_id in cases:
            for v in case.verdicts:
                if TRAJECTORY_KEYS & v.metadata.keys():
                    verdicts.setdefault(v.assertion, []).append((case.case_id, v.status))
    return tuple(
        Judged(
            check,
            sum(status == "pass" for _, status in found),
            tuple(case for case, status in found if status == "fail"),
            tuple(case for case, status in found if status == "error"),
        )
        for check, found in verdicts.items()
    )


@once_per_run
def trajectories(run: RedactedRun) -> list[Trajectory]:
    """The run's distinct skeletons in order of first appearance; answers too large to record
    form a group of their own."""
    groups: dict[tuple[bool, tuple[Step, ...]], dict[str, list[int]]] = {}
    taken: dict[tuple[bool, tuple[Step, ...]], list[RedactedResponse]] = {}
    answers: dict[str, int] = {}
    for case in run.results:
        answers[case.case_id] = len(case.responses or ())
        for n, response in enumerate(case.responses or (), 1):
            if response.oversize:
                key: tuple[bool, tuple[Step, ...]] = (True, ())
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
            Trajectory(
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


Cell = tuple[str, int | None, int]
"""A cell of a case grid: its class, its score rounded (in millionths, None where the check
could not judge) and the decimals that rounded it."""


class GridLine(NamedTuple):
    """A case's row of a run page's case grid, in no language yet: its anchor and id escaped,
    and a ``Cell`` per check, None where the case has no such verdict."""

    anchor: Markup
    case: Markup
    suspended: bool
    cells: tuple[Cell | None, ...]


@once_per_run
def case_matrix(run: RedactedRun) -> tuple[list[str], tuple[GridLine, ...]]:
    """The case × check matrix of a run page: check names, then a line per case. A cell's
    class is its status letter, ``l`` after it where the check is on the line (as the run's
    reading finds it), and nothing for a pass off the line, the commonest cell by far."""
    marked = on_the_line(alone(run))
    names = list(dict.fromkeys(v.assertion for case in run.results for v in case.verdicts))
    digits = {row.name: row.places for row in check_rows(run)}
    lines = []
    for case, checks in zip(run.results, checks_by_case(run)[0], strict=True):
        by_name = {c.verdict.assertion: c for c in checks}
        cells: list[Cell | None] = []
        for name in names:
            check = by_name.get(name)
            if check is None:
                cells.append(None)
                continue
            score = check.figures[0]
            places = digits[name]
            line = (case.case_id, name) in marked
            shown = None if score is None else at_places(score, places)
            cells.append((_cell_class(check.verdict.status, line), shown, places))
        lines.append(
            GridLine(
                escape(case_anchor(case.case_id)),
                escape(case.case_id),
                case.suspended,
                tuple(cells),
            )
        )
    return names, tuple(lines)


def _cell_class(status: str, on_the_line: bool) -> str:
    letter = STATUS_LETTER[status]
    if on_the_line:
        return f"{letter}l"
    return "" if letter == "p" else letter
