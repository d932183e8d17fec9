"""The pages of one run and of one comparison, from redacted runs only: what a stakeholder is
sent a link to."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from generator.document.record import CallTotals
from generator.document.redacted import RedactedRun
from generator.reading import NotComparable
from generator.reading.alone import bill
from generator.reading.checks import Check
from generator.reading.compare import movements
from generator.reading.explain import against
from generator.reading.facts import Reading
from generator.reading.formats import (
    Formats,
    Move,
    agreeing_places,
    change_places,
    millionths,
    places_off,
)
from generator.reading.plurals import worded
from generator.reading.refusals import refuse_crossing
from generator.reading.table import Row, Verdict, comparison_rows
from generator.site.cases import Trajectory, case_matrix, check_rows, step_text, tally, trajectories
from generator.site.charts import Drawing, compare_charts, compare_drawings, interval_chart
from generator.site.history import HistoryPages
from generator.site.readings import MARKED, alone, on_the_line
from generator.site.summary import status_of
from generator.site.tables import NO_TABLE, Table, case_rows, compared_table, figures_of
from generator.site.writer import Body, diff_path, href, reading_sections, run_path, suite_path

VERDICT_ORDER: tuple[Verdict, ...] = (
    "worse",
    "unjudged",
    "rules",
    "new",
    "gone",
    "counted",
    "better",
    "same",
)
"""How a comparison page counts its rows: what a reader looks for first."""


def verdict_counts(
    rows: Sequence[Row], labels: Mapping[str, str], figures: Formats
) -> list[tuple[str, str]]:
    """How many rows of a comparison have each verdict, said as the language says a count
    ("1 peggiorato", "4 peggiorati"), in the order a reader looks for them; none for a verdict
    no row has."""
    counts = Counter(row.verdict for row in rows)
    return [
        (v, worded(labels, f"verdicts.{v}", n, figures)) for v in VERDICT_ORDER if (n := counts[v])
    ]


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


class Site(HistoryPages):
    """Renders every page of one language."""

    def cost(self, usage: CallTotals) -> str:
        """What a side of a run cost, as its reading says (``alone.bill``): nothing for no
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
        passed, failed, errored = tally(run)
        judged = passed + failed
        path = run_path(run.tenant, run.suite, run.key)
        names, cases = case_matrix(run)
        intervals = interval_chart(run, self.t)

        def compared(other: str | None) -> str | None:
            if other is None or other == run.key:
                return None
            return href(path, diff_path(run.tenant, run.suite, run.key, other))

        return self._body(
            "run",
            path,
            f"{run.suite} · {self.f.moment(run.created_at)}",
            run=run,
            measured=self.when(run.created_at),
            summary=self.counts(passed, failed, errored),
            status=status_of(failed, errored, worse),
            rate=self.rate(passed / judged if judged else None),
            is_reference=run.key == reference,
            facts=self.header(run),
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            previous_href=compared(previous),
            reference_href=compared(reference),
            reading=reading_sections(alone(run), self.locale, MARKED, self.t["run.line_marked"]),
            checks=[
                {
                    "name": row.name,
                    "passed": self.f.count(row.passed),
                    "failed": self.f.count(row.failed),
                    "errored": self.f.count(row.errored),
                    "score": "" if row.score is None else self.f.score(row.score, row.places),
                    "threshold": self.f.score(row.threshold, row.places),
                    "tolerance": self.f.setting(row.tolerance),
                }
                for row in check_rows(run)
            ],
            intervals=intervals,
            interval_heights=[80 + 24 * count for count in intervals.parts] if intervals else [],
            check_names=names,
            case_count=len(cases),
            case_rows=case_rows(cases, len(names), self.t, self.f),
            trajectories=[
                (
                    trajectory,
                    [step_text(step, self.t) for step in trajectory.steps],
                    self.trajectory_figures(trajectory),
                )
                for trajectory in trajectories(run)
            ],
            withheld=self.withheld(run),
            released=self.released(run),
        )

    def diff(self, run: RedactedRun, other: RedactedRun, compared: Comparison, role: str) -> Body:
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
            counts=verdict_counts(compared.rows, t, self.f),
            rows=compared.table.written(t, self.f),
            charts=compare_charts(compared.drawings, t),
        )

    def trajectory_figures(self, trajectory: Trajectory) -> str:
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
                *(f"{k}={v}" for k, v in sorted((parts.values or {}).items())),
            ]
            return ", ".join(shown) or t["fact.none"]

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
class Comparison:
    """What a comparison page shows, made once for both languages: the reading of the run
    against the other, its table (rows, the decimals of each check's figures, the rows as the
    page writes them) and its charts, or the reason the two cannot be compared."""

    reading: Reading | None
    rows: tuple[Row, ...]
    reason: str | None
    places: Mapping[str, int] = field(default_factory=dict)
    table: Table = NO_TABLE
    """The table's rows as its pages write them, in no language yet."""
    drawings: tuple[Drawing, ...] = ()
    """Its charts, in no language yet."""


def comparison(run: RedactedRun, other: RedactedRun) -> Comparison:
    """``run`` against ``other``: the reading and the table from one finding of what moved."""
    try:
        refuse_crossing(run, other)
    except NotComparable as reason:
        return Comparison(None, (), str(reason))
    moved = movements(run, other)
    rows = tuple(comparison_rows(moved))
    reading = against(run, other, moved)
    places = comparison_places(rows)
    table = compared_table(rows, places, on_the_line(reading))
    return Comparison(reading, rows, None, places, table, compare_drawings(rows))


def comparison_places(rows: Sequence[Row]) -> dict[str, int]:
    """Decimals for each check of a comparison: as its tolerance needs, more where a score
    would read as its threshold, a change as none, or a row's change as other than its two
    scores' difference as printed or on the other side of its tolerance
    (``formats.agreeing_places``), as the reading's sentences are."""
    found: dict[str, tuple[list[int | None], int, float | None, list[float], list[Move]]] = {}
    for row in rows:
        for side in (row.before, row.now):
            if side is not None:
                if row.check not in found:
                    verdict = side.verdict
                    limit = millionths(verdict.threshold)
                    found[row.check] = ([], limit, verdict.tolerance or None, [], [])
                found[row.check][0].extend(side.figures)
        if row.delta is not None:
            found[row.check][3].append(row.delta)
            before, now = row.before, row.now
            if before is not None and now is not None:
                (was, *_), (score, *_) = before.figures, now.figures
                if was is not None and score is not None:
                    limit = millionths(now.verdict.tolerance)
                    found[row.check][4].append((was, score, millionths(row.delta), limit))
    return {
        check: agreeing_places(moved, change_places(changes, places_off(figures, limit, spread)))
        for check, (figures, limit, spread, changes, moved) in found.items()
    }
