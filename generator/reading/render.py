"""The two renderings of a reading: prose in one language, and JSON.

Prose: a title line, then each section under its heading, one fact per line (``- …``), and a
fixed sentence for a section with nothing in it. Numbers are printed the same way in every
language: counts as integers, every other number with six decimals and a decimal point, a
signed ``delta``; timestamps as the document holds them.

JSON (``OUTPUT_VERSION`` 1), built by ``as_json`` and written by the caller::

    {
      "output_version": 1,
      "scope": "run" | "reference" | "diff",
      "run_key": "...",          "reference_key": "...",   (run, reference scopes)
      "left_key": "...",         "right_key": "...",       (diff scope)
      "exit_code": 0 | 1 | 2,
      "facts": [{"section": "...", "kind": "...", "params": {...}}, ...]
    }

``reference_key`` appears only against a reference. A fact's ``kind`` is its catalog key
without the ``fact.`` prefix, and its ``params`` hold numbers and publishable names only; the
JSON carries no prose, so it reads the same whatever the locale.
"""

from __future__ import annotations

from typing import Any

from generator.reading.facts import SECTIONS, Fact, Param, Reading
from generator.reading.locales import catalog

OUTPUT_VERSION = 1


def as_json(reading: Reading) -> dict[str, Any]:
    """The reading as a JSON value of the documented shape."""
    doc: dict[str, Any] = {"output_version": OUTPUT_VERSION, "scope": reading.scope}
    if reading.scope == "diff":
        doc |= {"left_key": reading.run_key, "right_key": reading.reference_key}
    else:
        doc["run_key"] = reading.run_key
        if reading.reference_key is not None:
            doc["reference_key"] = reading.reference_key
    doc["exit_code"] = reading.exit_code
    doc["facts"] = [
        {"section": f.section, "kind": f.kind, "params": dict(f.params)} for f in reading.facts
    ]
    return doc


def text(reading: Reading, locale: str) -> str:
    """The reading as prose in ``locale``."""
    phrases = catalog(locale)
    keys = {"run": reading.run_key, "reference": reading.reference_key or ""}
    if reading.scope == "diff":
        keys = {"left": reading.run_key, "right": reading.reference_key or ""}
    lines = [phrases[f"title.{reading.scope}"].format(**keys)]
    for section in SECTIONS[reading.scope]:
        lines += ["", phrases[f"heading.{section}"]]
        facts = [f for f in reading.facts if f.section == section]
        lines += [f"- {sentence(f, phrases)}" for f in facts] or [f"- {phrases['nothing']}"]
    return "\n".join(lines) + "\n"


def sentence(fact: Fact, phrases: dict[str, str]) -> str:
    """One fact in the language of ``phrases``."""
    key = f"fact.{fact.kind}"
    if f"{key}.one" in phrases:
        key += ".one" if fact.params["count"] == 1 else ".many"
    values = {name: shown(name, value) for name, value in fact.params.items()}
    if "check" in fact.params and "{where}" in phrases[key]:
        where = "where.case" if "case" in fact.params else "where.run"
        values["where"] = phrases[where].format(**values)
    return phrases[key].format(**values)


def shown(name: str, value: Param) -> str:
    """A parameter as printed in every language."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:+.6f}" if name == "delta" else f"{value:.6f}"
    return value
