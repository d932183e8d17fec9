"""A report's summary in GitHub-flavoured Markdown, for a pull request's comment or a CI job's
summary: the run's status, the checks that got worse against the run it is read against (or,
read alone, the checks that failed or could not be judged), and links to its pages on the
site where the site's address is known.

Its facts are the pages' own: the comparison's rows and counts, the run's tally, figures as
the page's language writes them. Every name is written as text: the characters that would
make markup of it (a link, emphasis, a column of a table, an entity) are escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from generator.document.redacted import RedactedRun
from generator.reading.checks import Check
from generator.reading.formats import Formats, formats
from generator.report.labels import REPORT
from generator.report.page import disclosed
from generator.report.subject import Subject
from generator.site.build import environment
from generator.site.cases import check_rows, tally
from generator.site.labels import LABELS
from generator.site.pages import Comparison, Site, comparison_places, side, verdict_counts
from generator.site.summary import status_of
from generator.site.writer import run_path

GLYPH = {"worse": "▼", "failed": "✗", "unjudged": "?", "passed": "✓"}
"""A status's glyph, as the site's badges show it."""

_MARKUP = re.compile(r"([\\`*_\[\]<>|~&])")
_SPACE = re.compile(r"\s+")


def text(value: str) -> str:
    """``value`` as Markdown that renders as that text, on one line."""
    return _MARKUP.sub(r"\\\1", _SPACE.sub(" ", value))


def unescaped(markdown: str) -> str:
    """``markdown`` with its backslash escapes undone: the text a reader sees."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def _table(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(text(c) for c in columns) + " |"]
    lines.append("|" + " --- |" * len(columns))
    lines += ["| " + " | ".join(text(cell) for cell in row) + " |" for row in rows]
    return lines


def markdown_summary(subject: Subject, locale: str) -> str:
    """The summary of ``subject`` in ``locale``."""
    compared = subject.compared()
    if subject.other is None or compared is None:
        lines = _alone(subject, locale)
    else:
        lines = _against(subject, subject.other, compared, locale)
    lines += _links(subject, locale)
    lines.append(text(disclosed(subject, Site(environment(), locale))))
    return "\n".join(lines) + "\n"


def _alone(subject: Subject, locale: str) -> list[str]:
    """A run read alone: its status, its tally, and the checks that did not pass."""
    t, f, run = LABELS[locale], formats(locale), subject.run
    passed, failed, errored = tally(run)
    status = status_of(failed, errored, subject.worse())
    judged = passed + failed
    rate = f"{f.share(passed / judged)} · " if judged else ""
    counts = t["summary.counts"].format(passed=passed, failed=failed, errored=errored)
    return [
        _heading(run, status, t[f"status.{status}"], f),
        "",
        text(rate + counts),
        "",
        *_not_passed(run, locale),
    ]


def _against(subject: Subject, other: RedactedRun, compared: Comparison, locale: str) -> list[str]:
    """A run against another: its status, how many checks moved which way, and the checks that
    got worse, both runs' scores beside each other."""
    t, r, f, run = LABELS[locale], REPORT[locale], formats(locale), subject.run
    _, failed, errored = tally(run)
    rows = compared.rows
    worse = [row for row in rows if row.verdict == "worse"]
    status = status_of(failed, errored, len(worse) if compared.reading else None)
    said = t[f"status.{status}"]
    if status == "worse" and subject.role == "previous":
        said = r["report.status.worse.previous"]
    role = t[f"diff.role.{subject.role}"]
    lines = [
        _heading(run, status, said, f),
        "",
        f"**{text(t['diff.this_run'])}**: {text(f.moment(run.created_at))} · "
        f"**{text(role)}**: {text(f.moment(other.created_at))}",
        "",
    ]
    if compared.reason is not None:
        return [*lines, text(t["diff.refused"].format(reason=compared.reason)), ""]
    lines += [text(" · ".join(counted for _, counted in verdict_counts(rows, t, f))), ""]
    if not worse:
        return [*lines, text(r["summary.none_worse"]), ""]
    digits = comparison_places(rows)
    table = _table(
        [t["column.case"], t["column.check"], role, t["diff.this_run"], t["column.change"]],
        (
            (
                row.case or t["where.run"],
                row.check,
                _side(row.before, digits[row.check], f),
                _side(row.now, digits[row.check], f),
                "" if row.delta is None else f.change(row.delta, digits[row.check]),
            )
            for row in worse
        ),
    )
    return [*lines, f"**{text(r['summary.worse'])}**", "", *table, ""]


def _heading(run: RedactedRun, status: str, said: str, f: Formats) -> str:
    named = f"{run.tenant} · {run.suite} · {f.moment(run.created_at)}"
    return f"### {GLYPH[status]} {text(named)}: {text(said)}"


def _side(check: Check | None, digits: int, f: Formats) -> str:
    """One run's side of a row, as the site's comparison page writes it, on one line."""
    shown = side(check, digits, f)
    if shown is None:
        return "—"
    return f"{shown.score} ({shown.interval})" if shown.interval else shown.score


def _not_passed(run: RedactedRun, locale: str) -> list[str]:
    """The checks of a run alone that failed or could not be judged, case by case."""
    t, r, f = LABELS[locale], REPORT[locale], formats(locale)
    digits = {row.name: row.places for row in check_rows(run)}
    found = [(case.case_id, verdict) for case in run.results for verdict in case.verdicts] + [
        (t["where.run"], verdict) for verdict in run.aggregate
    ]
    shown = [(case, v) for case, v in found if v.status != "pass"]
    if not shown:
        return [text(r["summary.all_passed"]), ""]
    rows = [
        (
            case,
            v.assertion,
            f.unknown if v.score is None else f.score(v.score, digits[v.assertion]),
            f.score(v.threshold, digits[v.assertion]),
            t[f"status.{v.status}"],
        )
        for case, v in shown
    ]
    columns = [t["column.case"], t["column.check"], t["column.score"], t["column.threshold"]]
    return [
        f"**{text(r['summary.not_passed'])}**",
        "",
        *_table([*columns, t["column.status"]], rows),
        "",
    ]


def _links(subject: Subject, locale: str) -> list[str]:
    """Links to the run's page, and to the comparison's where the site has one."""
    r, run, origin = REPORT[locale], subject.run, subject.origin
    pages = [(r["summary.run_page"], run_path(run.tenant, run.suite, run.key))]
    if subject.other is not None and subject.published:
        pages.insert(0, (r["summary.diff_page"], subject.path))
    links = [
        f"[{text(label)}](<{address}>)"
        for label, path in pages
        if (address := origin.address(locale, path)) is not None
    ]
    return [" · ".join(links), ""] if links else []
