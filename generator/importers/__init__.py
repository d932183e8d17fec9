"""Importers: each format runsite reads into the archive, and which one a file belongs to.

An importer is a module with ``NAME``, ``claims(path) -> bool`` and ``read(path, options) ->
list[Arrival]`` (a promptfoo eval is a run per prompt × provider). They read and never write;
the archive decides what is kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from generator.archive import Arrival
from generator.errors import DocumentRefused, Refused
from generator.importers import digline, inspect_ai, promptfoo
from generator.importers.options import Options

IMPORTERS: tuple[ModuleType, ...] = (inspect_ai, promptfoo, digline)
"""In the order they are asked; the first that claims a file reads it (an Inspect ``.json`` log
and a promptfoo ``.json`` are told by their first bytes, so they are asked before digline, which
claims any ``.json``)."""


@dataclass
class Batch:
    """What a set of paths read as: documents on their way in, and the files refused."""

    arrivals: list[Arrival] = field(default_factory=list)
    refused: list[DocumentRefused] = field(default_factory=list)


def detect(path: Path) -> ModuleType | None:
    """The importer that reads ``path``, if any does."""
    return next((importer for importer in IMPORTERS if importer.claims(path)), None)


def files_of(paths: Iterable[Path]) -> list[Path]:
    """Each file as given, and every file below each folder that an importer claims, in order.

    A git repository's own folder is never searched, and the files Inspect writes beside its
    logs are left out of a folder as Inspect leaves them out of its listing.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and ".git" not in p.relative_to(path).parts
                and p.name not in inspect_ai.BESIDE_LOGS
                and detect(p)
            )
        elif path.is_file():
            found.append(path)
        elif path.exists():
            raise Refused(f"{path}: neither a file nor a folder (a device, a pipe); import files")
        else:
            raise Refused(f"{path}: no such file or folder")
    return found


def read_files(files: Iterable[Path], options: Options | None = None) -> Batch:
    """Every file read by its importer; a file no importer claims is refused by name."""
    batch = Batch()
    for path in files:
        importer = detect(path)
        try:
            if importer is None:
                raise DocumentRefused(
                    "",
                    "not a format runsite imports (a digline .json, an Inspect .eval or .json, "
                    "promptfoo's .json or .jsonl)",
                )
            batch.arrivals += importer.read(path, options or Options())
        except DocumentRefused as refused:
            batch.refused.append(refused.located(refused.source or str(path)))
    return batch
