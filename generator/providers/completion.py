"""One call to a model, as every provider reads its API's reply: the text, the tokens, how the
turn ended, the tools it asked for and the model that answered.

A provider reads the reply's JSON body with its own pure reader, so a body that is not a reply (no choices, a content that is not a list) is
``Unreadable`` with a sentence, never a traceback. How the turn ended is put in digline's one
vocabulary (``stop``, ``length``, ``tool_use``, ``filtered``, ``other``): a word the provider's
table does not know is ``other``, never ``stop``, so an ending nobody mapped cannot pass for a
normal one (ADR 0057 records this ``finish``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.suite.target_spec import ToolSpec


class CallFailed(Exception):
    """The API gave no reply (an HTTP error after the SDK's retries, a timeout, no connection):
    the sentence becomes the error verdict's reason."""


class Unreadable(Exception):
    """The API replied with a body that is not a reply."""


@dataclass(frozen=True)
class ToolRequest:
    """A tool call the reply asked for: the tool's name (None when the reply named none) and
    its arguments as the API gave them (JSON text, or an object; None when it gave none)."""

    tool: str | None
    arguments: Any


@dataclass(frozen=True)
class Completion:
    """One reply. ``usage`` is None when the API reported no token counts; ``finish`` when it
    said nothing about how the turn ended; ``model`` when it did not say which model answered."""

    text: str
    usage: dict[str, int] | None
    finish: str | None
    tool_calls: tuple[ToolRequest, ...]
    model: str | None


Complete = Callable[[str | None, str, tuple[ToolSpec, ...]], Completion]
"""One call: the system prompt (or None), the user message and the tools offered."""


def finish_of(word: Any, table: Mapping[str, str]) -> str | None:
    """A provider's word for how a turn ended, in digline's vocabulary."""
    if not isinstance(word, str) or not word:
        return None
    return table.get(word, "other")


def counts(
    input_tokens: Any, output_tokens: Any, cache_read: Any = 0, cache_write: Any = 0
) -> dict[str, int] | None:
    """Token counts as a run records them (a cache count only when not zero), or None when the
    API did not report whole input and output counts."""
    found = {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_read_tokens": cache_read or 0,
        "cache_write_tokens": cache_write or 0,
    }
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in found.values()):
        return None
    return {k: n for k, n in found.items() if n or k in ("input_tokens", "output_tokens")}
