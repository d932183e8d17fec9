"""How a message names a key of a document: by name when the schema declares it, else by place.

A document's own keys (run and verdict metadata, config settings, artifact paths, keys this
runsite does not know) can be payload as much as values can (``customer_jane_doe_ssn``), and
messages end up in logs. So a path in a refusal, a warning or a leak report names such a key
``#N``: the Nth key (from 0) of its object that the schema does not declare, in the order the
object was written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from generator.document.disclosure import Disclosure, Withheld
from generator.document.model import Run
from generator.document.record import PERIMETER, PRICED_WITH_PERIMETER, SETTINGS, Record


def _declared() -> frozenset[str]:
    found: set[str] = set()
    models: list[type[Record]] = [Run, Disclosure, Withheld, Record]
    while models:
        model = models.pop()
        found |= model.model_fields.keys()
        models += model.__subclasses__()
    return frozenset(found | REDACTED_ONLY | SETTINGS.keys() | PERIMETER | PRICED_WITH_PERIMETER)


REDACTED_ONLY = frozenset({"disclosure", "withheld"})
"""The keys a redacted run declares and a full run does not. Named here because this module sits
beneath ``redacted`` (whose checks name keys through it); a test holds the two to each other."""


DECLARED = _declared()
"""Every key the schema declares, at any level, and the config settings it knows by name."""


def steps(keys: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each key of one object, in order, with the step a message names it by."""
    undeclared = 0
    for key in keys:
        if key in DECLARED:
            yield key, key
        else:
            yield key, f"#{undeclared}"
            undeclared += 1


def step_to(key: str, keys: Iterable[str]) -> str:
    """The step that names ``key`` among the keys of its object."""
    return next(step for name, step in steps(keys) if name == key)


def joined(path: str, step: str) -> str:
    """``path`` one key further down."""
    return f"{path}.{step}" if path else step
