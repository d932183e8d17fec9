"""A report's summary in GitHub-flavoured Markdown, for a pull request's comment or a CI job's
summary: the run's status, the checks that got worse against the run it is read against (or,
read alone, the checks that failed or could not be judged), and links to its pages on the
site where the site's address is known.

Its facts are the pages' own: the comparison's rows and counts, the run's tally, figures as
the page's language writes them. Its words are escaped where they would make markup (a link,
emphasis, a column of a table, an entity). Every name (a tenant's, a suite's, a case's, a
check's, the disclosure's, a run's key in a refusal) is written in a code span: GitHub makes
links, mentions, references to issues and commits, and emoji of the text it renders, after
any escape is undone, and passes code by. A summary longer than GitHub takes in a comment is
cut at a row of its table, and says how many rows it left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from generator.account.checks import Check
from generator.account.run import account_of
from generator.document.redacted import RedactedRun
from generator.reading.facts import Fact
from generator.reading.formats import Formats, formats
from generator.reading.locales import Phrases, catalog
from generator.reading.plurals import worded
from generator.reading.render import sentence
from generator.report.labels import REPORT
from generator.report.page import disclosed
from generator.report.subject import Subject
from generator.site.labels import LABELS
from generator.site.pages import ComparisonPage, Site, side, verdict_counts
from generator.site.templates import environment
from generator.site.writer import counts, rate_text, run_path

GLYPH = {"worse": "▼", "failed": "✗", "unjudged": "?", "passed": "✓"}
"""A status's glyph, as the site's badges show it."""

LIMIT = 65_536
"""The most characters GitHub takes in a comment's body: it refuses a longer one whole."""

_MARKUP = re.compile(r"([\\`*_\[\]<>|~&])")
_SPACE = re.compile(r"\s+")
_TICKS = re.compile("`+")


def text(value: str) -> str:
    """``value`` as Markdown that renders as that text, on one line."""
    return _MARKUP.sub(r"\\\1", _SPACE.sub(" ", value))


def name(value: str, cell: bool = False) -> str:
    """``value``, a name, as Markdown that shows it as it is, on one line: a code span, fenced
    with one backtick more than its longest run of them, and padded with a space where it
    begins or ends with one (or with a space at both ends, which the span would drop). In a
    table's ``cell``, its ``|`` escaped, as GFM splits the row before it reads the span."""
    flat = _SPACE.sub(" ", value)
    if not flat:
        return ""
    fence = "`" * (1 + max(map(len, _TICKS.findall(flat)), default=0))
    padded = "`" in (flat[0], flat[-1]) or (flat[0] == flat[-1] == " " and bool(flat.strip()))
    pad = " " if padded else ""
    shown = flat.replace("|", "\\|") if cell else flat
    return f"{fence}{pad}{shown}{pad}{fence}"


def unescaped(markdown: str) -> str:
    """``markdown`` with its backslash escapes undone: the text a reader sees."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def length(markdown: str) -> int:
    """``markdown``'s length as a browser counts a comment's, in UTF-16 code units: a character
    past the Basic Multilingual Plane (most emoji) counts twice, so it is never under GitHub's
    count."""
    return len(markdown.encode("utf-16-le")) // 2


def _table(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> tuple[list[str], list[str]]:
    """A table's header and its rows, of cells already written as Markdown (a column's name is
    a label, written here)."""
    header = ["| " + " | ".join(text(c) for c in columns) + " |", "|" + " --- |" * len(columns)]
    return header, ["| " + " | ".join(row) + " |" for row in rows]


Parts = tuple[list[str], list[str]]
"""A summary's lines down to its table's header (all of them where it has no table), and the
table's rows."""


def markdown_summary(subject: Subject, locale: str) -> str:
    """The summary of ``subject`` in ``locale``, no longer than ``LIMIT``."""
    compared = subject.compared()
    if subject.other is None or compared is None:
        top, rows = _alone(subject, locale)
    else:
        top, rows = _against(subject, subject.other, compared, locale)
    site = Site(environment(), locale)
    end = [*_links(subject, locale), disclosed(subject, site, text, name)]
    return _fitted(top, rows, end, locale)


def _fitted(top: list[str], rows: list[str], end: list[str], locale: str) -> str:
    """The summary's lines, with as many of the table's ``rows`` as fit in ``LIMIT`` and, where
    some do not, a line after the table saying how many were left out."""

    def joined(shown: list[str], cut: list[str]) -> str:
        table = [*shown, ""] if rows else []
        return "\n".join([*top, *table, *cut, *end]) + "\n"

    whole = joined(rows, [])
    if length(whole) <= LIMIT:
        return whole
    room = LIMIT - length(joined([], _cut(len(rows), locale)))
    kept = 0
    for row in rows:
        room -= length(row) + 1
        if room < 0:
            break
        kept += 1
    return joined(rows[:kept], _cut(len(rows) - kept, locale))


def _cut(left_out: int, locale: str) -> list[str]:
    """The line saying how many rows were left out (the longest where ``left_out`` is the
    most that may be), and the blank line after it."""
    r, f = REPORT[locale], formats(locale)
    return [text(worded(r, "summary.cut", left_out, f, limit=f.count(LIMIT))), ""]


def _alone(subject: Subject, locale: str) -> Parts:
    """A run read alone: its status, its tally, and the checks that did not pass."""
    t, f, run = LABELS[locale], formats(locale), subject.run
    tally = account_of(run).tally
    status = tally.status(subject.worse())
    rate = rate_text(tally.verdicts, f)
    said = counts(tally.verdicts, t, f)
    top, rows = _not_passed(run, locale)
    return [
        _heading(run, status, t[f"status.{status}"], f),
        "",
        text(f"{rate} · {said}" if rate else said),
        "",
        *top,
    ], rows


def _against(subject: Subject, other: RedactedRun, compared: ComparisonPage, locale: str) -> Parts:
    """A run against another: its status, how many checks moved which way, and the checks that
    got worse, both runs' scores beside each other."""
    t, r, f, run = LABELS[locale], REPORT[locale], formats(locale), subject.run
    places = compared.values.places if compared.values else ()
    worse = [
        (row, n) for row, n in zip(compared.rows, places, strict=True) if row.verdict == "worse"
    ]
    status = account_of(run).tally.status(compared.worse)
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
    if compared.reason is not None:  # it names the runs by key, and the rules that moved
        return [*lines, text(t["diff.refused"]).format(reason=name(compared.reason)), ""], []
    lines += [text(" · ".join(counted for _, counted in verdict_counts(compared.counts, t, f))), ""]
    lines += _chance(compared, locale)
    if not worse:
        return [*lines, text(r["summary.none_worse"]), ""], []
    header, table = _table(
        [t["column.case"], t["column.check"], role, t["diff.this_run"], t["column.change"]],
        (
            (
                name(row.case, cell=True) if row.case else text(t["where.run"]),
                name(row.check, cell=True),
                text(_side(row.before, digits, f)),
                text(_side(row.now, digits, f)),
                "" if row.delta is None else text(f.change(row.delta, digits)),
            )
            for row, digits in worse
        ),
    )
    return [*lines, f"**{text(r['summary.worse'])}**", "", *header], table


def _chance(compared: ComparisonPage, locale: str) -> list[str]:
    """The reading's words on whether the runs differ beyond chance, as the comparison page
    says them: a heading and a line for each."""
    facts = [f for f in compared.reading.facts if f.section == "chance"] if compared.reading else []
    if not facts:
        return []
    phrases = catalog(locale)
    return [f"**{text(phrases['heading.chance'])}**", "", *(_said(f, phrases) for f in facts), ""]


def _said(fact: Fact, phrases: Phrases) -> str:
    """A fact of the reading as a line of the summary: its prose as text, each name in it (a
    check, a case) a code span, which no autolink or mention reaches."""
    names = {k: v for k, v in fact.params.items() if isinstance(v, str)}
    held = {k: f"RUNSITENAME{n}X" for n, k in enumerate(names)}
    line = text(sentence(fact._replace(params={**fact.params, **held}), phrases))
    for key, token in held.items():
        line = line.replace(token, name(names[key]))
    return f"- {line}"


def _heading(run: RedactedRun, status: str, said: str, f: Formats) -> str:
    named = f"{name(run.tenant)} · {name(run.suite)} · {text(f.moment(run.created_at))}"
    return f"### {GLYPH[status]} {named}: {text(said)}"


def _side(check: Check | None, digits: int, f: Formats) -> str:
    """One run's side of a row, as the site's comparison page writes it, on one line."""
    shown = side(check, digits, f)
    if shown is None:
        return "—"
    return f"{shown.score} ({shown.interval})" if shown.interval else shown.score


def _not_passed(run: RedactedRun, locale: str) -> Parts:
    """The checks of a run alone that failed or could not be judged, case by case."""
    t, r, f = LABELS[locale], REPORT[locale], formats(locale)
    digits = {(c.whole_run, c.name): c.places for c in account_of(run).checks}
    found = [
        (name(case.case_id, cell=True), False, verdict)
        for case in run.results
        for verdict in case.verdicts
    ] + [(text(t["where.run"]), True, verdict) for verdict in run.aggregate]
    shown = [(case, whole, v) for case, whole, v in found if v.status != "pass"]
    if not shown:
        return [text(r["summary.all_passed"]), ""], []
    rows = [
        (
            case,
            name(v.assertion, cell=True),
            text(f.unknown if v.score is None else f.score(v.score, digits[whole, v.assertion])),
            text(f.score(v.threshold, digits[whole, v.assertion])),
            text(t[f"status.{v.status}"]),
        )
        for case, whole, v in shown
    ]
    columns = [t["column.case"], t["column.check"], t["column.score"], t["column.threshold"]]
    header, table = _table([*columns, t["column.status"]], rows)
    return [f"**{text(r['summary.not_passed'])}**", "", *header], table


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
