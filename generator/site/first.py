"""What a run or comparison page says before its tables: how the run went in one line, then
what got worse, failed or could not be judged, each named where the page shows it.

A reader who opens a page wants its verdict and the few things behind it; the tables, the
facts and the reading's sentences follow for the one who wants to see why. Every count and
figure here is the account's (``account.run``, ``account.comparison``); this only words them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from generator.account.comparison import Comparison
from generator.account.figures import CaseLine, CheckFigures
from generator.account.tally import Status
from generator.reading.formats import Formats
from generator.reading.plurals import worded
from generator.site.cases import case_anchor
from generator.site.tables import figures_of

LISTED = 8
"""The most names a line of the summary lists; the rest are counted ("and 4 more")."""

First = list[tuple[str, Markup]]
"""The summary's lines: each a status (its class) and its words."""


def _listed(items: Sequence[Markup], t: Mapping[str, str], f: Formats) -> Markup:
    """``items`` joined, the first ``LISTED`` of them, and how many more there are."""
    shown = Markup(", ").join(items[:LISTED])
    if len(items) > LISTED:
        shown += Markup(" ") + escape(worded(t, "first.more", len(items) - LISTED, f))
    return shown


def _line(label: str, items: Sequence[Markup], t: Mapping[str, str], f: Formats) -> Markup:
    return Markup("<b>{}</b> {}").format(t[label], _listed(items, t, f))


def run_first(
    status: Status,
    worse: int | None,
    reference: str | None,
    checks: Sequence[CheckFigures],
    cases: Sequence[CaseLine],
    t: Mapping[str, str],
    f: Formats,
) -> First:
    """A run's summary: how many checks got worse than its reference (a link to that
    comparison, at ``reference``), the checks that failed and on how many cases, the cases
    that failed (each a link to its place on the page), and those not judged."""
    lines: First = []
    if worse and reference is not None:
        counted = escape(worded(t, "first.worse", worse, f))
        lines.append(("worse", Markup('<a href="{}">{}</a>').format(reference, counted)))

    def by_check(count: str) -> list[Markup]:
        found = [c for c in checks if getattr(c.counts, count)]
        found.sort(key=lambda c: -getattr(c.counts, count))
        return [
            escape(
                t["first.whole_run"].format(check=c.name)
                if c.whole_run
                else worded(t, "first.on_cases", getattr(c.counts, count), f, check=c.name)
            )
            for c in found
        ]

    def case_links(went: str) -> list[Markup]:
        return [
            Markup('<a href="#{}">{}</a>').format(case_anchor(line.case), line.case)
            for line in cases
            if line.status == went
        ]

    for count, went, label in (("failed", "failed", "failed"), ("unjudged", "unjudged", "error")):
        named = by_check(count)
        if named:
            lines.append((label, _line(f"first.checks.{went}", named, t, f)))
        linked = case_links(went)
        if linked:
            lines.append((label, _line(f"first.cases.{went}", linked, t, f)))
    if not lines and status == "passed":
        lines.append(("passed", escape(t["first.all_passed"])))
    return lines


def compared_first(compared: Comparison, cases_at: str, t: Mapping[str, str], f: Formats) -> First:
    """A comparison's summary: each check that got worse (case, check, score before and now),
    then each that could not be judged, each case a link to its place on the run's page
    (``cases_at``); or that none got worse."""
    lines: First = []
    for verdict in ("worse", "unjudged"):
        items = []
        for row, places in zip(compared.rows, compared.places, strict=True):
            if row.verdict != verdict:
                continue
            before, now = figures_of(row.before, places), figures_of(row.now, places)
            moved = ""
            if before is not None and now is not None:
                moved = f" {before.written(places, f)[0]} → {now.written(places, f)[0]}"
            where = (
                Markup('<a href="{}#{}">{}</a> · ').format(
                    cases_at, case_anchor(row.case), row.case
                )
                if row.case
                else escape(t["where.run"]) + Markup(" · ")
            )
            items.append(where + escape(row.check + moved))
        if items:
            lines.append((verdict, _line(f"first.rows.{verdict}", items, t, f)))
    if not any(css == "worse" for css, _ in lines):
        lines.insert(0, ("same", escape(t["first.none_worse"])))
    return lines
