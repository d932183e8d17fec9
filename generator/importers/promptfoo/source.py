"""promptfoo's output files, opened without node or promptfoo, at a cost ``[limits]`` bounds.

``promptfoo eval -o FILE.json`` and ``promptfoo export eval ID`` write one JSON object that opens
with the eval's id (``evalId``), then ``results`` (``version``, ``timestamp``, ``prompts``, one
row per test × prompt × provider × repeat), the resolved ``config`` and ``metadata``.
``promptfoo eval -o FILE.jsonl`` writes the rows alone, one a line: no eval id, no description,
no time. Both are read into one ``Output``; a .jsonl's time is its file's modification time, and
its suite must be given (``--suite``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from generator.archive.config import Limits, raised_by
from generator.document.codec import parse_object, validate
from generator.document.values import json_type
from generator.errors import DocumentRefused, Refused
from generator.files import read_bytes
from generator.importers.promptfoo.output import RESULTS_VERSION, Output

_JSON = re.compile(rb'\A\s*\{\s*"evalId"\s*:')
_ROW_KEYS = (b'"testIdx":', b'"promptIdx":')
_SNIFF = 64
"""Bytes read to tell a promptfoo .json from another JSON document."""
_FIRST_LINE = 1 << 20
"""Bytes of a .jsonl's first line read to tell promptfoo's rows from other lines."""


def claims(path: Path) -> bool:
    """Whether ``path`` is promptfoo's output: a .json that opens with ``evalId``, or a .jsonl
    whose first line is one of promptfoo's rows."""
    try:
        with path.open("rb") as file:
            if path.suffix == ".json":
                return bool(_JSON.match(file.read(_SNIFF)))
            if path.suffix == ".jsonl":
                line = file.readline(_FIRST_LINE)
                return all(key in line for key in _ROW_KEYS)
    except OSError:
        return False
    return False


def opened(path: Path, limits: Limits) -> Output:
    """The output in ``path``: its version checked before anything else is read."""
    data = read_bytes(path, "log_mb", limits)
    if path.suffix == ".jsonl":
        return _rows(data, path, limits)
    found = parse_object(data)
    results = found.get("results")
    _known(results.get("version") if isinstance(results, dict) else None, "results.version")
    rows = results.get("results") if isinstance(results, dict) else None
    _counted(rows if isinstance(rows, list) else [], limits, "results.results")
    return _typed(found)


def _typed(found: dict[str, Any]) -> Output:
    """``found`` as an ``Output``. A refusal names the key in full: every key it can name is one
    of promptfoo's (the payload below them is typed ``Any``, never looked into)."""
    return validate(Output, found, name_unknown=True)


def _rows(data: bytes, path: Path, limits: Limits) -> Output:
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = parse_object(line)
        except DocumentRefused as refused:
            raise DocumentRefused(f"line {number}", refused.problem) from None
        rows.append(row)
        _counted(rows, limits, f"line {number}")
    if not rows:
        raise DocumentRefused("", "no rows, so there is nothing to import")
    try:
        moment = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError as error:
        raise Refused(f"{path}: cannot be read ({error.strerror or error})") from None
    results = {"version": RESULTS_VERSION, "timestamp": moment.isoformat(), "results": rows}
    return _typed({"evalId": "", "results": results})


def _known(version: Any, where: str) -> None:
    if not isinstance(version, int) or isinstance(version, bool):
        problem = "missing" if version is None else f"a JSON {json_type(version)}, not an integer"
        raise DocumentRefused(where, problem)
    if version != RESULTS_VERSION:
        raise DocumentRefused(
            where, f"promptfoo's results format {version}; runsite reads format {RESULTS_VERSION}"
        )


def _counted(rows: list[Any], limits: Limits, where: str) -> None:
    if len(rows) > limits.samples:
        raise DocumentRefused(where, f"more than {limits.samples} rows, {raised_by('samples')}")
