"""What a suite page and the home page know of a run: a few figures of its account, not the run.

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

from generator.account.board import Contender, contender_of
from generator.account.figures import CheckFigures
from generator.account.run import account_of
from generator.account.tally import CaseStatus, Tally
from generator.document.redacted import RedactedRun

CheckKey = tuple[bool, str]
"""A check across a suite's runs: whether it is over the whole run, and its name."""


@dataclass(frozen=True)
class RunSummary:
    """One run as the pages that span runs show it: what its suite's board needs of it
    (``contender``, which holds its identity, tally and target), and what else the suite's and
    the home page show."""

    contender: Contender
    git_commit: str | None
    checks: tuple[CheckFigures, ...]
    """Each check the run judged, as its account has it (those over the whole run too)."""
    judge: str
    """A digest of the judge's published configuration: a change shows on the history."""
    cases: tuple[tuple[str, CaseStatus], ...] = ()
    """Each case's id and how it went."""

    @property
    def tenant(self) -> str:
        return self.contender.tenant

    @property
    def suite(self) -> str:
        return self.contender.suite

    @property
    def key(self) -> str:
        return self.contender.key

    @property
    def created_at(self) -> str:
        return self.contender.created_at

    @property
    def config_hash(self) -> str:
        return self.contender.config_hash

    @property
    def tally(self) -> Tally:
        return self.contender.tally

    @property
    def target(self) -> str:
        """A digest of the target's published configuration."""
        return self.contender.target

    def check(self, key: CheckKey) -> CheckFigures | None:
        return next((c for c in self.checks if (c.whole_run, c.name) == key), None)


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def summarise(run: RedactedRun) -> RunSummary:
    """The figures of ``run`` that its suite's page and the home page show."""
    account = account_of(run)
    return RunSummary(
        contender=contender_of(run),
        git_commit=run.git_commit,
        checks=account.checks,
        judge=_digest(run.judge_config.model_dump(mode="json")),
        cases=tuple((line.case, line.status) for line in account.cases),
    )
