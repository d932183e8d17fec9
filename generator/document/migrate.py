"""The migration chain: any document from schema 4 up to ``SCHEMA``, one pure step at a time.

``STEPS[n]`` turns a schema ``n - 1`` document into schema ``n``, writing only what that version
introduced and only where it can be known. Most steps write nothing, because the key a version
added is optional and its absence already says "not recorded". The versions before 4 added keys
that nothing can supply (``UNREACHABLE``); guessing them would be worse than not reading the file.

A step takes the parsed JSON and returns a new mapping; it never mutates its input, and it
leaves any part it does not understand for validation to report.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from generator.document.model import SCHEMA
from generator.errors import DocumentRefused

OLDEST_SCHEMA = 4
"""The oldest schema the chain can start from."""

Document = dict[str, Any]


def _cases(doc: Document) -> Iterator[tuple[int, dict[str, Any]]]:
    results = doc.get("results")
    if isinstance(results, list):
        for position, case in enumerate(results):
            if isinstance(case, dict):
                yield position, case


def _verdicts(doc: Document) -> Iterator[dict[str, Any]]:
    lists = [case.get("verdicts") for _, case in _cases(doc)] + [doc.get("aggregate")]
    for verdicts in lists:
        if isinstance(verdicts, list):
            yield from (v for v in verdicts if isinstance(v, dict))


def writes_nothing(doc: Document) -> Document:
    """The version added only optional keys; their absence already means "not recorded"."""
    return doc


def to_5(doc: Document) -> Document:
    """Schema 5 made ``suspended`` explicit on every case."""
    for _, case in _cases(doc):
        case.setdefault("suspended", False)
    return doc


def to_6(doc: Document) -> Document:
    """Schema 6 added run-level checks (``aggregate``)."""
    doc.setdefault("aggregate", [])
    return doc


def to_7(doc: Document) -> Document:
    """Schema 7 added the files under test (``artifacts``)."""
    doc.setdefault("artifacts", {})
    return doc


def to_8(doc: Document) -> Document:
    """Schema 8 added how the target and the judge were configured."""
    doc.setdefault("target_config", {})
    doc.setdefault("judge_config", {})
    return doc


def to_9(doc: Document) -> Document:
    """Schema 9 moved a sampled verdict's scores into ``samples`` and its interval."""
    for verdict in _verdicts(doc):
        metadata = verdict.get("metadata")
        scores = metadata.get("scores") if isinstance(metadata, dict) else None
        if "samples" in verdict or not isinstance(scores, list) or not scores:
            continue
        verdict["samples"] = list(scores)
        if all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores):
            verdict["sample_min"] = min(scores)
            verdict["sample_max"] = max(scores)
    return doc


def to_17(doc: Document) -> Document:
    """Schema 17 tied each calibration band to the identity of the check it calibrates."""
    for position, case in _cases(doc):
        band = case.get("calibration")
        if not isinstance(band, dict) or "assertion_id" in band:
            continue
        verdicts = [v for v in case.get("verdicts") or () if isinstance(v, dict)]
        identities = {v.get("assertion_id") for v in verdicts}
        if len(identities) != 1:
            identities = {
                v.get("assertion_id") for v in verdicts if v.get("assertion") == band.get("check")
            }
        if len(identities) != 1 or not isinstance(next(iter(identities)), str):
            raise DocumentRefused(
                f"results[{position}].calibration",
                "schema 16 cannot be migrated to 17: no single check of the case owns the "
                "calibration band, and schema 17 records which one does",
            )
        band["assertion_id"] = identities.pop()
    return doc


def to_18(doc: Document) -> Document:
    """Schema 18 added ``projected`` (names replaced by tokens), false for older documents."""
    doc.setdefault("projected", False)
    return doc


STEPS: dict[int, Callable[[Document], Document]] = {
    5: to_5,
    6: to_6,
    7: to_7,
    8: to_8,
    9: to_9,
    **dict.fromkeys(range(10, 17), writes_nothing),
    17: to_17,
    18: to_18,
    **dict.fromkeys(range(19, SCHEMA + 1), writes_nothing),
}

UNREACHABLE = {
    0: "a document without schema_version predates every schema runsite can migrate",
    1: "schema 2 introduced assertion_id on every verdict, which pairs a check across runs",
    2: "schema 3 introduced tenant and redacted, and a perimeter cannot be guessed",
    3: "schema 4 introduced environment on the run",
}


def upgrade(doc: Document, schema: int) -> Document:
    """``doc`` (declared at ``schema``) brought to ``SCHEMA`` in a copy, or a refusal."""
    if schema > SCHEMA:
        raise DocumentRefused(
            "schema_version",
            f"schema {schema} is newer than this runsite reads ({OLDEST_SCHEMA}–{SCHEMA}); "
            "upgrade runsite to read it",
        )
    if schema < OLDEST_SCHEMA:
        raise DocumentRefused(
            "schema_version",
            f"schema {schema} cannot be migrated: {UNREACHABLE.get(schema, UNREACHABLE[0])}, "
            "and nothing in the document can supply it",
        )
    if schema == SCHEMA:
        return doc
    upgraded = copy.deepcopy(doc)
    for version in range(schema + 1, SCHEMA + 1):
        upgraded = STEPS[version](upgraded)
        upgraded["schema_version"] = version
    return upgraded
