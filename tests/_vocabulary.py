"""Words a reading must not say, in each language, and the gate that finds them.

A reading states what was measured. It gives no advice (modal and imperative advice words),
and it does not speak of runs other than the ones it reads (words of repetition and of change
over time). Words are matched whole and case-insensitively, so "trying" is caught by its own
entry and "entry" is not caught by "try".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

ADVICE = {
    "en": [
        "should",
        "ought",
        "must",
        "try",
        "tries",
        "trying",
        "consider",
        "considering",
        "recommend",
        "recommended",
        "recommendation",
        "suggest",
        "suggested",
        "suggestion",
        "advise",
        "advice",
        "re-run",
        "rerun",
        "promote",
        "please",
        "need to",
        "better to",
    ],
    "it": [
        "dovresti",
        "dovrebbe",
        "dovrebbero",
        "devi",
        "deve",
        "devono",
        "prova",
        "provare",
        "provate",
        "considera",
        "considerare",
        "consiglia",
        "consigliato",
        "consigliamo",
        "suggerisce",
        "suggerito",
        "suggeriamo",
        "raccomanda",
        "raccomandato",
        "rieseguire",
        "rilanciare",
        "promuovere",
        "conviene",
        "bisogna",
    ],
}
"""Words of advice."""

OTHER_RUNS = {
    "en": [
        "repeat",
        "repeated",
        "again",
        "recur",
        "recurring",
        "drift",
        "drifted",
        "wobble",
        "flaky",
        "trend",
        "trending",
        "lately",
        "usually",
        "history",
    ],
    "it": [
        "ripete",
        "ripetere",
        "ripetuto",
        "ricorre",
        "ricorrente",
        "deriva",
        "oscilla",
        "instabile",
        "tendenza",
        "ancora",
        "nuovamente",
        "di nuovo",
        "di solito",
        "storico",
    ],
}
"""Words that speak of runs other than the ones read."""


def banned(locale: str) -> list[str]:
    """Every word the gate refuses in ``locale``."""
    return ADVICE[locale] + OTHER_RUNS[locale]


def offences(phrases: Mapping[str, str], locale: str) -> list[tuple[str, str]]:
    """(key, word) for every banned word found in a catalog; empty when the catalog is clean."""
    found = []
    for key, phrase in sorted(phrases.items()):
        for word in banned(locale):
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", phrase, re.IGNORECASE):
                found.append((key, word))
    return found
