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
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup

from generator.document.redacted import RedactedRun
from generator.reading import NotComparable, catalog, explain
from generator.reading.checks import Check
from generator.reading.facts import SECTIONS, Reading
from generator.reading.render import sentence
from generator.reading.table import Row, comparison_rows
from generator.site.cases import case_matrix, check_rows, step_text, tally, trajectories
from generator.site.charts import (
    STATUS_LETTER,
    Chart,
    compare_charts,
    history_chart,
    interval_chart,
    number,
    trend_chart,
)
from generator.site.labels import LABELS
from generator.site.readings import MARKED, alone, on_the_line
from generator.site.summary import RunSummary

LATEST = 12
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


@dataclass(frozen=True)
class Page:
    """A page of one language: its path under that language's folder, and its text."""

    path: str
    text: str


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


def _title(text: str) -> str:
    """A front-matter title: escaped as the theme prints it raw, quoted as YAML reads it (every
    character outside ASCII as ``\\u`` escapes, so no line break YAML knows can end it)."""
    return json.dumps(html.escape(text))


PER_CHECK = "check."
"""What a comparison page shows in its table rather than as sentences: every fact about one
check (how it moved, whether it is on the line)."""


def reading_sections(
    reading: Reading, locale: str, shown_elsewhere: str | None = None, instead: str | None = None
) -> list[tuple[str, list[str]]]:
    """The reading's facts under their headings, in ``locale``; facts whose kind starts with
    ``shown_elsewhere`` are left out, for the sentence ``instead`` where there were some."""
    phrases = catalog(locale)
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

    def home(self, suites: Sequence[SuiteRuns]) -> Page:
        rows = []
        for history in suites:
            latest = history.runs[-1]
            rows.append(
                {
                    "tenant": history.tenant,
                    "suite": history.suite,
                    "href": href("index.md", suite_path(history.tenant, history.suite)),
                    "latest_href": href(
                        "index.md", run_path(latest.tenant, latest.suite, latest.key)
                    ),
                    "latest_at": latest.created_at,
                    "summary": self.counts(latest.passed, latest.failed, latest.errored),
                    "trend": trend_chart(history.runs, self.t),
                }
            )
        newest = sorted(
            (run for h in suites for run in h.runs),
            key=lambda r: (r.created_at, r.key),
            reverse=True,
        )
        recent = [
            {
                "href": href("index.md", run_path(run.tenant, run.suite, run.key)),
                "created_at": run.created_at,
                "tenant": run.tenant,
                "suite": run.suite,
                "summary": self.counts(run.passed, run.failed, run.errored),
            }
            for run in newest[:LATEST]
        ]
        return self._markdown("home", "index.md", self.t["home.title"], suites=rows, latest=recent)

    def suite(self, history: SuiteRuns) -> Page:
        path = suite_path(history.tenant, history.suite)
        names = list(dict.fromkeys(p.check for run in history.runs for p in run.points))
        charts: list[tuple[str, Chart]] = [
            (name, history_chart(history.runs, name, self.t)) for name in names
        ]
        runs = [
            {
                "href": href(path, run_path(run.tenant, run.suite, run.key)),
                "created_at": run.created_at,
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
                "created_at": reference.created_at,
            }
            if reference
            else None
        )
        return self._markdown(
            "suite",
            path,
            f"{history.tenant} · {history.suite}",
            tenant=history.tenant,
            suite=history.suite,
            charts=charts,
            runs=runs,
            reference=shown_reference,
        )

    def run(self, run: RedactedRun, previous: str | None, reference: str | None) -> Body:
        """A run's page; ``previous`` and ``reference`` are the keys of the runs its
        comparison pages compare it with."""
        path = run_path(run.tenant, run.suite, run.key)
        names, cases = case_matrix(run)

        def compared(other: str | None) -> str | None:
            if other is None or other == run.key:
                return None
            return href(path, diff_path(run.tenant, run.suite, run.key, other))

        return self._body(
            "run",
            path,
            f"{run.suite} · {run.created_at}",
            run=run,
            summary=self.counts(*tally(run)),
            is_reference=run.key == reference,
            facts=self.header(run),
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            previous_href=compared(previous),
            reference_href=compared(reference),
            reading=reading_sections(alone(run), self.locale, MARKED, self.t["run.line_marked"]),
            checks=check_rows(run),
            intervals=interval_chart(run, self.t),
            check_names=names,
            cases=cases,
            trajectories=[
                (trajectory, [step_text(step, self.t) for step in trajectory.steps])
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
        title = t[f"diff.title.{role}"].format(suite=run.suite, run=run.created_at)
        reading = compared.reading
        rows = compared.rows
        counts = {verdict: sum(row.verdict == verdict for row in rows) for verdict in VERDICT_ORDER}
        marked = on_the_line(reading) if reading else set()
        return self._body(
            "diff",
            path,
            title,
            title=title,
            role=role,
            run=run,
            other=other,
            run_href=href(path, run_path(run.tenant, run.suite, run.key)),
            other_href=href(path, run_path(other.tenant, other.suite, other.key)),
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            reading=[
                (heading, sentences)
                for heading, sentences in reading_sections(reading, self.locale, PER_CHECK)
            ]
            if reading
            else [],
            refused=t["diff.refused"].format(reason=compared.reason) if compared.reason else None,
            counts=[(verdict, count) for verdict, count in counts.items() if count],
            rows=[
                {
                    "case": row.case or t["where.run"],
                    "check": row.check,
                    "before": _side(row.before),
                    "now": _side(row.now),
                    "change": "" if row.delta is None else f"{row.delta:+.6f}",
                    "verdict": "threshold" if row.threshold_moved else row.verdict,
                    "changed": row.verdict != "same",
                    "line": (row.case, row.check) in marked,
                }
                for row in rows
            ],
            charts=compare_charts(rows, t),
        )

    def header(self, run: RedactedRun) -> list[tuple[str, str]]:
        """The header facts of a run page, as (label, value) pairs."""
        t = self.t

        def config(parts: Any) -> str:
            shown = [
                *(parts.identities or ()),
                *(f"{k}={v}" for k, v in sorted((parts.values or {}).items())),
            ]
            return ", ".join(shown) or t["fact.none"]

        facts = [
            (t["fact.tenant"], run.tenant),
            (t["fact.suite"], run.suite),
            (t["fact.environment"], run.environment),
            (t["fact.created_at"], run.created_at),
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
                    f"{t['fact.target']}: {target.calls} · {number(target.spent_usd)} USD; "
                    f"{t['fact.judge']}: {judge.calls} · {number(judge.spent_usd)} USD",
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
    against the other, its table, or the reason the two cannot be compared."""

    reading: Reading | None
    rows: tuple[Row, ...]
    reason: str | None


def comparison(run: RedactedRun, other: RedactedRun) -> Comparison:
    """``run`` against ``other``."""
    try:
        return Comparison(explain(run, other), tuple(comparison_rows(run, other)), None)
    except NotComparable as reason:
        return Comparison(None, (), str(reason))


def _side(check: Check | None) -> dict[str, str] | None:
    """One run's side of a comparison row: its score, and its sampled interval if any."""
    if check is None:
        return None
    verdict = check.verdict
    interval = check.sampled
    return {
        "score": number(verdict.score),
        "interval": f"{number(interval[0])}–{number(interval[1])}" if interval else "",
        "status": STATUS_LETTER[verdict.status],
    }
