"""The two catalogs: the same keys and placeholders, every fact phrased, no advice in either."""

from __future__ import annotations

import re
import string

import pytest

from generator.errors import Refused
from generator.reading import CATALOGS, KINDS, catalog
from generator.reading.facts import SECTIONS
from generator.reading.render import COUNTED_BY
from tests._vocabulary import banned, offences


def placeholders(phrase: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(phrase) if name is not None]


def test_english_and_italian_have_exactly_the_same_keys():
    assert set(CATALOGS) == {"en", "it"}
    assert CATALOGS["en"].keys() == CATALOGS["it"].keys()


def test_each_phrase_has_the_same_placeholders_in_the_same_order_in_both_languages():
    # The same order is what lets two readings of one run be compared number by number.
    different = {
        key: (placeholders(phrase), placeholders(CATALOGS["it"][key]))
        for key, phrase in CATALOGS["en"].items()
        if placeholders(phrase) != placeholders(CATALOGS["it"][key])
    }
    assert different == {}


def expected_keys() -> set[str]:
    keys = {"nothing", "where.case", "where.run"}
    keys |= {f"title.{scope}" for scope in SECTIONS}
    keys |= {f"heading.{name}" for names in SECTIONS.values() for name in names}
    for kind in KINDS:
        plural = f"fact.{kind}.other" in CATALOGS["en"]
        keys |= {f"fact.{kind}.one", f"fact.{kind}.other"} if plural else {f"fact.{kind}"}
    return keys


def test_every_fact_kind_has_a_phrase_and_every_phrase_serves_a_fact_or_the_frame():
    assert set(CATALOGS["en"]) == expected_keys()


def test_a_phrase_that_turns_on_a_count_has_the_count_to_turn_on():
    for key, phrase in CATALOGS["en"].items():
        if key.endswith((".one", ".other")):
            kind = key.removeprefix("fact.").rsplit(".", 1)[0]
            assert COUNTED_BY.get(kind, "count") in placeholders(phrase), key


def test_each_language_is_written_in_its_own_words():
    same = [key for key, phrase in CATALOGS["en"].items() if CATALOGS["it"][key] == phrase]
    assert same == []


def test_no_phrase_in_either_language_gives_advice_or_speaks_of_other_runs():
    assert offences(CATALOGS["en"], "en") == []
    assert offences(CATALOGS["it"], "it") == []


@pytest.mark.parametrize(
    ("locale", "key", "sentence"),
    [
        ("en", "fact.check.failed", "{where} failed; you should look at {score} and {threshold}."),
        ("en", "nothing", "Nothing to report again."),
        ("it", "fact.check.failed", "{where} non è superato: prova con {score} e {threshold}."),
        ("it", "nothing", "Niente da segnalare, di nuovo."),
    ],
)
def test_the_gate_fails_when_a_banned_word_is_added_to_a_catalog(locale, key, sentence):
    tampered = {**CATALOGS[locale], key: sentence}
    assert [found_key for found_key, _ in offences(tampered, locale)] == [key]


def test_the_gate_matches_whole_words_only():
    assert offences({"k": "The entry is country-wide."}, "en") == []
    assert offences({"k": "Re-run it."}, "en") == [("k", "re-run")]


def test_the_banned_words_are_lower_case_and_distinct():
    for locale in CATALOGS:
        words = banned(locale)
        assert words == [w.lower() for w in words]
        assert len(words) == len(set(words))


def test_an_unknown_locale_is_refused_naming_the_ones_there_are():
    with pytest.raises(Refused, match=re.escape("no catalog for 'fr'; available: en, it")):
        catalog("fr")
