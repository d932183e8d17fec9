"""Each case of a suite on a page of its own: how it went in every run of the suite that
measured it, newest first, each run a link to the case's place on that run's page, with each
check's verdict beside it.

Made from the runs' summaries (``RunSummary.cases``, ``Contender.verdicts``), as the suite's
page is, so a build writes them without reading a run again. What every case of a suite
shares (each run's link, moment and verdicts) is written once for all of them; a case's page
is then its rows joined.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from markupsafe import Markup, escape

from generator.account.tally import CaseStatus
from generator.reading.formats import needs_seconds
from generator.site.board import BoardPages
from generator.site.cases import CASE_STATUS, case_anchor
from generator.site.history import CASE_LETTER, SuiteRuns
from generator.site.shell import placeholder_markdown
from generator.site.writer import Page, case_path, href, run_path, suite_path, yaml_title


@dataclass(frozen=True)
class _Run:
    """One run as every case page of its suite shows it."""

    link: str
    moment: Markup
    reference: bool
    cases: Mapping[str, CaseStatus]
    verdicts: Mapping[str, Mapping[str, str]]
    """Each case's status letter for each check, by check name."""


class CasePages(BoardPages):
    """The case pages of one suite, in one language."""

    def case_pages(self, history: SuiteRuns, bodies: Mapping[str, str] | None = None) -> list[Page]:
        """A page for each case of ``history``; ``bodies`` are their articles as a build kept
        them (``case_bodies``)."""
        bodies = self.case_bodies(history) if bodies is None else bodies
        return [
            Page(
                case_path(history.tenant, history.suite, case),
                placeholder_markdown(yaml_title(f"{case} · {history.heading}")),
                body,
            )
            for case, body in bodies.items()
        ]

    def case_bodies(self, history: SuiteRuns) -> dict[str, str]:
        """The article of each case's page, by case id: the cases of the latest run first,
        then those only earlier runs measured."""
        tenant, suite = history.tenant, history.suite
        page = case_path(tenant, suite, "")  # every case's page is as deep, in one folder
        newest = list(reversed(history.runs))
        seconds = needs_seconds([run.created_at for run in newest])
        runs = [
            _Run(
                href(page, run_path(tenant, suite, run.key)),
                self.when_short(run.created_at, seconds),
                run.key == history.reference,
                dict(run.cases),
                {
                    case: dict(zip((c.name for c in run.contender.checks), letters, strict=True))
                    for case, letters in run.contender.verdicts
                }
                if run.contender
                else {},
            )
            for run in newest
        ]
        checks = list(
            dict.fromkeys(c.name for run in newest if run.contender for c in run.contender.checks)
        )
        cases = list(dict.fromkeys(case for run in newest for case, _ in run.cases))
        heads = Markup("").join(Markup('<th scope="col">{}').format(name) for name in checks)
        words = {status: escape(self.t[label]) for status, label in CASE_STATUS.items()}
        suite_href = href(page, suite_path(tenant, suite))
        template = self.env.get_template("pages/case.html")
        bodies = {}
        for case in cases:
            anchor = case_anchor(case)
            rows = []
            went: dict[CaseStatus, int] = {}
            for run in runs:
                status = run.cases.get(case)
                if status is None:
                    continue
                went[status] = went.get(status, 0) + 1
                letters = run.verdicts.get(case, {})
                cells = "".join(
                    f"<td class={letter}>" if (letter := letters.get(name, "-")) != "-" else "<td>"
                    for name in checks
                )
                star = " ★" if run.reference else ""
                rows.append(
                    f'<tr><th scope=row><a href="{run.link}#{anchor}">{run.moment}</a>{star}'
                    f"<td class={CASE_LETTER[status]}>{words[status]}{cells}\n"
                )
            latest = next(run for run in runs if case in run.cases)
            bodies[case] = template.render(
                t=self.t,
                case=case,
                heading=history.heading,
                suite_href=suite_href,
                status=latest.cases[case],
                status_label=CASE_STATUS[latest.cases[case]],
                latest=latest,
                anchor=anchor,
                went=self.case_counts(went),
                checks=heads,
                rows=Markup("".join(rows)),
            )
        return bodies

    def case_counts(self, went: Mapping[CaseStatus, int]) -> str:
        """How many runs a case passed, failed, was not judged in or was set aside in."""
        said = [
            self.counted(f"case.runs.{status}", went[status])
            for status in ("passed", "failed", "unjudged", "set_aside")
            if went.get(status)
        ]
        joined = ", ".join(said)
        return joined[:1].upper() + joined[1:]
