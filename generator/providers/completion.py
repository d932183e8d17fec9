"""One call to a model, as every provider reads its API's reply: the text, the tokens, how the
turn ended, the tools it asked for and the model that answered.

A provider reads the reply's JSON body (the SDK's parsed reply, dumped back to JSON) with its
own pure reader, so a body that is not a reply (no choices, a content that is not a list) is
``Unreadable`` with a sentence, never a traceback. How the turn ended is put in digline's one
vocabulary (``stop``, ``length``, ``tool_use``, ``filtered``, ``other``): a word the provider's
table does not know is ``other``, never ``stop``, so an ending nobody mapped cannot pass for a
normal one (ADR 0057 records this ``finish``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.document.codec import every_problem
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


class ClientSettings(BaseModel):
    """The settings of a provider target that go to the SDK's client rather than the model:
    where the API is, and the SDK's own timeout (seconds per attempt) and retries (with backoff
    on 429 and 5xx). Unset, the SDK's defaults hold."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    base_url: Annotated[str, Field(pattern=r"^https?://[^/\s]")] | None = None
    timeout: Annotated[float, Field(gt=0)] | None = None
    max_retries: Annotated[int, Field(ge=0)] | None = None

    def options(self) -> dict[str, Any]:
        """The keyword arguments of the SDK's client."""
        given = {
            "base_url": self.base_url,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }
        return {key: value for key, value in given.items() if value is not None}

    def late(self) -> str:
        """How long an attempt was given, for the sentence of a timeout."""
        return f"within {self.timeout:g} s" if self.timeout else "within the SDK's timeout"


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


def refused(status: int, body: Any, retries: int) -> CallFailed:
    """An HTTP error the SDK gave up on: the status, the retries it made where it retries that
    status (a rate limit, a server error), and the API's own message where it gave one."""
    detail = body.get("error", body) if isinstance(body, dict) else None
    message = detail.get("message") if isinstance(detail, dict) else None
    retried = status in (408, 409, 429) or status >= 500
    return CallFailed(
        f"the API answered HTTP {status}"
        + (f" after {retries} retries" if retried else "")
        + (f": {message}" if isinstance(message, str) and message else "")
    )


def body_of(reply: Any) -> dict[str, Any]:
    """The reply an SDK parsed, as the JSON object the API sent."""
    if not isinstance(reply, BaseModel):
        raise Unreadable("the API's reply is not a JSON object")
    return reply.model_dump(mode="json")


def settings_of(
    model: type[BaseModel], values: Mapping[str, Any], why_not: Mapping[str, str]
) -> Any:
    """The target's settings as ``model`` declares them; ``ValueError`` naming every key the
    provider does not take (with why, where there is a reason) or every value it refuses."""
    unknown = sorted(set(values) - set(model.model_fields))
    if unknown:
        reasons = "".join(
            f": {why}" for why in dict.fromkeys(why_not.get(k, "") for k in unknown) if why
        )
        raise ValueError(f"it takes no {', '.join(unknown)}{reasons}")
    try:
        return model.model_validate(dict(values))
    except ValidationError as error:
        raise ValueError("; ".join(f"{k}: {p}" for k, p in every_problem(error))) from None
