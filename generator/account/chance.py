"""Whether two runs differ beyond chance: each check's cases paired across the runs and tested,
with Holm's correction across the checks, and each case's samples tested where both runs kept
them (``significance`` holds the statistics).

A comparison and a side-by-side diff pair their checks differently (the diff favours neither
run), so both hand this module the same thing: for each check of each case, the check in the
earlier run and in the later one (in a diff, the right run and the left). A check over the whole
run has no cases to pair and is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from generator.account.checks import Check
from generator.account.significance import (
    ALPHA,
    Bounds,
    Within,
    falling,
    holm,
    mcnemar,
    mean_bounds,
    wilcoxon,
    within_case,
)

FEWEST = 6
"""The fewest pairs, all one way, that McNemar's and Wilcoxon's exact two-sided tests can find
beyond chance at ``ALPHA``: 2 × 0.5⁶ = 0.031, where five give 0.0625."""

Paired = tuple[str, str | None, Check | None, Check | None]
"""One check of one case in two runs: its name, the case (None over the whole run), and the
check in the earlier run and in the later one (None where a run has none)."""


class CheckChance(NamedTuple):
    """One check over the cases both runs judged (passed or failed in each)."""

    check: str
    pairs: int
    worse: int
    """Cases that passed in the earlier run and failed in the later."""
    better: int
    mcnemar: float | None
    """The exact McNemar test's p; None where no case changed its verdict."""
    mcnemar_holm: float | None
    scored: int
    """Pairs whose score changed: what Wilcoxon's test weighs."""
    change: float | None
    """The mean change of score over the pairs, later minus earlier."""
    change_bounds: Bounds | None
    """Its 95% interval (Student's t over the paired changes); None for fewer than two."""
    wilcoxon: float | None
    """Wilcoxon's signed-rank p; None where no score changed."""
    wilcoxon_holm: float | None
    fell: bool
    """Whether the scores went down, as Wilcoxon's signed ranks weigh it."""

    @property
    def verdicts_decidable(self) -> bool:
        """Whether enough cases changed their verdict for any split to be beyond chance."""
        return self.worse + self.better >= FEWEST

    @property
    def scores_decidable(self) -> bool:
        """Whether enough scores changed for any shift to be beyond chance."""
        return self.scored >= FEWEST

    @property
    def worse_beyond_chance(self) -> bool:
        """Worse beyond chance after Holm's correction: more cases lost their pass than gained
        one, or the scores fell, with the adjusted p below ``ALPHA``."""
        lost = self.worse > self.better and _below(self.mcnemar_holm)
        return lost or (self.fell and _below(self.wilcoxon_holm))


class CaseChance(NamedTuple):
    """One check of one case whose samples both runs kept, tested."""

    case: str
    check: str
    test: Within


class Chance(NamedTuple):
    """A comparison's tests: each check's, then each case's."""

    checks: tuple[CheckChance, ...]
    cases: tuple[CaseChance, ...]

    @property
    def worse_beyond_chance(self) -> tuple[str, ...]:
        """The checks worse beyond chance after Holm's correction."""
        return tuple(c.check for c in self.checks if c.worse_beyond_chance)

    def within(self, case: str | None, check: str) -> Within | None:
        """The test of one case's samples of ``check``, where there is one."""
        return next((c.test for c in self.cases if (c.case, c.check) == (case, check)), None)


def _below(p: float | None) -> bool:
    return p is not None and p < ALPHA


def _judged(check: Check | None) -> bool:
    return check is not None and check.verdict.status in ("pass", "fail")


def chance_of(paired: Iterable[Paired]) -> Chance:
    """The tests of two runs' checks, ``paired`` by case."""
    by_check: dict[str, list[tuple[Check, Check]]] = {}
    cases = []
    for name, case, earlier, later in paired:
        if case is None or earlier is None or later is None:
            continue
        if _judged(earlier) and _judged(later):
            by_check.setdefault(name, []).append((earlier, later))
        test = within_case(earlier.verdict.samples or (), later.verdict.samples or ())
        if test is not None:
            cases.append(CaseChance(case, name, test))
    found = [_check_chance(name, pairs) for name, pairs in by_check.items()]
    mcnemars = holm([c.mcnemar for c in found])
    wilcoxons = holm([c.wilcoxon for c in found])
    checks = tuple(
        c._replace(mcnemar_holm=m, wilcoxon_holm=w)
        for c, m, w in zip(found, mcnemars, wilcoxons, strict=True)
    )
    return Chance(checks, tuple(cases))


def _check_chance(name: str, pairs: list[tuple[Check, Check]]) -> CheckChance:
    verdicts = [(was.verdict.status, now.verdict.status) for was, now in pairs]
    worse = verdicts.count(("pass", "fail"))
    better = verdicts.count(("fail", "pass"))
    changes = [
        now.verdict.score - was.verdict.score
        for was, now in pairs
        if was.verdict.score is not None and now.verdict.score is not None
    ]
    moved = [c for c in changes if c != 0]
    return CheckChance(
        check=name,
        pairs=len(pairs),
        worse=worse,
        better=better,
        mcnemar=mcnemar(worse, better) if worse + better else None,
        mcnemar_holm=None,
        scored=len(moved),
        change=sum(changes) / len(changes) if changes else None,
        change_bounds=mean_bounds(changes),
        wilcoxon=wilcoxon(changes),
        wilcoxon_holm=None,
        fell=bool(moved) and falling(moved),
    )
