"""Bytes to a run and a run to bytes, and nothing in between that a reader has to trust.

Reading refuses, with one line naming the key, anything that is not a well-formed JSON object:
bytes that are not UTF-8, duplicate keys, NaN, nesting deeper than ``MAX_DEPTH``, a number past
``numbers.LARGEST``. It then migrates the mapping to schema 23 in memory and validates it,
saying what a validation refused in the words of ``problems``.
Writing is canonical: keys sorted, indent 2, UTF-8 unescaped, every float at 6 decimals, a
trailing newline, so the same run always gives the same bytes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import jiter
from pydantic import BaseModel, ValidationError

from generator.document.json_text import MAX_DEPTH, json_values, nests_deeper, too_dense
from generator.document.keys import DECLARED, joined, steps
from generator.document.migrate import upgrade
from generator.document.model import SCHEMA, Run
from generator.document.numbers import LARGEST, at_precision, meant
from generator.document.problems import validation_problem
from generator.document.record import carries_extras
from generator.document.redacted import RedactedRun
from generator.document.values import BEYOND_PROBLEM, json_type
from generator.errors import DocumentRefused

Model = TypeVar("Model", bound=BaseModel)


@dataclass(frozen=True)
class Decoded:
    """A run read from bytes, with what the reader noticed on the way."""

    run: Run
    declared_schema: int
    """The schema the document declared before migration."""
    unknown: tuple[str, ...]
    """Where the keys this runsite does not know are (``results[0].#1``, see ``keys``): kept in
    the archive, never rendered."""


def read_run(data: bytes) -> Decoded:
    """Parse, migrate and validate one run document."""
    return _read_quickly(data) or _read_carefully(data)


def read_arriving(data: bytes) -> Decoded:
    """``read_run`` of a document from outside the archive, refused first where it holds more
    values than its size accounts for (``too_dense``), before parsing it would cost that."""
    problem = too_dense(json_values(data), len(data))
    if problem:
        raise DocumentRefused("", problem)
    return read_run(data)


def _read_carefully(data: bytes) -> Decoded:
    doc = parse_object(data)
    schema = declared_schema(doc)
    upgraded = upgrade(doc, schema)
    run = validate(Run, upgraded)
    unknown = tuple(unknown_keys(run, upgraded)) if carries_extras(run) else ()
    return Decoded(run, schema, unknown)


def _read_quickly(data: bytes) -> Decoded | None:
    """The run in a document of the current schema with no key the schema does not declare
    (what runsite writes), read in half the time; None for any other document, which the
    careful reading then reads or refuses, in its own words.

    It refuses at least what the careful reading refuses, by other means: duplicate keys, NaN,
    text that is not UTF-8 and every lone surrogate by the parser (jiter); numbers past
    ``LARGEST`` by the bounds of every number the schema types, and in metadata, the one place
    the schema leaves untyped, by a look at its values that also bounds their nesting. A key
    the schema does not declare, whose value nothing bounds, fails its validation (which
    forbids one here), and sends the document to the careful reading."""
    try:
        doc = jiter.from_json(
            data, allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="keys"
        )
    except ValueError:  # any problem, lone surrogates and a byte-order mark among them
        return None
    if not isinstance(doc, dict) or type(doc.get("schema_version")) is not int:
        return None
    if doc["schema_version"] != SCHEMA:
        return None
    try:
        run = Run.model_validate(doc, extra="forbid")
    except ValidationError:
        return None
    if not all(_plain(metadata, _METADATA_DEPTH) for metadata in _metadata(run)):
        return None
    return Decoded(run, SCHEMA, ())


def _metadata(run: Run) -> Iterator[Mapping[str, Any]]:
    yield run.metadata
    for case in run.results:
        for verdict in case.verdicts:
            yield verdict.metadata
    for verdict in run.aggregate:
        yield verdict.metadata


_METADATA_DEPTH = 5
"""The deepest a metadata object sits in a document: ``results[c].verdicts[v].metadata``."""


def _plain(value: Any, depth: int) -> bool:
    """Whether a JSON object or array, ``depth`` levels below the document, holds no number past
    ``LARGEST`` and nests less deep than ``MAX_DEPTH`` levels."""
    for item in value.values() if isinstance(value, dict) else value:
        if isinstance(item, dict | list):
            if depth + 1 >= MAX_DEPTH or not _plain(item, depth + 1):
                return False
        elif isinstance(item, int | float) and not isinstance(item, bool) and not meant(item):
            return False
    return True


def run_bytes(run: Run) -> bytes:
    """The canonical bytes of a run."""
    return canonical(run.model_dump(mode="json"))


_CANONICAL = json.JSONEncoder(sort_keys=True, indent=2, ensure_ascii=False)


def canonical(value: Any) -> bytes:
    """Canonical JSON of any JSON value: sorted keys, indent 2, floats at 6 decimals."""
    return _finished(_CANONICAL.encode(rounded(value)))


def canonical_within(value: Any, most: int) -> bytes | None:
    """``canonical(value)``, or None where it would be more than ``most`` bytes: found as it is
    written, so a value whose text would take gigabytes (one string it refers to a million
    times) takes no more than ``most`` to refuse."""
    chunks: list[str] = []
    written = 0
    for chunk in _CANONICAL.iterencode(rounded(value)):
        written += len(chunk)
        if written > most:
            return None
        chunks.append(chunk)
    data = _finished("".join(chunks))
    return data if len(data) <= most else None


def _finished(text: str) -> bytes:
    return (_LONE_SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8")


def compact(value: Any) -> str:
    """The one-line canonical JSON a recorded answer keeps structured output, request bodies and
    tool arguments in: sorted keys, no spaces, so the same value is always the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""How a lone surrogate gets into parsed JSON: only as an escape."""


def rounded(value: Any) -> Any:
    """``value`` with every float in it at 6 decimals, as the document stores numbers."""
    if isinstance(value, float):
        return at_precision(value)
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [rounded(item) for item in value]
    return value


def parse_object(data: bytes) -> dict[str, Any]:
    """The JSON object in ``data``, or a refusal saying what the bytes are instead."""
    if not data.strip():
        raise DocumentRefused("", "an empty file, not a run document")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DocumentRefused(
            "", f"not UTF-8 text (invalid byte at offset {error.start})"
        ) from None
    numbers = _Numbers()
    try:
        value = json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_no_constant,
            parse_int=numbers.integer,
            parse_float=numbers.real,
        )
    except json.JSONDecodeError as error:
        raise DocumentRefused(
            "",
            f"not valid JSON at line {error.lineno}, column {error.colno}: "
            f"{error.msg.removesuffix(' starting at').lower()}",
        ) from None
    except RecursionError:
        raise DocumentRefused("", f"nested deeper than {MAX_DEPTH} levels") from None
    if not isinstance(value, dict):
        raise DocumentRefused("", f"a JSON {json_type(value)}, not an object")
    if nests_deeper(value, MAX_DEPTH):
        raise DocumentRefused("", f"nested deeper than {MAX_DEPTH} levels")
    if numbers.beyond:
        raise DocumentRefused(_where(value, lambda part: part is BEYOND) or "", BEYOND_PROBLEM)
    if _SURROGATE_ESCAPE.search(text):
        where = _where(value, lambda part: False, lambda key: bool(_LONE_SURROGATE.search(key)))
        if where is not None:
            raise DocumentRefused(where, "a key with a lone surrogate, which is no Unicode text")
    return value


class _Beyond:
    """Stands in, while parsing, for a number past ``LARGEST``."""


BEYOND = _Beyond()


class _Numbers:
    """The parser's hooks for numbers: each one past ``LARGEST`` (or that overflows a float)
    is read as ``BEYOND``, so the refusal can name its key once the whole object is known."""

    def __init__(self) -> None:
        self.beyond = False

    def integer(self, text: str) -> int | _Beyond:
        # Compared as text first: int() refuses more than 4,300 digits with an exception.
        if len(text.lstrip("-")) <= len(str(LARGEST)) and meant(number := int(text)):
            return number
        self.beyond = True
        return BEYOND

    def real(self, text: str) -> float | _Beyond:
        if meant(number := float(text)):
            return number
        self.beyond = True
        return BEYOND


def _where(
    value: Any,
    bad: Callable[[Any], bool],
    bad_key: Callable[[str], bool] = lambda key: False,
    path: str = "",
) -> str | None:
    """The key path of the first part of ``value`` that is ``bad``, or of the first object key
    that is ``bad_key`` (as ``path (key)``); None if there is none."""
    if bad(value):
        return path
    found = None
    if isinstance(value, dict):
        for key, step in steps(value):
            at = joined(path, step)
            if bad_key(key):
                return f"{at} (key)"
            if (found := _where(value[key], bad, bad_key, at)) is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if (found := _where(item, bad, bad_key, f"{path}[{index}]")) is not None:
                return found
    return found


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        twice = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        named = f"the key {twice!r}" if twice in DECLARED else "a key the schema does not declare"
        raise DocumentRefused("", f"{named} appears twice in one object")
    return result


def _no_constant(name: str) -> Any:
    raise DocumentRefused("", f"{name} is not a JSON number")


def declared_schema(doc: dict[str, Any]) -> int:
    """The document's ``schema_version``; an object without one is no run document (an
    Inspect AI log, which has none, is told apart before a document is read)."""
    if "schema_version" not in doc:
        raise DocumentRefused("schema_version", "absent: not a run document, nor an Inspect AI log")
    schema = doc["schema_version"]
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise DocumentRefused("schema_version", f"a JSON {json_type(schema)}, not an integer")
    return schema


def validate(model: type[Model], doc: dict[str, Any], name_unknown: bool = False) -> Model:
    """``model`` built from ``doc``, or the first problem as a refusal naming its key.

    Only in a file the user writes (``name_unknown``) is a key the schema does not declare named;
    in a run document, where such a key may be payload, it is named by its place (``keys``).
    """
    try:
        return model.model_validate(doc)
    except ValidationError as error:
        placed = None if name_unknown else doc
        raise DocumentRefused(*validation_problem(error, name_unknown, placed, model)) from None


def unknown_keys(record: BaseModel, raw: dict[str, Any], path: str = "") -> list[str]:
    """Where each key the model did not declare is, anywhere in ``record`` (read from ``raw``)."""
    extra = record.model_extra or {}
    found = [joined(path, step) for key, step in steps(raw) if key in extra]
    for name in type(record).__pydantic_fields__:
        found += _unknown_in(getattr(record, name), raw.get(name), joined(path, name))
    return found


def _unknown_in(value: Any, raw: Any, path: str) -> list[str]:
    if isinstance(value, BaseModel):
        return unknown_keys(value, raw, path)
    if isinstance(value, list):
        return [
            key
            for i, (item, written) in enumerate(zip(value, raw, strict=True))
            for key in _unknown_in(item, written, f"{path}[{i}]")
        ]
    if isinstance(value, dict):
        return [
            key
            for name, step in steps(value)
            if isinstance(value[name], BaseModel)
            for key in unknown_keys(value[name], raw[name], joined(path, step))
        ]
    return []


def read_redacted(data: bytes) -> RedactedRun:
    """Parse and validate a redacted run, as ``redacted_bytes`` wrote it."""
    return validate(RedactedRun, parse_object(data))


def redacted_bytes(run: RedactedRun) -> bytes:
    """The canonical bytes of a redacted run."""
    return canonical(run.model_dump(mode="json"))
