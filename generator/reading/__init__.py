"""The reading: what a run measured and what moved, as facts, told in English or Italian.

Pure, and over ``RedactedRun`` only: nothing here can see a payload, read a file or a clock.
``explain`` reads a run alone or against a reference, ``diff`` puts two runs side by side;
both return a ``Reading`` (a tuple of facts and its exit code), which ``render.text`` tells in
a locale and ``render.as_json`` gives as JSON.
"""

from generator.reading.diff import diff
from generator.reading.explain import explain
from generator.reading.facts import KINDS, Fact, Reading, exit_code
from generator.reading.locales import CATALOGS, UnknownLocale, catalog
from generator.reading.refusals import DifferentJudges, DifferentRules, NotComparable
from generator.reading.render import OUTPUT_VERSION, as_json, exit_reason, text

__all__ = [
    "CATALOGS",
    "KINDS",
    "OUTPUT_VERSION",
    "DifferentJudges",
    "DifferentRules",
    "Fact",
    "NotComparable",
    "Reading",
    "UnknownLocale",
    "as_json",
    "catalog",
    "diff",
    "exit_code",
    "exit_reason",
    "explain",
    "text",
]
