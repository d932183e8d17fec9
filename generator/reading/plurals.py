"""A count in words: the form of a label or a phrase that a language uses for a number, chosen
by CLDR's plural rules (through Babel), in the reading, the site and the report alike.

A label that takes a count is written once for each plural category its language tells apart,
as keys ``<key>.one``, ``<key>.other`` (and ``<key>.many`` and so on where a catalog wants
one). ``other`` is always written and stands in for a category a catalog does not write:
Italian's ``many`` (a round million or more, as in "1.000.000 di casi") falls back to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from babel import Locale
from babel.plural import PluralRule

from generator.reading.formats import CLDR, Formats

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""Every plural category CLDR names, ``other`` last: the one every language has."""


@cache
def _rule(language: str) -> PluralRule:
    return Locale.parse(CLDR[language]).plural_form


def category(n: int, language: str) -> str:
    """The plural category of the whole number ``n`` in ``language``: 1 is ``one`` in both
    languages, 1,000,000 is ``many`` in Italian and ``other`` in English."""
    return str(_rule(language)(n))


def plural(labels: Mapping[str, str], key: str, n: int, language: str) -> str:
    """The form of ``key`` that ``language`` writes for the count ``n``: ``key.<category>``,
    or ``key.other`` where ``labels`` has no form of that category."""
    found = labels.get(f"{key}.{category(n, language)}")
    return labels[f"{key}.other"] if found is None else found


def counted(labels: Mapping[str, str]) -> frozenset[str]:
    """The keys of ``labels`` that have plural forms (``key`` for ``key.other``)."""
    return frozenset(k.removesuffix(".other") for k in labels if k.endswith(".other"))


def worded(labels: Mapping[str, str], key: str, n: int, figures: Formats, **params: str) -> str:
    """The label ``key`` for the count ``n``: in the form its language writes for ``n``, with
    ``n`` as ``figures`` write a count (grouped), and any other ``params``."""
    return plural(labels, key, n, figures.language).format(count=figures.count(n), **params)
