"""One word for each idea: the reading's catalogs and the site's labels use the glossary's terms,
and none of the words it rejects, in either language."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import generator.reading.locales
from generator.reading import CATALOGS
from generator.reading.formats import UNKNOWN
from generator.site.labels import LABELS

GLOSSARY = Path(generator.reading.locales.__file__).with_name("GLOSSARY.md")
LANGUAGES = ("en", "it")


@dataclass(frozen=True)
class Term:
    idea: str
    forms: dict[str, list[str]]
    rejected: dict[str, list[str]]


def _words(cell: str) -> list[str]:
    return [w.strip() for w in cell.split(",") if w.strip()]


def _rejected(cell: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {language: [] for language in LANGUAGES}
    for part in filter(None, (p.strip() for p in cell.split(";"))):
        language, _, words = part.partition(":")
        found[language.strip()] += _words(words)
    return found


def glossary() -> list[Term]:
    """The rows of the glossary's table."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| ---")
    ]
    assert rows[0] == ["Idea", "English", "Italian", "Not used", "Why"]
    return [
        Term(idea, {"en": _words(en), "it": _words(it)}, _rejected(rejected))
        for idea, en, it, rejected, _ in rows[1:]
    ]


def written(language: str, extra: dict[str, str] | None = None) -> str:
    """Everything a reader is shown in ``language`` in words: the reading's phrases, the
    site's labels and the word for a figure not on record; placeholders left out."""
    phrases = [*CATALOGS[language].values(), *LABELS[language].values(), UNKNOWN[language]]
    phrases += (extra or {}).values()
    return re.sub(r"\{[^}]*\}", " ", "\n".join(phrases))


def uses(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE) is not None


def rejected_in(text: str, language: str) -> list[tuple[str, str]]:
    return [
        (term.idea, word)
        for term in glossary()
        for word in term.rejected[language]
        if uses(text, word)
    ]


def test_the_glossary_names_each_idea_once_with_a_term_in_both_languages():
    terms = glossary()
    assert len(terms) >= 30
    assert len({t.idea for t in terms}) == len(terms)
    assert all(t.forms["en"] and t.forms["it"] for t in terms)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_term_of_the_glossary_is_the_one_the_catalogs_use(language):
    text = written(language)
    unused = [t.idea for t in glossary() if not any(uses(text, f) for f in t.forms[language])]
    assert unused == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_uses_a_word_the_glossary_rejects(language):
    assert rejected_in(written(language), language) == []


@pytest.mark.parametrize(
    ("language", "phrase", "found"),
    [
        ("it", "{count} controlli non valutati.", ("A check with no score", "non valutati")),
        ("en", "Failed, unjudged and set aside", ("A check with no score", "unjudged")),
        ("it", "Il file {path} è sotto test.", ("A file the suite", "sotto test")),
    ],
)
def test_the_gate_finds_a_rejected_synonym_added_to_a_catalog(language, phrase, found):
    [(idea, word)] = rejected_in(written(language, {"added": phrase}), language)
    assert (idea.startswith(found[0]), word) == (True, found[1])
