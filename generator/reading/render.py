"""The two renderings of a reading: prose in one language, and JSON.

Prose: a title line, then each section under its heading, one fact per line (``- …``), and a
fixed sentence for a section with nothing in it. Figures are written as the language writes
them (``generator.reading.formats``): the scores of one sentence to one number of decimals
(``places.places``, from the sentence's tolerance and its values), a change signed, a tolerance
with every digit it has, money in dollars, counts grouped, the run's moment with its offset
named. Settings of the target and the judge are printed as configured (names and whole
numbers as written), since they are values of a configuration, not figures of the run.

JSON (``OUTPUT_VERSION`` 2; its JSON Schema is ``reading.schema.json`` beside this module),
built by ``as_json`` and written by the caller::

    {
      "output_version": 2,
      "scope": "run" | "reference" | "diff",
      "run_key": "...",          "reference_key": "...",   (run, reference scopes)
      "left_key": "...",         "right_key": "...",       (diff scope)
      "gate": "tolerance" | "significant",
      "exit_code": 0 | 1 | 2,
      "facts": [{"section": "...", "kind": "...", "params": {...}}, ...],
      "tests": {...}                                       (reference, diff scopes)
    }

``reference_key`` appears only against a reference. ``tests`` holds each check's paired tests
and each case's test of its samples (``tests_json``); version 1 had neither it nor ``gate``. A fact's ``kind`` is its catalog key
without the ``fact.`` prefix, and its ``params`` hold numbers and publishable names only, every
number exact (as stored, never rounded for reading); the JSON carries no prose, so it reads the
same whatever the locale.
"""

from __future__ import annotations

from typing import Any

from generator.account.chance import Chance, CheckChance
from generator.account.places import Move, agreeing_places, millionths, places
from generator.account.significance import ALPHA
from generator.reading.facts import Fact, Gate, Param, Reading, Scope
from generator.reading.formats import Formats, formats
from generator.reading.locales import Phrases, catalog
from generator.reading.locales.settings import SWITCHED, setting_name
from generator.reading.plurals import plural

OUTPUT_VERSION = 2


def as_json(reading: Reading, gate: Gate = "tolerance") -> dict[str, Any]:
    """The reading as a JSON value of the documented shape, its exit code under ``gate``."""
    doc: dict[str, Any] = {"output_version": OUTPUT_VERSION, "scope": reading.scope}
    if reading.scope == "diff":
        doc |= {"left_key": reading.run_key, "right_key": reading.reference_key}
    else:
        doc["run_key"] = reading.run_key
        if reading.reference_key is not None:
            doc["reference_key"] = reading.reference_key
    doc["gate"] = gate
    doc["exit_code"] = reading.gated(gate)
    doc["facts"] = [
        {"section": f.section, "kind": f.kind, "params": dict(f.params)} for f in reading.facts
    ]
    if reading.chance is not None:
        doc["tests"] = tests_json(reading.chance, reading.scope)
    return doc


def tests_json(chance: Chance, scope: Scope) -> dict[str, Any]:
    """The tests of two runs: each check's over the cases both judged, and each case's of its
    samples. Against a reference, ``worse`` and ``better`` count the cases that went from
    passing to failing and back, and a change is the run's score minus the reference's; in a
    diff, ``left_only`` and ``right_only`` count the cases that passed on one side alone, and
    a change is the right's score minus the left's. A p is None where nothing moved to test."""

    def check(c: CheckChance) -> dict[str, Any]:
        went = {"worse": c.worse, "better": c.better}
        if scope == "diff":
            went = {"left_only": c.worse, "right_only": c.better}
        bounds = c.change_bounds
        return {
            "check": c.check,
            "pairs": c.pairs,
            **went,
            "mcnemar": {"p": c.mcnemar, "p_holm": c.mcnemar_holm},
            "scored": c.scored,
            "mean_change": c.change,
            "mean_change_interval": None if bounds is None else [bounds.low, bounds.high],
            "wilcoxon": {"p": c.wilcoxon, "p_holm": c.wilcoxon_holm},
            "worse_beyond_chance": c.worse_beyond_chance if scope != "diff" else None,
        }

    return {
        "alpha": ALPHA,
        "checks": [check(c) for c in chance.checks],
        "cases": [
            {"case": c.case, "check": c.check, "test": c.test.test, "p": c.test.p}
            for c in chance.cases
        ],
    }


def text(reading: Reading, locale: str) -> str:
    """The reading as prose in ``locale``."""
    phrases = catalog(locale)
    keys = {"run": reading.run_key, "reference": reading.reference_key or ""}
    if reading.scope == "diff":
        keys = {"left": reading.run_key, "right": reading.reference_key or ""}
    lines = [phrases[f"title.{reading.scope}"].format(**keys)]
    for section, facts in reading.sections():
        lines += ["", phrases[f"heading.{section}"]]
        lines += [f"- {sentence(f, phrases)}" for f in facts] or [f"- {phrases['nothing']}"]
    return "\n".join(lines) + "\n"


def exit_reason(reading: Reading, locale: str, gate: Gate = "tolerance") -> str | None:
    """Why the reading exits 1 or 2 under ``gate``, in ``locale``: the exit code and the fact
    it comes from (the first of its kind); None where it exits 0."""
    fact = reading.deciding(gate)
    if fact is None:
        return None
    return f"exit {reading.gated(gate)}: {sentence(fact, catalog(locale))}"


COUNTED_BY: dict[str, str] = {"check.denominator_moved": "before"}
"""The count a fact's phrase turns on where it is not ``count``: the one its noun follows."""


def sentence(fact: Fact, phrases: Phrases) -> str:
    """One fact in the language of ``phrases``; a phrase with plural forms (``plurals``) in
    the form its count takes."""
    key = f"fact.{fact.kind}"
    if key in phrases.counted:
        count = fact.params[COUNTED_BY.get(fact.kind, "count")]
        assert isinstance(count, int)
        phrase = plural(phrases, key, count, phrases.language)
    else:
        phrase = phrases[key]
    values = shown(fact, formats(phrases.language))
    if "check" in fact.params and "{where}" in phrase:
        where = "where.case" if "case" in fact.params else "where.run"
        values["where"] = phrases[where].format(**values)
    return phrase.format(**values)


MONEY = frozenset({"spent", "cap", "worst"})
"""Parameters in US dollars."""
CHANGES = frozenset({"delta", "gap"})
"""Parameters that are the difference of two scores: ``delta`` signed, ``gap`` not."""
AS_CONFIGURED = ("setup.target.value", "setup.judge.value", "setting.target.", "setting.judge.")
"""Kinds whose values are settings of the target or the judge, printed as configured."""
PROBABILITIES = frozenset({"p", "p_holm"})
"""Parameters that are p-values, written as p-values (``Formats.p_value``)."""
TOLERANCES = "setting.tolerance."
"""Kinds whose ``before`` and ``now`` are tolerances."""


def shown(fact: Fact, figures: Formats) -> dict[str, str]:
    """Every parameter of ``fact`` as printed in the language of ``figures``."""
    params = fact.params
    if fact.kind.startswith(AS_CONFIGURED):
        return {
            name: setting_name(figures.language, str(value))
            if name == "name"
            else as_configured(value, figures)
            for name, value in params.items()
        }
    tolerance = params.get("tolerance")
    scores = {
        name: value
        for name, value in params.items()
        if isinstance(value, float) and name not in MONEY | CHANGES | PROBABILITIES | {"tolerance"}
    }
    changes = [value for name, value in params.items() if name in CHANGES]
    decimals = places(
        scores.values(),
        tolerance if isinstance(tolerance, float) else None,
        [v for v in changes if isinstance(v, float)],
    )
    if moved := moves(params):
        decimals = agreeing_places(moved, decimals)
    values: dict[str, str] = {}
    for name, value in params.items():
        if isinstance(value, str):
            values[name] = figures.moment(value) if name == "created_at" else value
        elif isinstance(value, int):
            values[name] = figures.count(value)
        elif name in MONEY:
            values[name] = figures.money(value)
        elif name in PROBABILITIES:
            values[name] = figures.p_value(value)
        elif name == "tolerance" or fact.kind.startswith(TOLERANCES):
            values[name] = figures.setting(value)
        elif name == "delta":
            values[name] = figures.change(value, decimals)
        else:
            values[name] = figures.score(value, decimals)
    if isinstance(p := params.get("p"), float):
        values["share"] = figures.chance(p)
    return values


SIDES = (("before", "now", "delta"), ("left", "right", "gap"))
"""The parameters of a fact that reads a change with its two sides: the earlier, the later, and
their difference (``gap`` unsigned)."""


def moves(params: dict[str, Param]) -> list[Move]:
    """The change a fact reads with its two sides, in millionths, and the tolerance it sets it
    against (``places.agreeing_places``); none where the fact reads no such change."""
    tolerance = params.get("tolerance")
    limit = None if isinstance(tolerance, (str, type(None))) else millionths(tolerance)
    for earlier, later, change in SIDES:
        before, now, moved = params.get(earlier), params.get(later), params.get(change)
        if isinstance(before, float) and isinstance(now, float) and isinstance(moved, float):
            size = millionths(abs(moved))
            return [(millionths(before), millionths(now), size if now >= before else -size, limit)]
    return []


def as_configured(value: Param, figures: Formats) -> str:
    """A setting's value as its configuration has it: a name or a whole number as written, a
    fraction with every digit it has and the language's decimal mark, a switch on or off in
    the language's words."""
    if isinstance(value, bool):
        on, off = SWITCHED[figures.language]
        return on if value else off
    if isinstance(value, float):
        return figures.setting(value)
    return str(value)
