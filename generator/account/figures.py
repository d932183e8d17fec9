"""Each check's figures and each case's line, counted once per run: what a run page's tables,
a suite's history, the report and ``show`` write.

A check is its name within a scope: the cases' checks of one name are one check, and a
whole-run check is another even where it shares their name, so its one score is never
averaged into theirs. Scores are in millionths (``places.millionths``), with the decimals
(``places``) that keep them apart from their threshold.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from generator.account.checks import Check, checks_by_case, checks_of
from generator.account.places import SCALE, at_places, millionths, threshold_places
from generator.account.samples import on_the_line
from generator.account.significance import Bounds, mean_interval
from generator.account.skeletons import judges_steps
from generator.account.tally import CaseStatus, Counts, case_status, counted
from generator.document.redacted import RedactedRun, RedactedVerdict


class CheckFigures(NamedTuple):
    """One check of a run: how its verdicts went, its mean score and the range of what was
    measured (a sample where it was sampled, else a score), its threshold and tolerance."""

    name: str
    whole_run: bool
    """A check over the whole run (an aggregate), not over each case."""
    counts: Counts
    score: int | None
    """The mean of its scores, in millionths; None where none was scored."""
    low: int | None
    high: int | None
    threshold: int
    tolerance: float
    places: int
    """Decimals its scores print with: its tolerance's, or more to tell them from its
    threshold."""
    spread: int | None = None
    """The standard error of its mean score across cases, in millionths; None for a check
    over the whole run or scored in fewer than two cases."""
    reported_stderr: int | None = None
    """The standard error Inspect reported for this scorer (its ``stderr`` metric), in
    millionths; None where the run carries none."""
    own_scale: bool = False
    """Whether its scores are on a scale of their own (``own_scale``), not shares of 0 to 1."""

    @property
    def mean_bounds(self) -> Bounds | None:
        """The mean score's 95% interval across cases (Student's t over the scored cases), held
        to the scores' range of 0 to 1, outside which no mean can be; on a scale of its own,
        as it is."""
        if self.score is None or self.spread is None:
            return None
        scored = self.counts.judged + self.counts.measured
        low, high = mean_interval(self.score / SCALE, self.spread / SCALE, scored)
        return Bounds(low, high) if self.own_scale else Bounds(max(low, 0.0), min(high, 1.0))


def check_figures(run: RedactedRun) -> tuple[CheckFigures, ...]:
    """One check a name and scope, the cases' first, each in the order the run first judged
    it."""
    named: dict[tuple[bool, str], list[RedactedVerdict]] = {}
    for check in checks_of(run):
        named.setdefault((check.case is None, check.verdict.assertion), []).append(check.verdict)
    found = []
    for (whole, name), verdicts in named.items():
        figures = _figures(name, whole, verdicts)
        if not whole:
            stderr = _reported_stderr(name, named)
            reported = stderr[0].score if len(stderr) == 1 else None
            figures = figures._replace(
                spread=_spread(verdicts),
                reported_stderr=None if reported is None else millionths(reported),
            )
        found.append(figures)
    return tuple(found)


STDERR = "stderr"
"""The metric Inspect names a scorer's standard error by: an import keeps each metric as a
whole-run check named ``scorer/metric``, or ``scorer/reducer/metric`` under an epoch reducer."""


def _reported_stderr(
    name: str, named: dict[tuple[bool, str], list[RedactedVerdict]]
) -> list[RedactedVerdict]:
    """The whole-run check of Inspect's standard error of the case check ``name``: its own
    (``name/stderr``), else the first reducer's (``name/<reducer>/stderr``), whose values the
    check named for its scorer alone holds."""
    if (own := named.get((True, f"{name}/{STDERR}"))) is not None:
        return own
    for (whole, other), verdicts in named.items():
        reducer, _, metric = other.removeprefix(f"{name}/").partition("/")
        if whole and other.startswith(f"{name}/") and metric == STDERR and "/" not in reducer:
            return verdicts
    return []


def _spread(verdicts: list[RedactedVerdict]) -> int | None:
    """The standard error of the verdicts' mean score, in millionths; None for fewer than two."""
    scores = [v.score for v in verdicts if v.score is not None]
    if len(scores) < 2:
        return None
    mean = sum(scores) / len(scores)
    variance = sum((x - mean) ** 2 for x in scores) / (len(scores) - 1)
    return millionths(math.sqrt(variance / len(scores)))


def _figures(name: str, whole_run: bool, verdicts: list[RedactedVerdict]) -> CheckFigures:
    scored = [v for v in verdicts if v.score is not None]
    scores = [v.score for v in scored if v.score is not None]
    lows = [v.sample_min if v.sample_min is not None else v.score for v in scored]
    highs = [v.sample_max if v.sample_max is not None else v.score for v in scored]
    first = verdicts[0]
    return CheckFigures(
        name=name,
        whole_run=whole_run,
        counts=counted(verdicts),
        score=millionths(sum(scores) / len(scores)) if scores else None,
        low=millionths(min(x for x in lows if x is not None)) if scored else None,
        high=millionths(max(x for x in highs if x is not None)) if scored else None,
        threshold=millionths(first.threshold),
        tolerance=first.tolerance,
        places=threshold_places(scores, first.threshold, first.tolerance or None),
        own_scale=first.own_scale is not None,
    )


class Cell(NamedTuple):
    """One verdict of a case in a run page's grid and its case's view: how it went, its score
    rounded to its check's decimals (in millionths; None where it could not be judged), those
    decimals, whether its samples straddle its threshold, the range of its samples and its
    threshold at those decimals, and whether it judged the answers' steps."""

    status: str
    score: int | None
    places: int
    on_the_line: bool
    samples: tuple[int, int] | None = None
    threshold: int = 0
    steps: bool = False


class CaseLine(NamedTuple):
    """A case of a run: how it went, and a cell for each of the run's case checks (None
    where the case has no verdict of it)."""

    case: str
    status: CaseStatus
    cells: tuple[Cell | None, ...]


def case_lines(
    run: RedactedRun, checks: tuple[CheckFigures, ...]
) -> tuple[tuple[str, ...], tuple[CaseLine, ...]]:
    """The run's case checks by name, and a line for each case, its scores at the decimals of
    ``checks`` (``check_figures``)."""
    names = tuple(dict.fromkeys(v.assertion for case in run.results for v in case.verdicts))
    places = {f.name: f.places for f in checks if not f.whole_run}
    lines = []
    for case, found in zip(run.results, checks_by_case(run)[0], strict=True):
        by_name = {check.verdict.assertion: check for check in found}
        lines.append(
            CaseLine(
                case.case_id,
                case_status(case),
                tuple(_cell(by_name.get(name), places[name]) for name in names),
            )
        )
    return names, tuple(lines)


def _cell(check: Check | None, places: int) -> Cell | None:
    if check is None:
        return None
    score, low, high = check.figures
    return Cell(
        check.verdict.status,
        None if score is None else at_places(score, places),
        places,
        on_the_line(check.verdict),
        None if low is None or high is None else (at_places(low, places), at_places(high, places)),
        at_places(millionths(check.verdict.threshold), places),
        judges_steps(check.verdict),
    )
