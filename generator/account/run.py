"""A run's account: every figure its pages, its report and its commands show, counted once per
run from the redacted run, for both languages and every output."""

from __future__ import annotations

from dataclasses import dataclass

from generator.account.charts import Intervals, intervals_of
from generator.account.figures import CaseLine, CheckFigures, case_lines, check_figures
from generator.account.memo import once_per_run
from generator.account.skeletons import Skeleton, skeletons
from generator.account.tally import Tally, tally_of
from generator.document.redacted import RedactedRun


@dataclass(frozen=True)
class Account:
    """How a run went, in figures and in no language."""

    tally: Tally
    checks: tuple[CheckFigures, ...]
    """Each check, the cases' first, in the order the run first judged it."""
    case_checks: tuple[str, ...]
    """The names of the checks of its cases: the columns of its case grid."""
    cases: tuple[CaseLine, ...]
    intervals: Intervals | None
    """Its interval chart; None where nothing was sampled."""
    skeletons: tuple[Skeleton, ...]
    """Its answers' trajectories, grouped by skeleton."""


@once_per_run
def account_of(run: RedactedRun) -> Account:
    """The account of ``run``."""
    checks = check_figures(run)
    names, lines = case_lines(run, checks)
    return Account(
        tally_of(run),
        checks,
        names,
        lines,
        intervals_of(run),
        tuple(skeletons(run)),
    )
