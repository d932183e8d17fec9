"""Two outputs of one run say the same thing: a suite page's row and the run's own page, the
run page's header and its reading, the page and the report, over the real runs of this
repository and of the corpus."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest

from generator.document.redacted import RedactedRun
from generator.site.build import environment
from generator.site.history import SHORT_COMMIT, SuiteRuns
from generator.site.labels import LABELS, LOCALES
from generator.site.pages import Site
from generator.site.summary import summarise
from tests._helpers import a_corpus_run
from tests.conftest import CORPUS

REPOSITORY = Path(__file__).resolve().parents[2]


@cache
def runs() -> tuple[RedactedRun, ...]:
    """This repository's demo runs and every digline document of the corpus, redacted."""
    paths = sorted((REPOSITORY / "runs").rglob("*.json")) + sorted(
        (CORPUS / "digline").glob("*.json")
    )
    return tuple(a_corpus_run(path) for path in paths)


@cache
def site(locale: str) -> Site:
    return Site(environment(), locale)


def _header(run: RedactedRun, locale: str) -> dict[str, str]:
    """The run page's header facts, as text."""
    said = site(locale).header(run)
    return {label: html.unescape(re.sub(r"<[^>]+>", "", str(value))) for label, value in said}


def _commit_cells(runs: tuple[RedactedRun, ...], locale: str) -> list[str]:
    """The commit column of a suite page listing ``runs`` (newest first), as text."""
    first = runs[0]
    body = site(locale).suite_body(
        SuiteRuns(first.tenant, first.suite, tuple(summarise(r) for r in runs), None)
    )
    table = body.split(f"<th>{LABELS[locale]['column.commit']}</th>", 1)[1]
    rows = table.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    return [html.unescape(re.sub(r"<[^>]+>", "", row.split("<td>")[4])).strip() for row in rows]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_suite_page_shortens_a_runs_commit_hash_and_nothing_else_its_page_says(locale: str):
    commit = LABELS[locale]["fact.commit"]
    no_commit = runs()[0].model_copy(update={"git_commit": None})
    for run in (*runs(), no_commit):
        (cell,) = _commit_cells((run,), locale)
        said = _header(run, locale)[commit]
        if run.git_commit is None:
            assert cell == said == LABELS[locale]["fact.no_commit"]
        else:
            digest = said.removesuffix("-dirty")
            assert cell == digest[:SHORT_COMMIT] + said[len(digest) :], run.key
