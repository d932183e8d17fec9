"""The reading's two languages, as catalogs with the same keys and the same placeholders.

A key is ``fact.<kind>`` for a fact, with a variant for each plural category (``.one``,
``.other``: see ``generator.reading.plurals``) where the sentence turns on its ``count``; ``heading.<section>``, ``title.<scope>``, ``where.case``,
``where.run`` and ``nothing`` frame them. Each language is written in its own words; only the
order of the placeholders is shared, so two readings of one run line up number by number.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from generator.errors import Refused
from generator.reading.locales import en, it
from generator.reading.plurals import counted


class Phrases(dict[str, str]):
    """A catalog: its phrases by key, and the language they are written in, which also says
    how their figures are written (``generator.reading.formats``) and its counts
    (``generator.reading.plurals``)."""

    def __init__(self, language: str, phrases: Mapping[str, str]) -> None:
        super().__init__(phrases)
        self.language = language
        self.counted = counted(phrases)
        """The keys whose phrase turns on a count, written in each plural form."""


def with_few(phrases: Mapping[str, str], few: Mapping[str, str]) -> dict[str, str]:
    """``phrases`` and, for each phrase of a test of verdicts or scores, its ``.few`` variant:
    the phrase, then the language's ``few`` sentence saying that too few changed for any result
    to be beyond chance."""
    found = dict(phrases)
    for key, phrase in phrases.items():
        tested = key.removeprefix("fact.chance.").split(".")[0]
        if key.startswith("fact.chance.") and tested in few:
            stem, form = key.rsplit(".", 1)
            found[f"{stem}.few.{form}"] = phrase + few[tested]
    return found


CATALOGS: dict[str, Phrases] = {
    "en": Phrases("en", with_few(en.PHRASES, en.FEW)),
    "it": Phrases("it", with_few(it.PHRASES, it.FEW)),
}
"""Every locale the reading speaks, by code."""


PREVIOUS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("the reference's", "the previous run's"), ("the reference", "the previous run")),
    "it": (
        ("è stato valutato il riferimento", "è stata valutata l'esecuzione precedente"),
        ("al riferimento", "all'esecuzione precedente"),
        ("del riferimento", "dell'esecuzione precedente"),
        ("nel riferimento", "nell'esecuzione precedente"),
        ("Il riferimento", "L'esecuzione precedente"),
        ("il riferimento", "l'esecuzione precedente"),
    ),
}
"""How a reading against the previous run names it: the catalogs say "the reference", the run a
comparison is made against, and a page comparing a run with the one before it says which."""


@cache
def against_previous(locale: str) -> Phrases:
    """The phrases of ``locale`` for a reading of a run against the run before it."""
    phrases = dict(catalog(locale))
    for key, text in phrases.items():
        for said, meant in PREVIOUS[locale]:
            text = text.replace(said, meant)
        phrases[key] = text
    return Phrases(locale, phrases)


class UnknownLocale(Refused):
    """A locale the reading has no catalog for."""


def catalog(locale: str) -> Phrases:
    """The phrases of ``locale``, or a refusal listing the locales there are."""
    try:
        return CATALOGS[locale]
    except KeyError:
        available = ", ".join(sorted(CATALOGS))
        raise UnknownLocale(
            f"--locale: no catalog for {locale!r}; available: {available}"
        ) from None
