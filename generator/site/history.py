"""The pages over the archive's history, made from run summaries: the home page, each
suite's page and the pages of its older runs, and the search entries of runs and cases."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from generator.account.tally import STATUSES, Status
from generator.reading.formats import needs_seconds
from generator.reading.plurals import worded
from generator.site.cases import CASE_STATUS, case_anchor
from generator.site.charts import Chart, history_axis, history_chart, rate_chart, sparkline
from generator.site.shell import placeholder_markdown
from generator.site.summary import CheckKey, RunSummary
from generator.site.writer import (
    Body,
    Page,
    Writer,
    board_path,
    cases_path,
    href,
    older_path,
    page_address,
    run_path,
    suite_path,
    yaml_title,
)

LATEST = 12
"""Runs listed on the home page: the newest of every suite's newest ``LATEST``."""
TREND = 30
"""Runs the home page's trend of each suite shows."""
RECENT = 100
"""Runs a suite's page, its cases page, its board page and the site's search of its cases span:
its newest, so that what one more run makes them cost does not grow with the suite's history.
(``runsite board`` and ``report --board`` read the whole history.)"""
BLOCK = 100
"""Runs a page of a suite's older runs holds: block ``n`` the ``n``th hundred in the order they
arrived, so that a full block's page is written once and kept, as a run's page is."""
CASE_LETTER = {"passed": "p", "failed": "f", "unjudged": "e", "set_aside": "s"}
"""How a suite's grid of cases styles a case's status (``CaseStatus``)."""
GRID = 10
"""Runs a suite page's grid of cases shows, newest first."""


@dataclass(frozen=True)
class SuiteRuns:
    """One suite's history in the archive: its runs' summaries oldest first, and its reference
    run's key."""

    tenant: str
    suite: str
    runs: Sequence[RunSummary]
    """Oldest first; a build reads them when a page asks (``publish.suites.Stored``)."""
    reference: str | None
    worse: Mapping[str, int] = field(default_factory=dict)
    """For each run with a reference other than itself, by key: its checks worse than it."""
    keys: Sequence[str] = ()
    """Its runs' keys, in the same order (from ``runs`` where not given)."""
    created: Sequence[str] = ()
    """When each of its runs was measured (its ``created_at``), in the same order (from
    ``runs`` where not given): what a link to a block of older runs shows of it, known without
    reading the block's summaries."""

    def __post_init__(self) -> None:
        if not self.keys:
            object.__setattr__(self, "keys", tuple(run.key for run in self.runs))
        if not self.created:
            object.__setattr__(self, "created", tuple(run.created_at for run in self.runs))

    @property
    def reference_run(self) -> RunSummary | None:
        """Its reference run's summary, where it has one among its runs."""
        if self.reference not in self.keys:
            return None
        return self.runs[len(self.keys) - 1 - self.keys[::-1].index(self.reference)]

    @property
    def heading(self) -> str:
        """The suite as its pages, the home page and the search name it."""
        return f"{self.tenant} · {self.suite}"

    @property
    def recent(self) -> tuple[RunSummary, ...]:
        """Its newest runs, those its pages span (``RECENT``), oldest first: taken from its
        runs each time, not kept, as a build holds only the summaries of the pages it is
        making (``publish.suites.Stored``)."""
        return tuple(self.runs[-RECENT:])

    @property
    def blocks(self) -> int:
        """How many full blocks of ``BLOCK`` runs it has, each with a page of its own."""
        return len(self.runs) // BLOCK

    def block(self, n: int) -> tuple[RunSummary, ...]:
        """The runs of block ``n``, oldest first."""
        return tuple(self.runs[n * BLOCK : (n + 1) * BLOCK])

    @property
    def targets(self) -> int:
        """How many targets its recent runs measured: a suite of more than one has a board."""
        return len({run.target for run in self.recent})

    def status(self, run: RunSummary) -> Status:
        """A run's status at a glance (``Tally.status``)."""
        return run.tally.status(self.worse.get(run.key))


SHORT_COMMIT = 12
"""The characters of a commit's hash a table of runs shows (its exact value one hover away)."""


def short_commit(commit: str) -> str:
    """A commit as a table of runs shows it: its hash cut to ``SHORT_COMMIT`` characters, and
    ``-dirty`` kept where the code measured had uncommitted changes. Only a hash is ever cut:
    a label is a sentence, and a cut sentence says something else."""
    digest = commit.removesuffix("-dirty")
    return digest[:SHORT_COMMIT] + commit[len(digest) :]


def _entry(location: str, title: str, text: str) -> dict[str, str]:
    """An entry of the search index, as the theme reads one: title and text are HTML."""
    return {"location": location, "title": html.escape(title), "text": html.escape(text)}


class HistoryPages(Writer):
    """The pages of one language made from summaries."""

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
                    "rate": self.rate_noted(latest.tally.verdicts),
                    "trend": sparkline([run.tally.verdicts.rate for run in recent]),
                    "trend_label": worded(self.t, "home.trend", len(recent), self.f),
                }
            )
        rows.sort(key=lambda row: (STATUSES.index(row["status"]), row["tenant"], row["suite"]))
        newest = sorted(
            ((history, run) for history in suites for run in history.runs[-LATEST:]),
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
                "rate": self.rate_noted(run.tally.verdicts),
            }
            for history, run in shown
        ]
        title = self.t["home.title"]
        body = self._body("home", "index.md", title, suites=rows, latest=recent_runs).html
        return Page("index.md", placeholder_markdown(yaml_title(title)), body)

    def suite(self, history: SuiteRuns, body: str | None = None) -> Page:
        """A suite's page; ``body`` is its article as this code wrote it for the same history
        before, which a build keeps (a suite page at a thousand runs is 50 ms to write)."""
        body = self.suite_body(history) if body is None else body
        return Page(
            suite_path(history.tenant, history.suite),
            placeholder_markdown(yaml_title(history.heading)),
            body,
        )

    def suite_body(self, history: SuiteRuns) -> str:
        """A suite's article: its recent runs' charts, those runs, its reference, its cases'
        grid, and the pages of its older runs."""
        path = suite_path(history.tenant, history.suite)
        recent = history.recent
        keys = list(dict.fromkeys((c.whole_run, c.name) for run in recent for c in run.checks))
        axis = history_axis(recent, self.t, self.f)
        charts: list[tuple[str, Chart]] = [
            (self.t["suite.rate"], rate_chart(recent, axis, self.t)),
            *(
                (self.check_heading(key, keys), history_chart(recent, key, axis, self.t))
                for key in keys
            ),
        ]
        reference = history.reference_run
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
            history.heading,
            tenant=history.tenant,
            suite=history.suite,
            status=history.status(latest),
            rate=self.rate_noted(latest.tally.verdicts),
            charts=charts,
            runs=self.run_rows(history, recent, path, axis.seconds),
            reference=shown_reference,
            grid=self.case_grid(history, path),
            board_href=href(path, board_path(history.tenant, history.suite))
            if history.targets > 1
            else None,
            older=[self.older_link(history, n, path) for n in reversed(range(history.blocks))],
            older_note=self.counted("suite.older.note", len(recent), block=self.f.count(BLOCK)),
        ).html

    def run_rows(
        self, history: SuiteRuns, runs: Sequence[RunSummary], path: str, seconds: bool
    ) -> list[dict[str, Any]]:
        """The rows of a table of ``runs`` on the page at ``path``, newest first."""
        return [
            {
                "href": href(path, run_path(run.tenant, run.suite, run.key)),
                "created_at": self.when_short(run.created_at, seconds),
                "status": history.status(run),
                "rate": self.rate(run.tally.verdicts),
                "commit": run.git_commit and short_commit(run.git_commit),
                "exact_commit": run.git_commit,
                "config_hash": run.config_hash,
                "reference": run.key == history.reference,
            }
            for run in reversed(runs)
        ]

    def older_span(self, history: SuiteRuns, n: int) -> Markup:
        """When the first and the last run of block ``n`` were measured."""
        first, last = history.created[n * BLOCK], history.created[(n + 1) * BLOCK - 1]
        return escape(self.t["older.span"]).format(start=self.when(first), end=self.when(last))

    def older_label(self, n: int) -> str:
        """Block ``n`` as a link names it: the places of its first and last runs."""
        return self.t["older.runs"].format(
            first=self.f.count(n * BLOCK + 1), last=self.f.count((n + 1) * BLOCK)
        )

    def older_link(self, history: SuiteRuns, n: int, path: str) -> dict[str, Any]:
        """Block ``n`` as the page at ``path`` lists it."""
        return {
            "href": href(path, older_path(history.tenant, history.suite, n)),
            "label": self.older_label(n),
            "span": self.older_span(history, n),
        }

    def older(self, history: SuiteRuns, n: int) -> Body:
        """The page of block ``n`` of the suite's runs. It names only what no later run
        changes: its runs, the block before it, and the suite's page, which lists the newer
        ones."""
        path = older_path(history.tenant, history.suite, n)
        runs = history.block(n)
        title = self.t["older.title"].format(
            suite=history.heading,
            first=self.f.count(n * BLOCK + 1),
            last=self.f.count((n + 1) * BLOCK),
        )
        seconds = needs_seconds([run.created_at for run in runs])
        return self._body(
            "older",
            path,
            title,
            title=title,
            suite=history.heading,
            suite_href=href(path, suite_path(history.tenant, history.suite)),
            span=self.older_span(history, n),
            before={
                "href": href(path, older_path(history.tenant, history.suite, n - 1)),
                "label": self.older_label(n - 1),
            }
            if n
            else None,
            runs=self.run_rows(history, runs, path, seconds),
        )

    def check_heading(self, key: CheckKey, keys: list[CheckKey]) -> str:
        """A check's name on a suite's page; a whole-run check that shares its name with a
        check of the cases says so."""
        whole_run, name = key
        if whole_run and (False, name) in keys:
            return f"{name} · {self.t['where.run']}"
        return name

    def search_home(self, suites: Sequence[SuiteRuns]) -> dict[str, str]:
        """The home page's entry of the search index (mkdocs indexes none of runsite's pages),
        by its suites: the first entry, before each suite's (``search_suite``)."""
        names = [history.heading for history in suites]
        return _entry("", self.t["home.title"], " ".join(names))

    def search_runs(self, history: SuiteRuns, runs: Sequence[RunSummary]) -> list[dict[str, str]]:
        """What the search finds of ``runs``, one entry a run (by suite, date, key and status):
        the index grows with the archive, not its square. The theme shows an entry's title and
        text as HTML, so they are escaped, and its location is a link, so quoted."""
        entries = []
        for run in runs:
            status = self.t[f"status.{history.status(run)}"]
            entries.append(
                _entry(
                    page_address(run_path(run.tenant, run.suite, run.key)),
                    f"{run.suite} · {self.f.moment(run.created_at)}",
                    f"{run.tenant} {run.suite} {run.key} {status}",
                )
            )
        return entries

    def search_suite(self, history: SuiteRuns) -> list[dict[str, str]]:
        """What the search finds of a suite besides its runs: the suite (by the checks of its
        recent runs) and each case those runs measured, at its place on the page of the suite's
        cases (by its id and its latest status)."""
        recent = history.recent
        suite = page_address(suite_path(history.tenant, history.suite))
        checks = dict.fromkeys(c.name for run in recent for c in run.checks)
        entries = [
            _entry(suite, history.heading, " ".join([history.tenant, history.suite, *checks]))
        ]
        latest = dict(recent[-1].cases)
        cases_at = page_address(cases_path(history.tenant, history.suite))
        cases = dict.fromkeys(case for run in reversed(recent) for case, _ in run.cases)
        for case in cases:
            went = latest.get(case)
            status = f" · {self.t[CASE_STATUS[went]]}" if went else ""
            entries.append(
                _entry(
                    f"{cases_at}#{case_anchor(case)}",
                    f"{case} · {history.heading}",
                    f"{self.t['column.case']} {case} · {history.tenant} {history.suite}{status}",
                )
            )
        return entries

    def case_grid(self, history: SuiteRuns, path: str) -> dict[str, Any]:
        """Each case of the suite's recent runs, how it went in each (newest first), each cell a
        link to the case's place on that run's page, each case a link to its history, and
        whether it went both ways between runs of one target under the same rules: a flaky case
        shows at a glance, and a case that one model passes and another fails is no sign of
        it."""
        recent = list(reversed(history.runs[-GRID:]))
        cases = list(dict.fromkeys(case for run in recent for case, _ in run.cases))
        went = [dict(run.cases) for run in recent]
        links = [href(path, run_path(run.tenant, run.suite, run.key)) for run in recent]
        cases_at = href(path, cases_path(history.tenant, history.suite))
        rows = []
        for case in cases:
            went_in = [by_case.get(case) for by_case in went]
            anchor = "#" + case_anchor(case)
            cells = [
                (CASE_LETTER[status], f"{link}{anchor}") if status else ("", "")
                for status, link in zip(went_in, links, strict=True)
            ]
            judged: dict[tuple[str, str], set[str]] = {}
            for run, status in zip(recent, went_in, strict=True):
                if status in ("passed", "failed"):
                    judged.setdefault((run.target, run.config_hash), set()).add(status)
            rows.append(
                {
                    "case": case,
                    "anchor": case_anchor(case),
                    "href": cases_at + anchor,
                    "cells": cells,
                    "flaky": any(len(both) == 2 for both in judged.values()),
                }
            )
        seconds = needs_seconds([run.created_at for run in recent])
        columns = [
            {
                "href": link,
                "created_at": self.when_short(run.created_at, seconds),
                "title": self.f.moment(run.created_at),
            }
            for run, link in zip(recent, links, strict=True)
        ]
        return {"columns": columns, "rows": rows}
