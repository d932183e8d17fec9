"""The values a run document holds, each with its check: identities, timestamps, names a page
shows, counts, amounts, statuses; and the refusal a check raises, naming its key.

A check that fails raises ``refusal(key, problem)``; the codec joins the key to the location
pydantic reports, so a message reads ``results[2].verdicts[0].status: …``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from generator.document.numbers import LARGEST, meant

REFUSAL = "runsite_refusal"
BEYOND_PROBLEM = f"a number beyond ±{LARGEST:,}, which no run means"


def refusal(key: str, problem: str) -> PydanticCustomError:
    """A validation failure at ``key`` (a path relative to the record being validated)."""
    return PydanticCustomError(REFUSAL, "{problem}", {"key": key, "problem": problem})


def placed(at: str, error: PydanticCustomError) -> PydanticCustomError:
    """``error``, raised by a check of the part at ``at``, as a refusal of the whole."""
    context = error.context or {}
    key = str(context.get("key", ""))
    joined = f"{at}{key}" if key.startswith("[") else f"{at}.{key}" if key else at
    return refusal(joined, str(context.get("problem", error.message())))


Part = TypeVar("Part")


def check_at(at: str, check: Callable[[Part], None], part: Part) -> None:
    """``check(part)``, its refusal ``placed`` at ``at``: a whole checks its parts itself, once
    for all of them, rather than pydantic calling into Python for each."""
    try:
        check(part)
    except PydanticCustomError as error:
        raise placed(at, error) from None


def check_each(key: str, parts: Iterable[Part], check: Callable[[Part], None]) -> None:
    """``check_at`` each of ``parts``, the list at ``key`` (a refusal reads ``key[n]…``), its
    ``try`` written here, not called, as a run has hundreds of parts."""
    for n, part in enumerate(parts):
        try:
            check(part)
        except PydanticCustomError as error:
            raise placed(f"{key}[{n}]", error) from None


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


HIDDEN_RANGES = (
    (0x0, 0x1F),
    (0x7F, 0x9F),
    (0xAD, 0xAD),
    (0x600, 0x605),
    (0x61C, 0x61C),
    (0x6DD, 0x6DD),
    (0x70F, 0x70F),
    (0x890, 0x891),
    (0x8E2, 0x8E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
"""The code points of the hidden classes, surrogates aside, as this Python's Unicode tables
(``unicodedata``) have them; a test holds the two together. Written out so that pydantic checks
every name against them in Rust, without a call into Python for each of a run's thousands of
names (a lone surrogate it refuses on its own, as no Unicode text)."""

VISIBLE = "^[^" + "".join(f"\\x{{{low:X}}}-\\x{{{high:X}}}" for low, high in HIDDEN_RANGES) + "]*$"
"""The pattern of a name: no character of a hidden class."""

IDENTITY = "^[0-9a-f]{16}$"
"""The pattern of an identity (``config_hash``, ``assertion_id``)."""

_HIDDEN_PROBLEM = "a name with an invisible or control character ({code})"


def pattern_problem(pattern: str, value: object) -> str:
    """What is wrong with ``value``, which does not match ``pattern`` (or is no Unicode text),
    said without quoting it."""
    if pattern == IDENTITY:
        return "not an identity of 16 lowercase hexadecimal digits"
    if pattern == VISIBLE or not pattern:
        code = hidden_character(value) if isinstance(value, str) else None
        return _HIDDEN_PROBLEM.format(code=code or "?")
    return "not in the expected form"


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


Identity = Annotated[str, Field(pattern=IDENTITY)]
Timestamp = Annotated[str, AfterValidator(_timestamp)]
Shown = Annotated[str, Field(pattern=VISIBLE)]
"""Text a page shows as a name: no character of a hidden class."""
Name = Annotated[Shown, Field(min_length=1)]
Count = Annotated[int, Field(ge=0, le=LARGEST)]
Amount = Annotated[float, Field(ge=0, le=LARGEST)]
Unit = Annotated[float, Field(ge=0, le=1)]
Figure = Annotated[float, Field(ge=-LARGEST, le=LARGEST)]
"""A measurement on its own scale (a count, seconds, tokens): any number a run can hold."""
Status = Literal["pass", "fail", "error", "measured"]
"""``measured``: a figure on its own scale that no threshold judged (``own_scale``)."""
ToolStatus = Literal["success", "error", "not_reported"]
"""How a tool call went: ``success`` is what the document leaves unwritten."""


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _json_values(metadata: dict[str, Any]) -> dict[str, Any]:
    """Refuse a value that is not JSON: checked once a mapping, in one call, where pydantic's
    ``JsonValue`` calls back into Python for each value (some 700 calls a run of 180 verdicts,
    twice, as the redacted run holds them too)."""
    for value in metadata.values():
        if type(value) not in _SCALARS:
            _json_value(value)
    return metadata


def _json_value(value: Any) -> None:
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise ValueError("an object with a key that is not a string")
        for item in value.values():
            _json_value(item)
    elif isinstance(value, list):
        for item in value:
            _json_value(item)
    elif value is not None and not isinstance(value, str | int | float):
        raise ValueError(f"a {type(value).__name__}, which JSON does not have")


Metadata = Annotated[dict[str, Any], AfterValidator(_json_values)]
Scalar = Annotated[str | int | float | bool, BeforeValidator(_scalar)]
