"""The site's own labels and terms: the same keys and placeholders in both languages, written in
each, and held to the same gate as the reading (no advice, no talk of other runs)."""

from __future__ import annotations

import re
import string

from generator.site import labels, terms
from generator.site.labels import LABELS
from tests._vocabulary import ADVICE

EN, IT = LABELS["en"], LABELS["it"]


def test_a_page_word_and_a_term_never_share_a_key():
    assert labels.EN.keys().isdisjoint(terms.EN)
    assert labels.IT.keys().isdisjoint(terms.IT)


def _placeholders(label: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(label) if name]


def test_english_and_italian_labels_have_the_same_keys_and_placeholders():
    assert EN.keys() == IT.keys()
    assert {k: _placeholders(v) for k, v in EN.items()} == {
        k: _placeholders(v) for k, v in IT.items()
    }


def test_the_italian_labels_are_written_in_italian_not_copied():
    copied = [k for k, v in IT.items() if v == EN[k] and re.search(r"[a-z]{4,}", v)]
    # "Suite", "Commit" and "Schema" are the words Italian teams use for these things.
    assert copied == ["fact.suite", "fact.commit", "fact.schema", "column.suite", "column.commit"]


def _advice(labels: dict[str, str], locale: str) -> list[tuple[str, str]]:
    return [
        (key, word)
        for key, label in sorted(labels.items())
        for word in ADVICE[locale]
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", label, re.IGNORECASE)
    ]


def test_no_label_in_either_language_gives_advice():
    # Unlike a single run's reading, a suite page is about history: only advice is banned here.
    assert _advice(EN, "en") == []
    assert _advice(IT, "it") == []


def test_the_gate_catches_advice_added_to_a_label():
    assert _advice(EN | {"run.facts": "You should look at this run"}, "en") == [
        ("run.facts", "should")
    ]
    assert _advice(IT | {"run.facts": "Dovresti guardare qui"}, "it") == [("run.facts", "dovresti")]
