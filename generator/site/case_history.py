"""The cases of a suite, on one page: each case with how it went in its latest run, opened on
its verdict in every recent run of the suite that measured it (``history.RECENT``), newest
first, each run a link to the case on that run's page, with each check's verdict beside it.

A case has a stable address there, the same in both languages (``cases/<tenant>/<suite>/`` and
its anchor). The page carries the suite's runs once and each case's verdicts as letters, and
``charts.js`` writes the table of a case as it is opened: a case of a suite of 250 runs has 250
rows, and a page a case would make a suite of 30 cases 30 pages a build writes and checks
again whenever a run arrives. Made from the runs' summaries (``RunSummary.cases``,
``Contender.verdicts``), as the suite's page is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.account.board import Contender
from generator.account.tally import CaseStatus
from generator.reading.formats import needs_seconds
from generator.site.board import BoardPages
from generator.site.cases import CASE_STATUS, case_anchor
from generator.site.history import CASE_LETTER, SuiteRuns
from generator.site.shell import placeholder_markdown
from generator.site.writer import Page, cases_path, href, suite_path, yaml_title

ABSENT = "."
"""A run's letter for a case it did not measure."""


class CaseHistory(BoardPages):
    """The page of a suite's cases, in one language."""

    def cases(self, history: SuiteRuns, body: str | None = None) -> Page:
        """The page of ``history``'s cases; ``body`` is its article as a build kept it."""
        title = self.t["cases.title"].format(suite=history.heading)
        return Page(
            cases_path(history.tenant, history.suite),
            placeholder_markdown(yaml_title(title)),
            self.cases_body(history) if body is None else body,
        )

    def cases_body(self, history: SuiteRuns) -> str:
        """The article of ``history``'s cases page: the cases of its latest run first, then
        those only earlier recent runs measured."""
        tenant, suite = history.tenant, history.suite
        path = cases_path(tenant, suite)
        newest = list(reversed(history.recent))
        went = [dict(run.cases) for run in newest]
        checks = list(dict.fromkeys(c.name for run in newest for c in run.contender.checks))
        verdicts = [_verdicts(run.contender, checks) for run in newest]
        cases = list(dict.fromkeys(case for run in newest for case, _ in run.cases))
        blank = "-" * len(checks)
        seconds = needs_seconds([run.created_at for run in newest])
        data: dict[str, Any] = {
            "runs": href(path, f"runs/{tenant}/{suite}/index.md"),
            "keys": [run.key for run in newest],
            "moments": [self.f.moment_short(run.created_at, seconds) for run in newest],
            "exact": [run.created_at for run in newest],
            "reference": next(
                (n for n, run in enumerate(newest) if run.key == history.reference), None
            ),
            "checks": checks,
            "cases": {
                case: "".join(
                    CASE_LETTER[status] + by_case.get(case, blank)
                    if (status := statuses.get(case))
                    else ABSENT + blank
                    for statuses, by_case in zip(went, verdicts, strict=True)
                )
                for case in cases
            },
            "labels": {
                "measured": self.t["column.created_at"],
                "status": self.t["column.status"],
                "legend": self.t["case.legend"],
                **{letter: self.t[CASE_STATUS[status]] for status, letter in CASE_LETTER.items()},
            },
        }
        rows = []
        for case in cases:
            counted: dict[CaseStatus, int] = {}
            for statuses in went:
                if (status := statuses.get(case)) is not None:
                    counted[status] = counted.get(status, 0) + 1
            latest = next(statuses[case] for statuses in went if case in statuses)
            rows.append(
                {
                    "case": case,
                    "anchor": case_anchor(case),
                    "status": latest,
                    "status_label": CASE_STATUS[latest],
                    "went": self.case_counts(counted),
                }
            )
        return self._body(
            "cases",
            path,
            self.t["cases.title"].format(suite=history.heading),
            suite=history.heading,
            suite_href=href(path, suite_path(tenant, suite)),
            cases=rows,
            runs=len(newest),
            data=data,
        ).html

    def case_counts(self, went: Mapping[CaseStatus, int]) -> str:
        """How many runs a case passed, failed, was not judged in or was set aside in."""
        return ", ".join(
            self.counted(f"case.runs.{status}", went[status])
            for status in ("passed", "failed", "unjudged", "set_aside")
            if went.get(status)
        )


def _verdicts(contender: Contender, checks: list[str]) -> dict[str, str]:
    """Each case's check letters in a run (``Contender.verdicts``), laid out on ``checks``,
    the suite's checks across its runs: ``-`` where the run has no such check of the case."""
    names = [c.name for c in contender.checks]
    found = {}
    for case, letters in contender.verdicts:
        by_name = dict(zip(names, letters, strict=True))
        found[case] = "".join(by_name.get(name, "-") for name in checks)
    return found
