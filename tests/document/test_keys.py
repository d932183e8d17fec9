"""A message names a key the schema declares by its name, and any other by its place: the
declared keys are every field of the full run and of the redacted run, at any depth."""

from __future__ import annotations

import typing

from pydantic import BaseModel

from generator.document.keys import DECLARED
from generator.document.model import Run
from generator.document.redacted import RedactedRun


def _fields(model: type[BaseModel]) -> set[str]:
    """Every field name of ``model`` and of the models its fields hold, at any depth."""
    found: set[str] = set()
    seen: set[type] = set()
    waiting: list[object] = [model]
    while waiting:
        kind = waiting.pop()
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            if kind in seen:
                continue
            seen.add(kind)
            for field in kind.model_fields.values():
                waiting.append(field.annotation)
            found |= kind.model_fields.keys()
        else:
            waiting += typing.get_args(kind)
    return found


def test_every_key_of_either_run_is_declared():
    assert _fields(RedactedRun) <= DECLARED
    assert _fields(Run) <= DECLARED
