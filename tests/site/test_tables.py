"""The tables joined as strings (``site/tables.py``) say what one definition says: a comparison
page's row writes each side as the report's ``side`` does and its change as ``Formats.change``
(their difference as printed: ``places.agreeing_places``), and a run page's grid writes each
score as ``Formats.score`` at its check's decimals, in both languages, though their figures are
rounded once for the two."""

from __future__ import annotations

import re
from html import escape as html_escape

from hypothesis import HealthCheck, given, settings

from generator.account.run import account_of
from generator.document.redacted import RedactedRun
from generator.site.cases import case_anchor
from generator.site.labels import LOCALES
from generator.site.pages import Site, comparison, side
from generator.site.templates import environment
from tests._strategies import run_pairs
from tests.reading.test_true_as_read import true_as_read

SITES = [Site(environment(), locale) for locale in LOCALES]


def _body(html: str, opening: str) -> list[str]:
    """The rows of the table whose markup starts with ``opening``, one a line."""
    table = html.split(opening, 1)[1]
    return table.split("<tbody>\n", 1)[1].split("</tbody>", 1)[0].splitlines()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=run_pairs())
def test_a_comparison_row_says_each_side_as_the_report_does_and_its_change_reads_true(
    pair: tuple[RedactedRun, RedactedRun],
):
    before, now = pair
    compared = comparison(now, before)
    for site in SITES:
        html = site.diff(now, before, compared, "previous").html
        if compared.reason is not None:
            continue
        lines = _body(html, '<div class="runsite-compare">')
        assert len(lines) == len(compared.rows)
        assert compared.values is not None
        places = compared.values.places
        for line, row, digits in zip(lines, compared.rows, places, strict=True):
            cells = line.split("<td")[2:]
            for cell, check in zip(cells[:2], (row.before, row.now), strict=True):
                shown = side(check, digits, site.f)
                if shown is None:
                    assert cell == ">—"
                else:
                    sampled = f" <small>{shown.interval}</small>" if shown.interval else ""
                    assert cell == f" class={shown.status}>{shown.score}{sampled}"
            change = "" if row.delta is None else site.f.change(row.delta, digits)
            assert cells[2] == f">{change}"
            was, now_ = side(row.before, digits, site.f), side(row.now, digits, site.f)
            if row.delta is not None and was is not None and now_ is not None and row.now:
                tolerance = row.now.verdict.tolerance
                assert true_as_read(
                    was.score, now_.score, change, tolerance, row.delta, site.locale
                )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=run_pairs())
def test_a_case_grid_writes_each_score_at_its_checks_decimals(
    pair: tuple[RedactedRun, RedactedRun],
):
    run = pair[0]
    digits = {row.name: row.places for row in account_of(run).checks if not row.whole_run}
    names = list(dict.fromkeys(v.assertion for case in run.results for v in case.verdicts))
    for site in SITES:
        html = site.run(run, None, None, None).html
        lines = _body(html, '<div class="runsite-matrix">')
        assert len(lines) == len(run.results)
        for line, case in zip(lines, run.results, strict=True):
            if case.suspended:
                continue
            by_name = {v.assertion: v.score for v in case.verdicts}
            expected = []
            for name in names:
                score = by_name.get(name)
                expected.append("" if score is None else site.f.score(score, digits[name]))
            cells = line.split("<td")[1:]
            scores = [re.sub(r"<[^>]*>", "", re.sub(r"^[^>]*>", "", cell)) for cell in cells]
            assert scores == expected
            anchor = f'<a href="#{html_escape(case_anchor(case.case_id))}">'
            assert all(anchor in cell for cell in cells if not cell.startswith(" class=n"))
