"""The pages of the site, as markdown files, from redacted runs only.

Pure: given the archive's suites (each a history of ``RedactedRun``s and its reference) and a
locale, return every page. A page's body is raw HTML written by jinja2 with autoescaping, so a
name or a case id is always text, never markup. Page addresses are made of tenant, suite and
run key, so no later build moves a page a stakeholder was sent.
"""

from __future__ import annotations

import html
import json
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup

from generator.document.redacted import RedactedRun
from generator.reading import NotComparable, catalog, explain
from generator.reading.facts import SECTIONS, Reading
from generator.reading.render import sentence
from generator.site.cases import case_views, check_rows, tally
from generator.site.charts import Chart, history_chart, interval_chart, number, trend_chart
from generator.site.labels import LABELS

LATEST = 12
"""Runs listed on the home page."""


@dataclass(frozen=True)
class SuiteRuns:
    """One suite's history in the archive: runs oldest first, and its reference run's key."""

    tenant: str
    suite: str
    runs: tuple[RedactedRun, ...]
    reference: str | None


@dataclass(frozen=True)
class Page:
    """A page of one language: its path under that language's folder, and its markdown."""

    path: str
    text: str


def run_path(run: RedactedRun) -> str:
    return f"runs/{run.tenant}/{run.suite}/{run.key}.md"


def suite_path(tenant: str, suite: str) -> str:
    return f"suites/{tenant}/{suite}.md"


def diff_path(run: RedactedRun, other: RedactedRun) -> str:
    return f"diffs/{run.tenant}/{run.suite}/{run.key}/{other.key}.md"


def href(source: str, target: str) -> str:
    """A relative link from page ``source`` to page ``target`` (both page paths), as the
    site serves them: each page is a folder of its own."""

    def folder(path: str) -> str:
        stem = path.removesuffix(".md")
        return "" if stem == "index" else stem

    relative = posixpath.relpath(folder(target) or ".", folder(source) or ".")
    return "/".join(quote(part, safe="") for part in relative.split("/")) + "/"


def chart_json(spec: Mapping[str, Any]) -> Markup:
    """A chart spec for a ``<script type="application/json">``: nothing in it can close the tag."""
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _title(text: str) -> str:
    """A front-matter title: escaped as the theme prints it raw, quoted as YAML reads it (every
    character outside ASCII as ``\\u`` escapes, so no line break YAML knows can end it)."""
    return json.dumps(html.escape(text))


def verdicts_only(run: RedactedRun) -> RedactedRun:
    """``run`` without its recorded answers: what a suite's history and the home page read, at
    a fraction of the memory of a run whose every answer carries a trajectory."""
    return run.model_copy(
        update={"results": [case.model_copy(update={"responses": None}) for case in run.results]}
    )


def reading_sections(reading: Reading, locale: str) -> list[tuple[str, list[str]]]:
    """The reading's facts under their headings, in ``locale``."""
    phrases = catalog(locale)
    return [
        (
            phrases[f"heading.{section}"],
            [sentence(f, phrases) for f in reading.facts if f.section == section]
            or [phrases["nothing"]],
        )
        for section in SECTIONS[reading.scope]
    ]


class Site:
    """Renders every page of one language."""

    def __init__(self, environment: Environment, locale: str) -> None:
        self.locale = locale
        self.t = LABELS[locale]
        self.env = environment

    def run_pages(
        self, run: RedactedRun, previous: RedactedRun | None, reference: RedactedRun | None
    ) -> Iterator[Page]:
        """A run's page, and its comparisons with the previous run and with the reference."""
        yield self.run(run, previous, reference)
        for other in {
            id(o): o for o in (previous, reference) if o is not None and o is not run
        }.values():
            yield self.diff(run, other)

    def _render(self, template: str, path: str, heading: str, **values: Any) -> Page:
        page = self.env.get_template(f"pages/{template}.md")
        text = page.render(
            t=self.t, title_yaml=Markup(_title(heading)), chart_json=chart_json, **values
        )
        return Page(path, text)

    def summary(self, run: RedactedRun) -> str:
        passed, failed, errored = tally(run)
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
                    "latest_href": href("index.md", run_path(latest)),
                    "latest_at": latest.created_at,
                    "summary": self.summary(latest),
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
                "href": href("index.md", run_path(run)),
                "created_at": run.created_at,
                "tenant": run.tenant,
                "suite": run.suite,
                "summary": self.summary(run),
            }
            for run in newest[:LATEST]
        ]
        return self._render("home", "index.md", self.t["home.title"], suites=rows, latest=recent)

    def suite(self, history: SuiteRuns) -> Page:
        path = suite_path(history.tenant, history.suite)
        names = list(
            dict.fromkeys(
                v.assertion
                for run in history.runs
                for v in [*(v for case in run.results for v in case.verdicts), *run.aggregate]
            )
        )
        charts: list[tuple[str, Chart]] = [
            (name, history_chart(history.runs, name, self.t)) for name in names
        ]
        runs = [
            {
                "href": href(path, run_path(run)),
                "created_at": run.created_at,
                "summary": self.summary(run),
                "commit": (run.git_commit or self.t["fact.no_commit"])[:12],
                "config_hash": run.config_hash,
                "reference": run.key == history.reference,
            }
            for run in reversed(history.runs)
        ]
        reference = next((r for r in history.runs if r.key == history.reference), None)
        shown_reference = (
            {"href": href(path, run_path(reference)), "created_at": reference.created_at}
            if reference
            else None
        )
        title = f"{history.tenant} · {history.suite}"
        return self._render(
            "suite",
            path,
            title,
            tenant=history.tenant,
            suite=history.suite,
            charts=charts,
            runs=runs,
            reference=shown_reference,
        )

    def run(
        self,
        run: RedactedRun,
        previous: RedactedRun | None,
        reference: RedactedRun | None,
    ) -> Page:
        path = run_path(run)
        intervals = interval_chart(run, self.t)
        names, cases = case_views(run, self.t)
        return self._render(
            "run",
            path,
            f"{run.suite} · {run.created_at}",
            run=run,
            tenant=run.tenant,
            suite=run.suite,
            summary=self.summary(run),
            is_reference=reference is not None and run.key == reference.key,
            facts=self.header(run),
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            previous_href=href(path, diff_path(run, previous)) if previous else None,
            reference_href=href(path, diff_path(run, reference))
            if reference and reference is not run
            else None,
            reading=reading_sections(explain(run), self.locale),
            checks=check_rows(run),
            intervals=intervals,
            check_names=names,
            cases=cases,
            glyphs={"pass": "✓", "fail": "✗", "error": "?"},
            withheld=self.withheld(run),
            released=self.released(run),
        )

    def diff(self, run: RedactedRun, other: RedactedRun) -> Page:
        path = diff_path(run, other)
        title = self.t["diff.title"].format(run=run.created_at, other=other.created_at)
        try:
            sections, refused = reading_sections(explain(run, other), self.locale), None
        except NotComparable as reason:
            sections, refused = [], self.t["diff.refused"].format(reason=reason)
        return self._render(
            "diff",
            path,
            title,
            title=title,
            tenant=run.tenant,
            suite=run.suite,
            run_href=href(path, run_path(run)),
            run_at=run.created_at,
            other_href=href(path, run_path(other)),
            other_at=other.created_at,
            suite_href=href(path, suite_path(run.tenant, run.suite)),
            reading=sections,
            refused=refused,
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
