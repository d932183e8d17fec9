"""How a run went, counted once: the one definition of passed, failed, not judged and set aside,
and of the pass rate, that every page, file and command formats.

A verdict passed, failed, or could not be judged (``error``): the rate is the share of the
judged ones that passed, so a run whose checks could not all be judged has a rate that says
nothing of those, and a reader is told how many it leaves out (``Tally.unjudged``). A verdict
``measured`` on a scale of its own, with no threshold to judge it by, is neither: it is counted
apart and never enters the rate or a run's status. A case set aside (``suspended``) was not
measured: it has no verdict to count, and is counted apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple

from generator.account.significance import Bounds, wilson
from generator.document.numbers import at_precision
from generator.document.redacted import RedactedCase, RedactedRun, RedactedVerdict

Status = Literal["worse", "failed", "unjudged", "passed"]
"""A run at a glance: worse than its reference, else failed, else not all judged, else passed."""

STATUSES: tuple[Status, ...] = ("worse", "failed", "unjudged", "passed")
"""The statuses in the order a reader should look at them."""

VERDICT_STATUSES = ("pass", "fail", "error", "measured")
"""A verdict's statuses as a document names them, in the order every output lists them: a
status's place is its colour on a chart and its column in ``show``."""

CaseStatus = Literal["failed", "unjudged", "passed", "set_aside"]
"""A case at a glance: a check failed, else one could not be judged, else passed; or set aside."""


class Counts(NamedTuple):
    """Verdicts counted by how they went."""

    passed: int
    failed: int
    unjudged: int
    measured: int = 0
    """Verdicts on a scale of their own that no threshold judged."""

    @property
    def judged(self) -> int:
        """The verdicts that passed or failed: what the rate is a share of."""
        return self.passed + self.failed

    @property
    def rate(self) -> float | None:
        """The share of judged verdicts that passed; None where none was judged."""
        return at_precision(self.passed / self.judged) if self.judged else None

    @property
    def bounds(self) -> Bounds | None:
        """The rate's Wilson 95% interval; None where none was judged."""
        return wilson(self.passed, self.judged)


def counted(verdicts: Iterable[RedactedVerdict]) -> Counts:
    """``verdicts`` counted by status."""
    passed = failed = unjudged = measured = 0
    for verdict in verdicts:
        if verdict.status == "pass":
            passed += 1
        elif verdict.status == "fail":
            failed += 1
        elif verdict.status == "measured":
            measured += 1
        else:
            unjudged += 1
    return Counts(passed, failed, unjudged, measured)


class Tally(NamedTuple):
    """A run's verdicts (its cases' and its whole-run checks') and its cases."""

    verdicts: Counts
    cases: int
    set_aside: int

    def status(self, worse: int | None) -> Status:
        """The run's status, given how many of its checks got worse than its reference (None,
        or 0, where none did or it has none)."""
        if worse:
            return "worse"
        went = self.verdicts
        if went.failed:
            return "failed"
        if went.unjudged or (went.measured and not went.judged):  # nothing judged at all
            return "unjudged"
        return "passed"


def verdicts_of(run: RedactedRun) -> list[RedactedVerdict]:
    """Every verdict of ``run``: each case's, then the whole run's."""
    return [v for case in run.results for v in case.verdicts] + list(run.aggregate)


def tally_of(run: RedactedRun) -> Tally:
    """How ``run`` went."""
    return Tally(
        counted(verdicts_of(run)),
        len(run.results),
        sum(case.suspended for case in run.results),
    )


def case_status(case: RedactedCase) -> CaseStatus:
    """How one case went."""
    if case.suspended:
        return "set_aside"
    went = counted(case.verdicts)
    return "failed" if went.failed else "unjudged" if went.unjudged else "passed"
