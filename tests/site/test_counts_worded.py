"""Every count is worded as its language words it, by CLDR's plural rules: one label, in the
form its count takes, wherever a count is said (the site's pages, the report's summary, the
reading), over every real run this repository and the corpus hold."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest

from generator.document.redacted import RedactedRun
from generator.reading import explain, text
from generator.reading.formats import formats
from generator.reading.locales import CATALOGS
from generator.reading.plurals import CATEGORIES, category, plural, worded
from generator.report.labels import REPORT
from generator.report.markdown import markdown_summary
from generator.report.subject import Origin, Subject
from generator.site.history import SuiteRuns
from generator.site.labels import LABELS, LOCALES
from generator.site.look import Look
from generator.site.pages import Site
from generator.site.summary import summarise
from generator.site.templates import environment
from tests._helpers import a_corpus_run
from tests.conftest import CORPUS

REPOSITORY = Path(__file__).resolve().parents[2]

WRONG = {
    "en": re.compile(
        r"(?<![\d.,])1 (answers|files|runs|cases|verdicts|calls|rows|annotations|reasons)\b"
    ),
    "it": re.compile(
        r"(?<![\d.,])1 (risposte|esecuzioni|casi|verdetti|chiamate|righe|annotazioni|"
        r"motivazioni|superati|non superati|non giudicati|peggiorati|migliorati|nuovi|"
        r"scomparsi)\b"
    ),
}
"""A count of one with its noun in the plural, in each language."""


@cache
def runs() -> tuple[RedactedRun, ...]:
    """This repository's demo runs and every digline document of the corpus, redacted."""
    paths = sorted((REPOSITORY / "runs").rglob("*.json")) + sorted(
        (CORPUS / "digline").glob("*.json")
    )
    return tuple(a_corpus_run(path) for path in paths)


def _said(page: str) -> str:
    """A page's text, as a reader reads it."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _misworded(said: str, locale: str) -> list[str]:
    return sorted({found[0] for found in WRONG[locale].finditer(said)})


@pytest.mark.parametrize("locale", LOCALES)
def test_no_page_or_reading_of_a_real_run_says_one_with_a_plural_noun(locale: str):
    site = Site(environment(), locale)
    misworded = {}
    for run in runs():
        said = _said(site.run(run, None, None, None).html) + text(explain(run), locale)
        summary = Subject(run, None, None, None, None, Origin("runs", locale, Look()))
        said += markdown_summary(summary, locale)
        if found := _misworded(said, locale):
            misworded[run.key] = found
    assert misworded == {}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_home_page_of_a_suite_with_one_run_says_its_trend_is_of_that_run(locale: str):
    run = runs()[0]
    site = Site(environment(), locale)
    page = site.home([SuiteRuns(run.tenant, run.suite, (summarise(run),), None)])
    home = html.unescape(page.body or "")
    assert _misworded(home, locale) == []
    assert f'aria-label="{LABELS[locale]["home.trend.one"]}"' in home


def test_one_is_its_own_form_and_a_million_is_italian_many_which_falls_back_to_other():
    assert [category(n, "en") for n in (0, 1, 2, 1_000_000)] == ["other", "one", "other", "other"]
    assert [category(n, "it") for n in (0, 1, 2, 1_000_000)] == ["other", "one", "other", "many"]
    it = formats("it")
    assert worded(LABELS["it"], "trajectory.answers", 1, it) == "1 risposta"
    assert worded(LABELS["it"], "trajectory.answers", 1_000_000, it) == "1.000.000 risposte"
    assert worded(LABELS["en"], "trajectory.answers", 1_000_000, formats("en")) == (
        "1,000,000 answers"
    )
    assert plural({"k.other": "other", "k.many": "many"}, "k", 2_000_000, "it") == "many"


CATALOGUES = {
    "site": LABELS,
    "report": REPORT,
    "reading": {locale: dict(CATALOGS[locale]) for locale in LOCALES},
}


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_every_label_that_words_a_count_has_a_form_for_one_and_for_other(name: str):
    # A count that a word follows takes that word's number; one after a colon does not.
    for locale, labels in CATALOGUES[name].items():
        plain = sorted(k for k, v in labels.items() if _COUNTED.search(v) and _form(k) is None)
        assert plain == [], locale
        forms: dict[str, set[str]] = {}
        for key in labels:
            if (form := _form(key)) is not None:
                forms.setdefault(key.removesuffix(f".{form}"), set()).add(form)
        assert {key: {"one", "other"} - found for key, found in forms.items()} == {
            key: set() for key in forms
        }, locale


_COUNTED = re.compile(r"\{count\} \w")


def _form(key: str) -> str | None:
    last = key.rsplit(".", 1)[-1]
    return last if last in CATEGORIES else None
