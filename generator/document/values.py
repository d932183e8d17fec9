"""The values a run document holds, each with its check: identities, timestamps, names a page
shows, counts, amounts, statuses; and the refusal a check raises, naming its key.

A check that fails raises ``refusal(key, problem)``; the codec joins the key to the location
pydantic reports, so a message reads ``results[2].verdicts[0].status: …``.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, JsonValue
from pydantic_core import PydanticCustomError

from generator.document.numbers import LARGEST, meant

REFUSAL = "runsite_refusal"
BEYOND_PROBLEM = f"a number beyond ±{LARGEST:,}, which no run means"


def refusal(key: str, problem: str) -> PydanticCustomError:
    """A validation failure at ``key`` (a path relative to the record being validated)."""
    return PydanticCustomError(REFUSAL, "{problem}", {"key": key, "problem": problem})


def _hex16(value: str) -> str:
    if not re.fullmatch(r"[0-9a-f]{16}", value):
        raise ValueError("not an identity of 16 lowercase hexadecimal digits")
    return value


def moment_of(value: str) -> datetime:
    """The instant an ISO-8601 timestamp names, or a ``ValueError`` saying what is wrong.

    The instant must fall in the years 1970–9999 in UTC: a run predates neither, and outside
    them a timestamp cannot be compared or sorted (year 1 at +14:00 is before year 1 in UTC).
    """
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not an ISO-8601 timestamp") from None
    if moment.tzinfo is None:
        raise ValueError("an ISO-8601 timestamp without its UTC offset")
    try:
        year = moment.astimezone(UTC).year
    except OverflowError:
        year = 0
    if not 1970 <= year <= 9999:
        raise ValueError("a timestamp outside the years 1970–9999 (UTC)")
    return moment


def _timestamp(value: str) -> str:
    moment_of(value)
    return value


_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode classes a name may not hold: controls (C0, DEL, C1), format characters (bidi
overrides and isolates, zero-width ones, tags), lone surrogates, line and paragraph separators.
Each can make a name read as something it is not, or break the text around it on a page."""


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` in a hidden class, as ``U+XXXX``; None if it has none."""
    if text.isprintable():
        return None
    for character in text:
        if unicodedata.category(character) in _HIDDEN:
            return f"U+{ord(character):04X}"
    return None


_HIDDEN_PROBLEM = "a name with an invisible or control character ({code})"


def _visible(value: str) -> str:
    code = hidden_character(value)
    if code is not None:
        raise ValueError(_HIDDEN_PROBLEM.format(code=code))
    return value


def visible_at(key: str, value: str) -> None:
    """Refuse ``value``, shown as a name, at ``key`` when it holds a hidden character."""
    code = hidden_character(value)
    if code is not None:
        raise refusal(key, _HIDDEN_PROBLEM.format(code=code))


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages that must not quote the value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, dict | list):
        raise ValueError(f"a JSON {json_type(value)}, not a string, number or boolean")
    if isinstance(value, int | float) and not isinstance(value, bool) and not meant(value):
        raise ValueError(BEYOND_PROBLEM)
    return value


Identity = Annotated[str, AfterValidator(_hex16)]
Timestamp = Annotated[str, AfterValidator(_timestamp)]
Shown = Annotated[str, AfterValidator(_visible)]
"""Text a page shows as a name: no character of a hidden class."""
Name = Annotated[Shown, Field(min_length=1)]
Count = Annotated[int, Field(ge=0)]
Amount = Annotated[float, Field(ge=0)]
Unit = Annotated[float, Field(ge=0, le=1)]
Status = Literal["pass", "fail", "error"]
ToolStatus = Literal["success", "error", "not_reported"]
"""How a tool call went: ``success`` is what the document leaves unwritten."""
Metadata = dict[str, JsonValue]
Scalar = Annotated[str | int | float | bool, BeforeValidator(_scalar)]
