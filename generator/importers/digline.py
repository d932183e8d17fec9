"""digline's run documents: loose files, and stores laid out as digline writes them.

A store keeps ``.digline/<tenant>/runs/<suite>/<key>.json`` (one run each) and
``.digline/<tenant>/baselines/<suite>.json`` (the suite's promoted run). Inside a store only
those two places hold run documents; digline keeps other files there that are not runs.
"""

from __future__ import annotations

from pathlib import Path

from generator.archive import Arrival
from generator.document.codec import read_arriving
from generator.errors import DocumentRefused
from generator.files import read_bytes
from generator.importers.options import Options

NAME = "digline"
STORE = ".digline"


def claims(path: Path) -> bool:
    """Whether ``path`` is a digline run document, by its name and place."""
    return path.suffix == ".json" and (STORE not in path.parts or _in_store(path) is not None)


def read(path: Path, options: Options) -> list[Arrival]:
    """One document, read, migrated and validated; a refusal names the file.

    A document names its own tenant and suite: one that contradicts ``--tenant`` or ``--suite``
    is refused, since the archive keeps its bytes as they are.
    """
    data = read_bytes(path, "document_mb", options.limits)
    try:
        reading = read_arriving(data)
        for key, given in (("tenant", options.tenant), ("suite", options.suite)):
            if given is not None and getattr(reading.run, key) != given:
                raise DocumentRefused(
                    key, f"not the --{key} given; a digline document keeps its own"
                )
    except DocumentRefused as refused:
        raise refused.located(str(path)) from None
    return [Arrival(str(path), data, reading, baseline=_in_store(path) == "baselines")]


def _in_store(path: Path) -> str | None:
    """``runs`` or ``baselines`` where ``path`` is one of a store's documents, else None."""
    parts = path.parts
    if len(parts) >= 5 and parts[-5] == STORE and parts[-3] == "runs":
        return "runs"
    if len(parts) >= 4 and parts[-4] == STORE and parts[-2] == "baselines":
        return "baselines"
    return None
