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
from generator.reading.facts import SECTIONS, Reading
from generator.reading.render import sentence
from generator.site.cases import case_matrix, check_rows, step_text, tally, trajectories
from generator.site.charts import Chart, history_chart, interval_chart, number, trend_chart
from generator.site.labels import LABELS
from generator.site.readings import MARKED, alone
from generator.site.summary import RunSummary

LATEST = 12
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


def reading_sections(
    reading: Reading, locale: str, marked: str | None = None
) -> list[tuple[str, list[str]]]:
    """The reading's facts under their headings, in ``locale``; facts of kind ``MARKED`` are
    left out for a sentence ``marked`` that says where they are shown instead."""
    phrases = catalog(locale)
    sections = []
    for section in SECTIONS[reading.scope]:
        facts = [f for f in reading.facts if f.section == section]
        sentences = [sentence(f, phrases) for f in facts if marked is None or f.kind != MARKED]
        if marked is not None and len(sentences) < len(facts):
            sentences.append(marked)
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
            reading=reading_sections(alone(run), self.locale, self.t["run.line_marked"]),
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

    def diff(
        self, run: RedactedRun, other: RedactedRun, compared: tuple[Reading | None, str | None]
    ) -> Body:
        """The page comparing ``run`` with ``other``, from their ``comparison``."""
        reading, reason = compared
        path = diff_path(run.tenant, run.suite, run.key, other.key)
        title = self.t["diff.title"].format(run=run.created_at, other=other.created_at)
        return self._body(
            "diff",
            path,
            title,
            title=title,
            tenant=run.tenant,
            suite=run.suite,
            run_href=href(path, run_path(run.tenant, run.suite, run.key)),
            run_at=run.created_at,
            other_href=href(path, run_path(other.tenant, other.suite, other.key)),
            other_at=other.created_at,
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            reading=reading_sections(reading, self.locale) if reading else [],
            refused=self.t["diff.refused"].format(reason=reason) if reason else None,
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


def comparison(run: RedactedRun, other: RedactedRun) -> tuple[Reading | None, str | None]:
    """The reading of ``run`` against ``other`` (computed once for both languages), or the
    reason the two cannot be compared."""
    try:
        return explain(run, other), None
    except NotComparable as reason:
        return None, str(reason)
