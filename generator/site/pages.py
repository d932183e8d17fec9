"""The pages of the site, from redacted runs and run summaries only.

Home and suite pages are markdown for mkdocs (they sit in the navigation and the search
index); run and comparison pages are HTML bodies that a shell of the theme's wraps (see
``shell``). Either way a page's markup is written by jinja2 with autoescaping, so a name or a
case id is always text, never markup. Page addresses are made of tenant, suite and run key, so
no later build moves a page a stakeholder was sent.
"""

from __future__ import annotations

import html
import json
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup

from generator.document.redacted import RedactedRun
from generator.reading import NotComparable, catalog, explain
from generator.reading.checks import Check
from generator.reading.facts import SECTIONS, Reading
from generator.reading.formats import (
    Formats,
    change_places,
    formats,
    needs_seconds,
    threshold_places,
)
from generator.reading.locales import against_previous
from generator.reading.render import sentence
from generator.reading.table import Row, comparison_rows
from generator.site.cases import (
    Trajectory,
    case_anchor,
    case_matrix,
    check_rows,
    step_text,
    tally,
    trajectories,
)
from generator.site.charts import (
    STATUS_LETTER,
    Chart,
    compare_charts,
    history_chart,
    interval_chart,
    sparkline,
)
from generator.site.labels import LABELS
from generator.site.readings import MARKED, alone, on_the_line
from generator.site.shell import page_address, placeholder_markdown
from generator.site.summary import RunSummary, status_of

LATEST = 12
TREND = 30
"""Runs the home page's trend of each suite shows."""
GRID = 10
"""Runs a suite page's grid of cases shows, newest first."""
STATUS_ORDER = ("worse", "failed", "unjudged", "passed")
"""A run's statuses, the one a reader should look at first first."""
VERDICT_ORDER = ("worse", "unjudged", "rules", "new", "gone", "counted", "better", "same")
"""How a comparison page counts its rows: what a reader looks for first."""
"""Runs listed on the home page."""


@dataclass(frozen=True)
class SuiteRuns:
    """One suite's history in the archive: its runs' summaries oldest first, and its reference
    run's key."""

    tenant: str
    suite: str
    runs: tuple[RunSummary, ...]
    reference: str | None
    worse: Mapping[str, int] = field(default_factory=dict)
    """For each run with a reference other than itself, by key: its checks worse than it."""

    def status(self, run: RunSummary) -> str:
        """A run's status at a glance (``status_of``)."""
        return status_of(run.failed, run.errored, self.worse.get(run.key))


@dataclass(frozen=True)
class Page:
    """A page of one language: its path under that language's folder, and its text."""

    path: str
    text: str
    body: str | None = None
    """The article's HTML where runsite writes it itself: ``text`` is then a placeholder mkdocs
    renders in the navigation, and the body goes in after (Python-Markdown's pass over raw
    HTML costs seconds on a suite page of a thousand runs, and finds nothing to do)."""


def run_path(tenant: str, suite: str, key: str) -> str:
    return f"runs/{tenant}/{suite}/{key}.md"


def suite_path(tenant: str, suite: str) -> str:
    return f"suites/{tenant}/{suite}.md"


def diff_path(tenant: str, suite: str, key: str, other: str) -> str:
    return f"diffs/{tenant}/{suite}/{key}/{other}.md"


def href(source: str, target: str) -> str:
    """A relative link from page ``source`` to page ``target`` (both page paths), as the
    site serves them: each page is a folder of its own."""

    def folder(path: str) -> str:
        stem = path.removesuffix(".md")
        return "" if stem == "index" else stem

    relative = posixpath.relpath(folder(target) or ".", folder(source) or ".")
    return "/".join(quote(part, safe="") for part in relative.split("/")) + "/"


def chart_json(data: Mapping[str, Any]) -> Markup:
    """Chart data for a ``<script type="application/json">``: nothing in it can close the tag."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def verdict_counts(
    rows: Sequence[Row], labels: Mapping[str, str], figures: Formats
) -> list[tuple[str, str]]:
    """How many rows of a comparison have each verdict, said as the language says a count
    ("1 peggiorato", "4 peggiorati"), in the order a reader looks for them; none for a verdict
    no row has."""
    counts = ((v, sum(row.verdict == v for row in rows)) for v in VERDICT_ORDER)
    return [
        (v, f"{figures.count(n)} {labels[('verdict.' if n == 1 else 'verdicts.') + v]}")
        for v, n in counts
        if n
    ]


def _entry(location: str, title: str, text: str) -> dict[str, str]:
    """An entry of the search index, as the theme reads one: title and text are HTML."""
    return {"location": location, "title": html.escape(title), "text": html.escape(text)}


def _title(text: str) -> str:
    """A front-matter title: escaped as the theme prints it raw, quoted as YAML reads it (every
    character outside ASCII as ``\\u`` escapes, so no line break YAML knows can end it)."""
    return json.dumps(html.escape(text))


PER_CHECK = "check."
"""What a comparison page shows in its table rather than as sentences: every fact about one
check (how it moved, whether it is on the line)."""


def reading_sections(
    reading: Reading,
    locale: str,
    shown_elsewhere: str | None = None,
    instead: str | None = None,
    previous: bool = False,
) -> list[tuple[str, list[str]]]:
    """The reading's facts under their headings, in ``locale``; facts whose kind starts with
    ``shown_elsewhere`` are left out, for the sentence ``instead`` where there were some. A
    reading against the run before (``previous``) names it so rather than "the reference"."""
    phrases = against_previous(locale) if previous else catalog(locale)
    sections = []
    for section in SECTIONS[reading.scope]:
        facts = [f for f in reading.facts if f.section == section]
        kept = [f for f in facts if not (shown_elsewhere and f.kind.startswith(shown_elsewhere))]
        sentences = [sentence(f, phrases) for f in kept]
        if instead is not None and len(kept) < len(facts):
            sentences.append(instead)
        if sentences or len(kept) == len(facts):
            sections.append((phrases[f"heading.{section}"], sentences or [phrases["nothing"]]))
    return sections


@dataclass(frozen=True)
class Body:
    """A run or comparison page before its shell: its title and the article's HTML."""

    path: str
    title: str
    html: str


class Site:
    """Renders every page of one language."""

    def __init__(self, environment: Environment, locale: str) -> None:
        self.locale = locale
        self.t = LABELS[locale]
        self.f = formats(locale)
        self.env = environment

    def _markdown(self, template: str, path: str, heading: str, **values: Any) -> Page:
        page = self.env.get_template(f"pages/{template}.md")
        text = page.render(
            t=self.t, title_yaml=Markup(_title(heading)), chart_json=chart_json, **values
        )
        return Page(path, text)

    def _body(self, template: str, path: str, heading: str, **values: Any) -> Body:
        page = self.env.get_template(f"pages/{template}.html")
        return Body(path, heading, page.render(t=self.t, chart_json=chart_json, **values))

    def counts(self, passed: int, failed: int, errored: int) -> str:
        return self.t["summary.counts"].format(passed=passed, failed=failed, errored=errored)

    def rate(self, passing: float | None) -> str:
        """A pass rate: the share of judged verdicts that passed; nothing when none was."""
        return "" if passing is None else self.f.share(passing)

    def when(self, iso: str) -> Markup:
        """A moment as the language writes it, its exact value one hover away."""
        return Markup('<time datetime="{0}" title="{0}">{1}</time>').format(iso, self.f.moment(iso))

    def when_short(self, iso: str, seconds: bool) -> Markup:
        """A moment in a table or on an axis."""
        return Markup('<time datetime="{0}" title="{0}">{1}</time>').format(
            iso, self.f.moment_short(iso, seconds)
        )

    def cost(self, usage: Any) -> str:
        """What a side of a run cost: unknown where no call was priced, a floor where some
        were not."""
        if usage.counted == 0:
            return self.f.unknown
        spent = self.f.money(usage.spent_usd)
        if usage.counted < usage.calls:
            return self.t["fact.cost_partial"].format(
                money=spent, counted=self.f.count(usage.counted), calls=self.f.count(usage.calls)
            )
        return spent

    def home(self, suites: Sequence[SuiteRuns]) -> Page:
        """Every suite in one table, the ones that got worse or failed first, each with its
        latest status, pass rate and trend; then the latest runs."""
        rows = []
        seconds = needs_seconds([history.runs[-1].created_at for history in suites])
        for history in suites:
            latest = history.runs[-1]
            recent = history.runs[-TREND:]
            rows.append(
                {
                    "tenant": history.tenant,
                    "suite": history.suite,
                    "href": href("index.md", suite_path(history.tenant, history.suite)),
                    "latest_href": href(
                        "index.md", run_path(latest.tenant, latest.suite, latest.key)
                    ),
                    "latest_at": self.when_short(latest.created_at, seconds),
                    "status": history.status(latest),
                    "rate": self.rate(latest.passing),
                    "trend": sparkline([run.passing for run in recent]),
                    "trend_label": self.t["home.trend"].format(count=len(recent)),
                }
            )
        rows.sort(key=lambda row: (STATUS_ORDER.index(row["status"]), row["tenant"], row["suite"]))
        newest = sorted(
            ((history, run) for history in suites for run in history.runs),
            key=lambda pair: (pair[1].created_at, pair[1].key),
            reverse=True,
        )
        shown = newest[:LATEST]
        seconds = needs_seconds([run.created_at for _, run in shown])
        recent_runs = [
            {
                "href": href("index.md", run_path(run.tenant, run.suite, run.key)),
                "created_at": self.when_short(run.created_at, seconds),
                "tenant": run.tenant,
                "suite": run.suite,
                "status": history.status(run),
                "rate": self.rate(run.passing),
            }
            for history, run in shown
        ]
        return self._markdown(
            "home", "index.md", self.t["home.title"], suites=rows, latest=recent_runs
        )

    def suite(self, history: SuiteRuns, body: str | None = None) -> Page:
        """A suite's page; ``body`` is its article as this code wrote it for the same history
        before, which a build keeps (a suite page at a thousand runs is 50 ms to write)."""
        path = suite_path(history.tenant, history.suite)
        heading = f"{history.tenant} · {history.suite}"
        if body is None:
            body = self._suite_body(history, path, heading)
        return Page(path, placeholder_markdown(_title(heading)), body)

    def _suite_body(self, history: SuiteRuns, path: str, heading: str) -> str:
        names = list(dict.fromkeys(p.check for run in history.runs for p in run.points))
        charts: list[tuple[str, Chart]] = [
            (name, history_chart(history.runs, name, self.t, self.f)) for name in names
        ]
        seconds = needs_seconds([run.created_at for run in history.runs])
        runs = [
            {
                "href": href(path, run_path(run.tenant, run.suite, run.key)),
                "created_at": self.when_short(run.created_at, seconds),
                "status": history.status(run),
                "rate": self.rate(run.passing),
                "summary": self.counts(run.passed, run.failed, run.errored),
                "commit": (run.git_commit or self.t["fact.no_commit"])[:12],
                "config_hash": run.config_hash,
                "reference": run.key == history.reference,
            }
            for run in reversed(history.runs)
        ]
        reference = next((r for r in history.runs if r.key == history.reference), None)
        shown_reference = (
            {
                "href": href(path, run_path(reference.tenant, reference.suite, reference.key)),
                "created_at": self.when(reference.created_at),
            }
            if reference
            else None
        )
        latest = history.runs[-1]
        return self._body(
            "suite",
            path,
            heading,
            tenant=history.tenant,
            suite=history.suite,
            status=history.status(latest),
            rate=self.rate(latest.passing),
            charts=charts,
            runs=runs,
            reference=shown_reference,
            grid=self.case_grid(history, path),
        ).html

    def search_entries(self, suites: Sequence[SuiteRuns]) -> list[dict[str, str]]:
        """What the search finds beyond the pages mkdocs indexes: each suite (by its checks),
        each run (by suite, date, key and status) and each case id of a suite's latest run, at
        its row of the suite's grid. One entry a run and a case: the index grows with the
        archive, not its square. The theme shows an entry's title and text as HTML, so they are
        escaped, and its location is a link, so quoted."""
        entries = []
        for history in suites:
            for run in history.runs:
                status = self.t[f"status.{history.status(run)}"]
                entries.append(
                    _entry(
                        page_address(run_path(run.tenant, run.suite, run.key)),
                        f"{run.suite} · {self.f.moment(run.created_at)}",
                        f"{run.tenant} {run.suite} {run.key} {status}",
                    )
                )
            suite = page_address(suite_path(history.tenant, history.suite))
            checks = dict.fromkeys(p.check for run in history.runs for p in run.points)
            entries.append(
                _entry(
                    suite,
                    f"{history.tenant} · {history.suite}",
                    " ".join([history.tenant, history.suite, *checks]),
                )
            )
            for case, _ in history.runs[-1].cases:
                entries.append(
                    _entry(
                        f"{suite}#{case_anchor(case)}",
                        case,
                        f"{self.t['column.case']} {case} · {history.tenant} {history.suite}",
                    )
                )
        return entries

    def case_grid(self, history: SuiteRuns, path: str) -> dict[str, Any]:
        """Each case of the suite's recent runs, how it went in each (newest first), and
        whether it went both ways: a flaky case shows at a glance."""
        recent = list(reversed(history.runs[-GRID:]))
        cases = list(dict.fromkeys(case for run in recent for case, _ in run.cases))
        went = [dict(run.cases) for run in recent]
        rows = []
        for case in cases:
            cells = [by_case.get(case, "") for by_case in went]
            judged = {cell for cell in cells if cell in ("p", "f")}
            rows.append(
                {
                    "case": case,
                    "anchor": case_anchor(case),
                    "href": href(path, run_path(history.tenant, history.suite, recent[0].key))
                    + "#"
                    + case_anchor(case),
                    "cells": cells,
                    "flaky": len(judged) == 2,
                }
            )
        seconds = needs_seconds([run.created_at for run in recent])
        columns = [
            {
                "href": href(path, run_path(run.tenant, run.suite, run.key)),
                "created_at": self.when_short(run.created_at, seconds),
            }
            for run in recent
        ]
        return {"columns": columns, "rows": rows}

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
        digits = {row.name: row.places for row in check_rows(run)}

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
            cases=[
                case
                | {
                    "cells": [
                        (
                            cell[0],
                            self.f.score(cell[1], digits[name]) if cell[1] is not None else "",
                        )
                        if cell
                        else None
                        for name, cell in zip(names, case["cells"], strict=True)
                    ]
                }
                for case in cases
            ],
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
        rows = compared.rows
        marked = on_the_line(reading) if reading else set()
        digits = compared.places
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
            counts=verdict_counts(rows, t, self.f),
            rows=[
                {
                    "case": row.case or t["where.run"],
                    "check": row.check,
                    "before": self._side(row.before, digits[row.check]),
                    "now": self._side(row.now, digits[row.check]),
                    "change": ""
                    if row.delta is None
                    else self.f.change(row.delta, digits[row.check]),
                    "verdict": "threshold" if row.threshold_moved else row.verdict,
                    "changed": row.verdict != "same",
                    "line": (row.case, row.check) in marked,
                }
                for row in rows
            ],
            charts=compare_charts(rows, t),
        )

    def _side(self, check: Check | None, digits: int) -> dict[str, str] | None:
        """One run's side of a comparison row: its score, and its sampled range if any."""
        if check is None:
            return None
        verdict = check.verdict
        interval = check.sampled
        score = "" if verdict.score is None else self.f.score(verdict.score, digits)
        return {
            "score": score or self.f.unknown,
            "interval": f"{self.f.score(interval[0], digits)}–{self.f.score(interval[1], digits)}"
            if interval
            else "",
            "status": STATUS_LETTER[verdict.status],
        }

    def trajectory_figures(self, trajectory: Trajectory) -> str:
        """How many answers took a trajectory, and their time and tokens where recorded."""
        t, f = self.t, self.f
        one = trajectory.answers == 1
        said = [
            t["trajectory.answer" if one else "trajectory.answers"].format(
                count=f.count(trajectory.answers)
            )
        ]
        if trajectory.latency:
            low, median, high = trajectory.latency
            if low == high:
                said.append(t["trajectory.latency.one"].format(latency=f.latency(median)))
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
        """What the page does not show, named so a reader knows it exists."""
        t = self.t
        answers = sum(len(case.responses or ()) for case in run.results)
        lines = [t["withheld.reasons"], t["withheld.metadata"]]
        if answers:
            lines.insert(0, t["withheld.responses"].format(count=answers))
        if any(r.steps or r.tool_calls for case in run.results for r in case.responses or ()):
            lines.append(t["withheld.arguments"])
        if any(label.startswith("tool #") for case in run.results for label in case.tool_labels()):
            lines.append(t["withheld.tool_names"])
        hidden = [path for path, artifact in run.artifacts.items() if artifact.withheld]
        if hidden:
            lines.append(t["withheld.artifacts"].format(count=len(hidden)))
        names = sorted({*(run.target_config.withheld or ()), *(run.judge_config.withheld or ())})
        if names:
            lines.append(t["withheld.config"].format(names=", ".join(names)))
        return lines

    def released(self, run: RedactedRun) -> list[str]:
        """What the disclosure released on this page."""
        t, d = self.t, run.disclosure
        lines = []
        if d.run_metadata:
            lines.append(t["released.run_metadata"].format(names=", ".join(d.run_metadata)))
        if d.score_metadata:
            lines.append(t["released.score_metadata"].format(names=", ".join(d.score_metadata)))
        if d.artifacts:
            lines.append(t["released.artifacts"].format(names=", ".join(d.artifacts)))
        if d.tool_names is True:
            lines.append(t["released.tool_names.all"])
        elif d.tool_names:
            lines.append(t["released.tool_names"].format(names=", ".join(d.tool_names)))
        return lines


@dataclass(frozen=True)
class Comparison:
    """What a comparison page shows, made once for both languages: the reading of the run
    against the other, its table and the decimals of each check's figures, or the reason the
    two cannot be compared."""

    reading: Reading | None
    rows: tuple[Row, ...]
    reason: str | None
    places: Mapping[str, int] = field(default_factory=dict)


def comparison(run: RedactedRun, other: RedactedRun) -> Comparison:
    """``run`` against ``other``."""
    try:
        rows = tuple(comparison_rows(run, other))
        return Comparison(explain(run, other), rows, None, comparison_places(rows))
    except NotComparable as reason:
        return Comparison(None, (), str(reason))


def comparison_places(rows: Sequence[Row]) -> dict[str, int]:
    """Decimals for each check of a comparison: as its tolerance needs, more where a score
    would read as its threshold or a change as none."""
    found: dict[str, tuple[list[float], float, float | None, list[float]]] = {}
    for row in rows:
        for side in (row.before, row.now):
            if side is not None:
                verdict = side.verdict
                values, _, _, _ = found.setdefault(
                    row.check, ([], verdict.threshold, verdict.tolerance or None, [])
                )
                values += [
                    v
                    for v in (verdict.score, verdict.sample_min, verdict.sample_max)
                    if v is not None
                ]
        if row.delta is not None:
            found[row.check][3].append(row.delta)
    return {
        check: change_places(changes, threshold_places(values, threshold, tolerance))
        for check, (values, threshold, tolerance, changes) in found.items()
    }
