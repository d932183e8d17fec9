"""What the importers of foreign formats say alike: a payload value as a reason's text, reasons
joined, and a foreign timestamp as a run's ``created_at``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from generator.document.codec import compact
from generator.errors import DocumentRefused


def text(value: Any) -> str | None:
    """``value`` as text: a string as it is, anything else as compact JSON; None for None."""
    if value is None:
        return None
    return value if isinstance(value, str) else compact(value)


def joined(first: str | None, second: str) -> str:
    """``second`` on a line after ``first``, where there is a first."""
    return f"{first}\n{second}" if first else second


def said(reason: str | None) -> dict[str, Any]:
    """A verdict's ``reason`` key, where there is a reason."""
    return {"reason": reason} if reason else {}


def moment(value: str, where: str) -> str:
    """An ISO-8601 timestamp with its UTC offset, at microseconds; a refusal names ``where``."""
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        raise DocumentRefused(where, "not an ISO-8601 timestamp") from None
    if found.tzinfo is None:
        raise DocumentRefused(where, "an ISO-8601 timestamp without its UTC offset")
    return found.isoformat(timespec="microseconds")
