"""JSON text from outside (a file arriving, an answer, a target's reply): how deep it nests and
how many values it holds, told before anything walks or parses it whole.

A run document nests at most ``MAX_DEPTH`` levels; the walks of a value (its canonical bytes, a
schema's validation, the payload's strings) recurse, and deeper nesting would exhaust Python's
stack. Parsing takes about 70 bytes of memory a value, so a text is refused where it holds more
values than a real one of its size (``too_dense``), counted in one linear pass over its bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting a document may have; a run document needs about 8 levels."""

BYTES_A_VALUE = 16
"""The fewest bytes of JSON text a value may take, on average, once a text holds more than
``VALUES_ANY_TEXT_HOLDS``: a real log or document takes 22 to 46, and each value parsed costs
about 70 bytes of memory, so a text held to it costs no more memory for its size than a real one
does, where ``[],`` repeated (3 bytes a value) took 27 times its size."""
VALUES_ANY_TEXT_HOLDS = 1_000_000

_VALUE_MARKS = (b",", b"[", b"{")
_STRING = r'"(?:[^"\\]++|\\(?s:.)?)*+(?:"|\Z)'
"""A JSON string, or what is left of an unclosed one: a match never fails once begun, so a scan
stays linear on any text."""
_STRING_OR_SPACE = re.compile(rf"{_STRING}|[ \t\n\r]++".encode())
_LITERAL = re.compile(_STRING)


def json_values(data: bytes) -> int:
    """How many values the JSON text ``data`` holds at most, counted without parsing it: past
    its strings, one for each comma, ``[`` and ``{``, and one more. Counted in the bytes as
    they are where that is no more than one in ``BYTES_A_VALUE`` (strings rarely hold many),
    else in what is left once strings and whitespace are taken out: so texts counted together
    are over their limit only where their values are."""
    values = sum(map(data.count, _VALUE_MARKS)) + 1
    if values <= len(data) // BYTES_A_VALUE:
        return values
    outside = _STRING_OR_SPACE.sub(b"", data)
    return sum(map(outside.count, _VALUE_MARKS)) + 1


def too_dense(values: int, size: int) -> str | None:
    """Why JSON text of ``size`` bytes holding ``values`` values costs more to parse than a
    real one of its size, or None."""
    if values <= max(VALUES_ANY_TEXT_HOLDS, size // BYTES_A_VALUE):
        return None
    return (
        f"{values} JSON values in {size} bytes: more than one in every {BYTES_A_VALUE} bytes, "
        f"past the first {VALUES_ANY_TEXT_HOLDS}, which no real log or document holds"
    )


class TooDeep(ValueError):
    """JSON text nesting deeper than ``MAX_DEPTH`` levels. No run holds one, and what walks a
    value (its canonical bytes, a schema's validation, the payload's strings) could not follow
    it past Python's stack."""


def json_value(text: str | bytes) -> Any:
    """The value of JSON text from outside (an answer, a reply, a file), as ``json.loads``
    reads it: ``ValueError`` where it is not JSON, ``TooDeep`` where it nests past
    ``MAX_DEPTH``."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels") from None
    if isinstance(value, dict | list) and nests_deeper(value, MAX_DEPTH):
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels")
    return value


def nests_deeper(value: dict[str, Any] | list[Any], levels: int) -> bool:
    """Whether objects and arrays nest more than ``levels`` deep in ``value`` (itself the first
    level), found a level at a time, with no recursion that the nesting could exhaust."""
    level = [value]
    for _ in range(levels):
        level = [
            child
            for node in level
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
        if not level:
            return False
    return True


def string_literals(text: str) -> Iterator[str]:
    """Every string literal of a JSON text, found without parsing its nesting (an unclosed one
    at its end is none)."""
    for literal in _LITERAL.findall(text):
        try:
            yield json.loads(literal)
        except ValueError:
            continue
