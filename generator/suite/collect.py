"""``record_call``: how an agent under test hands each model call to the run in progress.

A client wrapper calls ``record_call`` after every model reply. During a run, the runner opens
a collection around the target's own call only, so the calls an agent makes inside one case are
gathered in order, while a judge's calls, made after the target returned, never join them.
Outside a run nothing is open and ``record_call`` does nothing, so production code may keep the
wrapper in place at no cost but a context-variable read.

The tool calls a reply asked for come back as records; the agent reports each one's outcome
(``returned`` or ``failed``) once it has run the tool, so a tool that raised is seen as such.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a type only: importing generator stays free of pydantic
    from generator.document.values import ToolStatus

_ABSENT: Any = object()


@dataclass
class ToolCallRecord:
    """One tool call a model reply asked for; its outcome is filled in when the tool has run."""

    tool: str | None
    arguments: Any = _ABSENT
    """The arguments as the model gave them; absent when the reply carried none."""
    result: str | None = None
    status: ToolStatus = "not_reported"

    def returned(self, result: Any) -> None:
        """The tool ran and returned ``result`` (kept as text)."""
        self.result = result if isinstance(result, str) else repr(result)
        self.status = "success"

    def failed(self) -> None:
        """The tool ran and failed."""
        self.status = "error"

    @property
    def has_arguments(self) -> bool:
        return self.arguments is not _ABSENT


@dataclass(frozen=True)
class ModelCall:
    """One model call, as the agent reported it."""

    finish: str | None
    tool_calls: tuple[ToolCallRecord, ...]
    usage: Mapping[str, int] | None = None
    latency_ms: float | None = None
    """Time spent waiting for the model, not the time the tools took."""
    model: str | None = None


@dataclass
class Collection:
    """The calls collected during one call of the target."""

    calls: list[ModelCall] = field(default_factory=list)


_open: ContextVar[Collection | None] = ContextVar("runsite_collection", default=None)


def record_call(
    *,
    finish: str | None = None,
    tool_calls: Sequence[Mapping[str, Any] | str] = (),
    usage: Mapping[str, int] | None = None,
    latency_ms: float | None = None,
    model: str | None = None,
) -> list[ToolCallRecord]:
    """Hand one model call to the run in progress; outside a run, do nothing.

    ``tool_calls`` holds what the reply asked for, each a tool name or a mapping with ``tool``
    (the name, or None when the reply named none) and optional ``arguments``. Returns one record
    per tool call, on which the agent reports the tool's outcome.
    """
    records = [
        ToolCallRecord(call)
        if isinstance(call, str)
        else ToolCallRecord(call.get("tool"), call.get("arguments", _ABSENT))
        for call in tool_calls
    ]
    collection = _open.get()
    if collection is not None:
        collection.calls.append(ModelCall(finish, tuple(records), usage, latency_ms, model))
    return records


@contextmanager
def collecting() -> Iterator[Collection]:
    """Open a collection for the duration of one call of the target."""
    collection = Collection()
    token = _open.set(collection)
    try:
        yield collection
    finally:
        _open.reset(token)
