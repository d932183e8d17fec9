"""What a suite page and the home page know of a run: a few figures, not the run.

A build reads each run once, writes its own pages while it holds it, and keeps only this
summary for the pages that span many runs. The summary is plain data (the cache keeps it
pickled), so a later build takes it from the cache instead of reading the run again, and the
memory of a build grows with the largest suite's runs, not with the archive's answers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from generator.account.places import millionths
from generator.document.numbers import at_precision
from generator.document.redacted import RedactedCase, RedactedRun, RedactedVerdict


@dataclass(frozen=True)
class Point:
    """One check in one run: its mean score and the range of what was measured, in millionths
    (``formats.millionths``), as a suite's chart carries them: counted once, when the run is
    summarised, instead of at every build for every run of the suite."""

    check: str
    score: int | None
    low: int | None
    high: int | None
    threshold: int | None
    tolerance: float | None = None


@dataclass(frozen=True)
class RunSummary:
    """One run as the pages that span runs show it."""

    tenant: str
    suite: str
    key: str
    created_at: str
    config_hash: str
    git_commit: str | None
    passed: int
    failed: int
    errored: int
    points: tuple[Point, ...]
    """Each check the run judged, in the order the run first judged it."""
    judge: str
    """A digest of the judge's published configuration: a change shows on the history."""
    target: str
    """A digest of the target's published configuration."""
    cases: tuple[tuple[str, str], ...] = ()
    """Each case's id and how it went: ``f`` a check failed, else ``e`` one could not be judged,
    else ``p``; ``s`` set aside."""

    @property
    def passing(self) -> float | None:
        """The share of judged verdicts that passed; None when none could be judged."""
        judged = self.passed + self.failed
        return at_precision(self.passed / judged) if judged else None

    def point(self, check: str) -> Point | None:
        return next((p for p in self.points if p.check == check), None)

    def tolerance(self, check: str) -> float | None:
        found = self.point(check)
        return found.tolerance if found else None


def status_of(failed: int, errored: int, worse: int | None) -> str:
    """A run's status at a glance: ``worse`` than its reference, else ``failed``, else
    ``unjudged`` where a check could not be judged, else ``passed``."""
    if worse:
        return "worse"
    return "failed" if failed else "unjudged" if errored else "passed"


def verdicts_of(run: RedactedRun) -> list[RedactedVerdict]:
    """Every verdict of ``run``: each case's, then the run-level ones."""
    return [v for case in run.results for v in case.verdicts] + list(run.aggregate)


def _point(check: str, verdicts: list[RedactedVerdict]) -> Point:
    """``check``'s mean score over its verdicts, and the smallest and largest thing measured
    (a sample where it was sampled, else the score)."""
    scored = [v for v in verdicts if v.score is not None]
    lows = [v.sample_min if v.sample_min is not None else v.score for v in scored]
    highs = [v.sample_max if v.sample_max is not None else v.score for v in scored]
    scores = [v.score for v in scored if v.score is not None]
    threshold = verdicts[0].threshold
    return Point(
        check,
        millionths(sum(scores) / len(scores)) if scores else None,
        millionths(min(x for x in lows if x is not None)) if scored else None,
        millionths(max(x for x in highs if x is not None)) if scored else None,
        None if threshold is None else millionths(threshold),
        verdicts[0].tolerance,
    )


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def summarise(run: RedactedRun) -> RunSummary:
    """The figures of ``run`` that its suite's page and the home page show."""
    verdicts = verdicts_of(run)
    by_check: dict[str, list[RedactedVerdict]] = {}
    for case in run.results:
        for verdict in case.verdicts:
            by_check.setdefault(verdict.assertion, []).append(verdict)
    in_cases = set(by_check)
    for verdict in run.aggregate:
        if verdict.assertion not in in_cases:
            by_check.setdefault(verdict.assertion, []).append(verdict)
    return RunSummary(
        tenant=run.tenant,
        suite=run.suite,
        key=run.key,
        created_at=run.created_at,
        config_hash=run.config_hash,
        git_commit=run.git_commit,
        passed=sum(v.status == "pass" for v in verdicts),
        failed=sum(v.status == "fail" for v in verdicts),
        errored=sum(v.status == "error" for v in verdicts),
        points=tuple(_point(check, found) for check, found in by_check.items()),
        judge=_digest(run.judge_config.model_dump(mode="json")),
        target=_digest(run.target_config.model_dump(mode="json")),
        cases=tuple((case.case_id, _case_status(case)) for case in run.results),
    )


def _case_status(case: RedactedCase) -> str:
    statuses = {verdict.status for verdict in case.verdicts}
    if case.suspended:
        return "s"
    return "f" if "fail" in statuses else "e" if "error" in statuses else "p"
