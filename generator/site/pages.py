"""The pages of one run and of one comparison, from redacted runs only: what a stakeholder is
sent a link to."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from generator.account.checks import Check
from generator.account.comparison import Comparison, comparison_of
from generator.account.costs import bill
from generator.account.figures import CheckFigures
from generator.account.rows import Row, Verdict
from generator.account.run import account_of
from generator.account.skeletons import Skeleton
from generator.document.record import CallTotals
from generator.document.redacted import RedactedRun
from generator.reading import NotComparable
from generator.reading.explain import against
from generator.reading.facts import Reading
from generator.reading.formats import Formats
from generator.reading.locales.settings import setting_name
from generator.reading.plurals import worded
from generator.reading.refusals import refuse_crossing
from generator.reading.render import as_configured
from generator.site.case_history import CaseHistory
from generator.site.cases import case_views, step_text
from generator.site.chance import chance_rows
from generator.site.charts import Chart, compare_charts, interval_chart
from generator.site.first import compared_first, run_first
from generator.site.readings import MARKED, alone, on_the_line
from generator.site.tables import NO_TABLE, Table, case_rows, compared_table, figures_of
from generator.site.writer import (
    Body,
    cases_path,
    diff_path,
    href,
    reading_sections,
    run_path,
    suite_path,
)


def verdict_counts(
    counts: Sequence[tuple[Verdict, int]], labels: Mapping[str, str], figures: Formats
) -> list[tuple[str, str]]:
    """How many rows of a comparison went each way (``Comparison.counts``), said as the
    language says a count ("1 peggiorato", "4 peggiorati")."""
    return [(v, worded(labels, f"verdicts.{v}", n, figures)) for v, n in counts]


PER_CHECK = "check."
"""What a comparison page shows in its table rather than as sentences: every fact about one
check (how it moved, whether it is on the line)."""


@dataclass(frozen=True, slots=True)
class Side:
    """One run's side of a row of a comparison page, formatted."""

    score: str
    interval: str
    status: str


def side(check: Check | None, digits: int, figures: Formats) -> Side | None:
    """One run's side of a comparison row: its score at ``digits`` decimals, and the range of
    its samples where it has one; None where the run has no such check, for the markdown
    report. The site's table writes the same (``tables.compared_table``, held to this by a
    test)."""
    shown = figures_of(check, digits)
    if shown is None:
        return None
    score, interval = shown.written(digits, figures)
    return Side(score=score, interval=interval, status=shown.status)


class Site(CaseHistory):
    """Renders every page of one language."""

    def cost(self, usage: CallTotals) -> str:
        """What a side of a run cost, as its reading says (``account.costs.bill``): nothing for no
        call, a floor where some calls went unpriced, unknown where nothing was on record."""
        known = bill(usage)
        if known == "unknown":
            return self.f.unknown
        spent = self.f.money(usage.spent_usd)
        return self.t["fact.cost_partial"].format(money=spent) if known == "floor" else spent

    def run(
        self, run: RedactedRun, previous: str | None, reference: str | None, worse: int | None
    ) -> Body:
        """A run's page; ``previous`` and ``reference`` are the keys of the runs its
        comparison pages compare it with, ``worse`` how many of its checks got worse than the
        reference's (None without a reference to compare with)."""
        account = account_of(run)
        went = account.tally.verdicts
        path = run_path(run.tenant, run.suite, run.key)
        intervals = interval_chart(account.intervals, self.t)
        if intervals is not None and self.drawer is not None:
            intervals = self.drawer.intervals(intervals, self.t, self.f)

        def compared(other: str | None) -> str | None:
            if other is None or other == run.key:
                return None
            return href(path, diff_path(run.tenant, run.suite, run.key, other))

        status = account.tally.status(worse)
        reference_href = compared(reference)
        return self._body(
            "run",
            path,
            f"{run.suite} · {self.f.moment(run.created_at)}",
            run=run,
            measured=self.when(run.created_at),
            moment=self.f.moment(run.created_at),
            summary=self.counts(went),
            status=status,
            first=run_first(
                status, worse, reference_href, account.checks, account.cases, self.t, self.f
            ),
            rate=self.rate(went),
            is_reference=run.key == reference,
            facts=self.header(run),
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            previous_href=compared(previous),
            reference_href=reference_href,
            reading=reading_sections(alone(run), self.locale, MARKED, self.t["run.line_marked"]),
            checks=[self.check_row(row) for row in account.checks],
            stderr=any(row.reported_stderr is not None for row in account.checks),
            intervals=intervals,
            interval_heights=[80 + 24 * count for count in intervals.parts] if intervals else [],
            check_names=account.case_checks,
            case_count=len(account.cases),
            case_rows=case_rows(account.cases, len(account.case_checks), self.t, self.f),
            case_views=case_views(
                account.cases,
                account.case_checks,
                account.skeletons,
                href(path, cases_path(run.tenant, run.suite)),
                self.t,
                self.f,
            ),
            trajectories=[
                (
                    trajectory,
                    [step_text(step, self.t) for step in trajectory.steps],
                    self.trajectory_figures(trajectory),
                )
                for trajectory in account.skeletons
            ],
            withheld=self.withheld(run),
            released=self.released(run),
        )

    def check_row(self, row: CheckFigures) -> dict[str, str]:
        """A row of a run page's checks: its counts, its pass rate and mean score across cases
        each with its 95% interval, and Inspect's own standard error where it reported one."""
        f = self.f
        rate = bounds = ""
        if row.counts.rate is not None:
            rate = f.share(row.counts.rate)
        if not row.whole_run and (wilson := row.counts.bounds) is not None:
            bounds = f"{f.share(wilson.low)}–{f.share(wilson.high)}"
        score = spread = ""
        if row.score is not None:
            score = f.figure(row.score, row.places)
            if (mean := row.mean_bounds) is not None:
                spread = f"{f.score(mean.low, row.places)}–{f.score(mean.high, row.places)}"
        threshold = f.figure(row.threshold, row.places)
        stderr = ""
        if row.reported_stderr is not None:
            stderr = f.figure(row.reported_stderr, max(row.places, 3))
        return {
            "name": row.name,
            "passed": f.count(row.counts.passed),
            "failed": f.count(row.counts.failed),
            "errored": f.count(row.counts.unjudged),
            "rate": rate,
            "rate_bounds": bounds,
            "score": score,
            "score_bounds": spread,
            "stderr": stderr,
            "threshold": "—" if row.own_scale and not row.counts.judged else threshold,
            "tolerance": f.setting(row.tolerance),
        }

    def diff(
        self, run: RedactedRun, other: RedactedRun, compared: ComparisonPage, role: str
    ) -> Body:
        """The page comparing ``run`` with ``other``, its previous run or its suite's reference
        (``role``: ``previous``, ``reference`` or ``both``), side by side."""
        path = diff_path(run.tenant, run.suite, run.key, other.key)
        t = self.t
        title = t[f"diff.title.{role}"].format(suite=run.suite, run=self.f.moment(run.created_at))
        reading = compared.reading
        return self._body(
            "diff",
            path,
            title,
            title=title,
            role=role,
            run=run,
            other=other,
            run_at=self.when(run.created_at),
            other_at=self.when(other.created_at),
            run_href=href(path, run_path(run.tenant, run.suite, run.key)),
            other_href=href(path, run_path(other.tenant, other.suite, other.key)),
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            reading=[
                (heading, sentences)
                for heading, sentences in reading_sections(
                    reading, self.locale, PER_CHECK, previous=role == "previous"
                )
            ]
            if reading
            else [],
            refused=t["diff.refused"].format(reason=compared.reason) if compared.reason else None,
            status=account_of(run).tally.status(compared.worse if role != "previous" else None),
            rate=self.rate(account_of(run).tally.verdicts),
            counts=verdict_counts(compared.counts, t, self.f),
            first=compared_first(
                compared.values, href(path, run_path(run.tenant, run.suite, run.key)), t, self.f
            )
            if compared.values
            else [],
            rows=compared.table.written(t, self.f),
            chance=chance_rows(compared.values.chance, self.f) if compared.values else [],
            charts=self.compare_charts(compared),
        )

    def compare_charts(self, compared: ComparisonPage) -> list[tuple[str, Chart]]:
        """A comparison's charts, drawn here where the site has a drawer."""
        charts = compare_charts(compared.values.charts if compared.values else (), self.t)
        if self.drawer is None:
            return charts
        drawer = self.drawer
        return [(name, drawer.compare(chart, self.t, self.f)) for name, chart in charts]

    def trajectory_figures(self, trajectory: Skeleton) -> str:
        """How many answers took a trajectory, and their time and tokens where recorded."""
        t, f = self.t, self.f
        said = [worded(t, "trajectory.answers", trajectory.answers, f)]
        if trajectory.latency:
            low, median, high = trajectory.latency
            if low == high:
                said.append(t["trajectory.latency.single"].format(latency=f.latency(median)))
            else:
                said.append(
                    t["trajectory.latency"].format(
                        median=f.latency(median), low=f.latency(low), high=f.latency(high)
                    )
                )
        if trajectory.tokens:
            said.append(
                t["trajectory.tokens"].format(
                    input=f.count(trajectory.tokens[0]), output=f.count(trajectory.tokens[1])
                )
            )
        return " · ".join(said)

    def header(self, run: RedactedRun) -> list[tuple[str, str | Markup]]:
        """The header facts of a run page, as (label, value) pairs."""
        t = self.t

        def config(parts: Any) -> str:
            shown = [
                *(parts.identities or ()),
                *(
                    f"{setting_name(self.locale, k)}: {as_configured(v, self.f)}"
                    for k, v in sorted((parts.values or {}).items())
                ),
            ]
            return " · ".join(shown) or t["fact.none"]

        facts: list[tuple[str, str | Markup]] = [
            (t["fact.tenant"], run.tenant),
            (t["fact.suite"], run.suite),
            (t["fact.environment"], run.environment),
            (t["fact.created_at"], self.when(run.created_at)),
            (t["fact.commit"], run.git_commit or t["fact.no_commit"]),
            (t["fact.schema"], str(run.schema_version)),
            (t["fact.config_hash"], run.config_hash),
            (t["fact.key"], run.key),
            (t["fact.target"], config(run.target_config)),
            (t["fact.judge"], config(run.judge_config)),
        ]
        if run.usage is not None:
            target, judge = run.usage.target, run.usage.judge
            facts.append(
                (
                    t["fact.usage"],
                    f"{t['fact.target']}: {self.f.count(target.calls)} · {self.cost(target)}; "
                    f"{t['fact.judge']}: {self.f.count(judge.calls)} · {self.cost(judge)}",
                )
            )
        if run.rejudged_from:
            facts.append((t["fact.rejudged_from"], run.rejudged_from))
        return facts

    def withheld(self, run: RedactedRun) -> list[str]:
        """What the page does not show, named so a reader knows it exists: only what this run
        has, counted where the redaction counted it (``RedactedRun.withheld``)."""
        t, f = self.t, self.f
        answers = sum(len(case.responses or ()) for case in run.results)
        lines = [worded(t, "withheld.responses", answers, f)] if answers else []
        if (counted := run.withheld) is not None:
            lines += [
                worded(t, f"withheld.{key}", n, f)
                for key, n in (
                    ("reasons", counted.reasons),
                    ("set_aside", counted.set_aside),
                    ("metadata", counted.run_metadata),
                )
                if n
            ]
        responses = [r for case in run.results for r in case.responses or ()]
        if any(r.tool_calls or any(s.actor == "tool" for s in r.steps or ()) for r in responses):
            lines.append(t["withheld.arguments"])
        if any(label.startswith("tool #") for case in run.results for label in case.tool_labels()):
            lines.append(t["withheld.tool_names"])
        hidden = [path for path, artifact in run.artifacts.items() if artifact.withheld]
        if hidden:
            lines.append(worded(t, "withheld.artifacts", len(hidden), f))
        names = sorted({*(run.target_config.withheld or ()), *(run.judge_config.withheld or ())})
        if names:
            lines.append(t["withheld.config"].format(names=", ".join(names)))
        return lines

    def released(
        self, run: RedactedRun, said: Callable[[str], str] = str, named: Callable[[str], str] = str
    ) -> list[str]:
        """What the disclosure released on this page, of what this run holds
        (``RedactedRun.released``): its words as ``said`` writes them, and each name as
        ``named`` does (a Markdown summary's, in code)."""
        t, d = self.t, run.released()

        def listed(label: str, names: Sequence[str]) -> str:
            return said(t[label]).format(names=", ".join(map(named, names)))

        lines = []
        if d.run_metadata:
            lines.append(listed("released.run_metadata", d.run_metadata))
        if d.score_metadata:
            lines.append(listed("released.score_metadata", d.score_metadata))
        if d.artifacts:
            lines.append(listed("released.artifacts", d.artifacts))
        if d.tool_names is True:
            lines.append(said(t["released.tool_names.all"]))
        elif d.tool_names:
            lines.append(listed("released.tool_names", d.tool_names))
        return lines


@dataclass(frozen=True)
class ComparisonPage:
    """What a comparison page shows, made once for both languages: the reading of the run
    against the other and its values (``account.comparison``), its table as the page writes
    it in no language yet, or the reason the two cannot be compared."""

    reading: Reading | None
    values: Comparison | None
    reason: str | None
    table: Table = NO_TABLE

    @property
    def rows(self) -> tuple[Row, ...]:
        return self.values.rows if self.values else ()

    @property
    def counts(self) -> tuple[tuple[Verdict, int], ...]:
        return self.values.counts if self.values else ()

    @property
    def worse(self) -> int:
        """The checks that got worse; none where the runs could not be compared."""
        return self.values.worse if self.values else 0


def comparison(run: RedactedRun, other: RedactedRun) -> ComparisonPage:
    """``run`` against ``other``: the reading and the table from one finding of what moved."""
    try:
        refuse_crossing(run, other)
    except NotComparable as reason:
        return ComparisonPage(None, None, str(reason))
    values = comparison_of(run, other)
    reading = against(run, other, list(values.moved), values.chance)
    page = diff_path(run.tenant, run.suite, run.key, other.key)
    cases_at = href(page, run_path(run.tenant, run.suite, run.key))
    table = compared_table(
        values.rows, values.places, on_the_line(reading), values.chance, cases_at
    )
    return ComparisonPage(reading, values, None, table)
