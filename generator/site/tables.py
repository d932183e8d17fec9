"""The tables of a page with a row or a cell for each check, joined as strings.

A comparison page's table has a row for each check of each case (180 in the bench's shape, of
seven figures each), and a run page's case grid a cell: jinja2 spends more on each cell (an
escape, a lookup, a test) than the cell holds, so their rows are joined here from pieces
escaped once, and the page's template places them. What does not depend on the language
(which rows, their classes, their figures rounded to their check's decimals) is made once for
both languages: a comparison's whole table (``Table``), whose figures each language's
``Formats`` finishes with its decimal mark and signs; a case grid's cells, whose figures each
language writes, digits and marks, with nothing to escape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from markupsafe import Markup, escape

from generator.account.chance import Chance
from generator.account.charts import STATUS_LETTER
from generator.account.checks import Check
from generator.account.figures import CaseLine, Cell
from generator.account.places import SMALLEST_P, at_places, millionths, p_places, rounded
from generator.account.rows import Row
from generator.account.significance import ALPHA, Within
from generator.reading.formats import Formats, marked_change
from generator.reading.formats import marked as figure
from generator.site.cases import case_anchor


class Figures(NamedTuple):
    """One run's side of a compared row, rounded to the row's decimals (in millionths): its
    status letter, its score (None where it could not be judged) and its sampled range."""

    status: str
    score: int | None
    interval: tuple[int, int] | None

    def written(self, places: int, figures: Formats) -> tuple[str, str]:
        """The score (or ``unknown``) and the sampled range (or nothing), as ``figures``'s
        language writes them."""
        score = figures.unknown if self.score is None else figures.rounded(self.score, places)
        if self.interval is None:
            return score, ""
        low, high = self.interval
        return score, f"{figures.rounded(low, places)}–{figures.rounded(high, places)}"


def figures_of(check: Check | None, places: int) -> Figures | None:
    """``check``'s side of a row at ``places`` decimals; None where the run has no such check."""
    if check is None:
        return None
    score, low, high = check.figures
    return Figures(
        STATUS_LETTER[check.verdict.status],
        None if score is None else at_places(score, places),
        None if low is None or high is None else (at_places(low, places), at_places(high, places)),
    )


class Table(NamedTuple):
    """A comparison page's table in no language yet: its rows' markup, its figures ``marked``,
    and a numbered field (``str.format``) where each language writes a label, with the keys of
    those labels (``UNKNOWN`` for a score the run could not judge)."""

    markup: str
    labels: tuple[str, ...]

    def written(self, labels: Mapping[str, str], figures: Formats) -> Markup:
        """The rows in the language of ``labels`` and ``figures``."""
        said = [escape(figures.unknown if k == UNKNOWN else labels[k]) for k in self.labels]
        return Markup(figures.unmarked(self.markup).format(*said))


UNKNOWN = ""
"""The key of the field where a language writes that a figure is not known."""

NO_TABLE = Table("", ())
"""The table of a comparison refused."""


def compared_table(
    rows: Sequence[Row],
    places: Sequence[int],
    marked: set[tuple[str, str]],
    chance: Chance,
    cases_at: str,
) -> Table:
    """The rows of a comparison, each at its decimals (``Comparison.places``), written once for
    both languages, each case a link to its place on the run's page (``cases_at``): a side as ``pages.side`` writes it (``Figures.written``) and a change as
    ``Formats.rounded_change`` does;
    ``marked`` are the (case, check) pairs on the line; a case's row ends with the p of its
    samples where ``chance`` tested them, and the test's name. A table of 180 rows writes some 1,300
    figures, which each language used to write again."""
    names: dict[str, str] = {}
    keys: dict[str, str] = {}

    def label(key: str) -> str:
        if key not in keys:
            keys[key] = f"{{{len(keys)}}}"
        return keys[key]

    def named(name: str) -> str:
        if name not in names:  # a name is on a row of each of its checks or cases
            names[name] = escape(name).replace("{", "{{").replace("}", "}}")
        return names[name]

    def case(name: str) -> str:
        link = f"{cases_at}#{case_anchor(name)}".replace("{", "{{").replace("}", "}}")
        return f'<a href="{escape(link)}">{named(name)}</a>'

    def side(check: Check | None, digits: int) -> str:
        if check is None:
            return "<td>—"
        score, low, high = check.figures
        shown = label(UNKNOWN) if score is None else figure(at_places(score, digits), digits)
        cell = f"<td class={STATUS_LETTER[check.verdict.status]}>{shown}"
        if low is None or high is None:
            return cell
        low, high = at_places(low, digits), at_places(high, digits)
        return f"{cell} <small>{figure(low, digits)}–{figure(high, digits)}</small>"

    lines = []
    for row, digits in zip(rows, places, strict=True):
        verdict = "threshold" if row.threshold_moved else row.verdict
        change = "" if row.delta is None else marked_change(rounded(row.delta, digits), digits)
        lines.append(
            f"<tr{' class=same' if row.verdict == 'same' else ''}>"
            f"<th scope=row>{case(row.case) if row.case else label('where.run')}"
            f"<td>{named(row.check)}"
            f"{side(row.before, digits)}{side(row.now, digits)}<td>{change}"
            f'<td class="runsite-verdict {verdict}">'
            f"{'◐ ' if (row.case, row.check) in marked else ''}{label('verdict.' + verdict)}"
            f"<td>{tested(chance.within(row.case, row.check))}\n"
        )
    return Table("".join(lines), tuple(keys))


def tested(test: Within | None) -> str:
    """The p of a case's samples ``marked`` (``< 0.001`` below a thousandth), and the test's
    name, which is the same in every language; nothing where they were not tested."""
    if test is None:
        return ""
    if test.p < SMALLEST_P:
        p = f"&lt; {figure(millionths(SMALLEST_P), 3)}"
    else:
        digits = p_places(test.p, ALPHA)
        p = figure(rounded(test.p, digits), digits)
    return f"{p} <small>{TESTS[test.test]}</small>"


TESTS = {"fisher": "Fisher", "mann_whitney": "Mann–Whitney"}
"""Each test of a case's samples by the name it goes by in every language."""


def case_rows(
    lines: Sequence[CaseLine], width: int, labels: Mapping[str, str], figures: Formats
) -> Markup:
    """The rows of a run page's case grid of ``width`` checks, in the language of ``labels``
    and ``figures``, each cell a link to its case's place on the page (``cases.case_views``). A cell's class is its status letter, ``l`` after it where its samples
    straddle its threshold, and nothing for a pass off the line, the commonest cell by far."""
    suspended = f'<td class=s colspan="{width}">{escape(labels["status.suspended"])}'

    def cell(shown: Cell | None, link: str) -> str:
        if shown is None:
            return "<td class=n>"
        letter = STATUS_LETTER[shown.status]
        css = f"{letter}l" if shown.on_the_line else "" if letter == "p" else letter
        text = "" if shown.score is None else figures.rounded(shown.score, shown.places)
        return f"<td class={css}>{link}{text}</a>" if css else f"<td>{link}{text}</a>"

    rows = []
    for line in lines:
        link = f'<a href="#{escape(case_anchor(line.case))}">'
        cells = (
            suspended
            if line.status == "set_aside"
            else "".join(cell(shown, link) for shown in line.cells)
        )
        rows.append(f"<tr><th scope=row>{link}{escape(line.case)}</a>{cells}\n")
    return Markup("".join(rows))
