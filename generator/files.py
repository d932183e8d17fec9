"""Reading run documents from disk: the one place a path becomes bytes for the codec."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from generator.archive.config import Limits, SizeKey, too_large
from generator.document.codec import Decoded, read_arriving
from generator.errors import DocumentRefused, Refused


def document_paths(paths: Iterable[Path]) -> list[Path]:
    """Each file as given, and every ``*.json`` below each folder, in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.json") if p.is_file())
        elif path.exists():
            found.append(path)
        else:
            raise Refused(f"{path}: no such file or folder")
    return found


def read_bytes(path: Path, key: SizeKey = "document_mb", limits: Limits | None = None) -> bytes:
    """The file's bytes, or a refusal naming the file; a file larger than the size limit
    ``key`` is refused by its size, unread, and one that grows past it is read no further."""
    most = (limits or Limits()).size(key)
    try:
        with path.open("rb") as file:
            fits = os.fstat(file.fileno()).st_size <= most
            data = file.read(most + 1) if fits else b""
    except OSError as error:
        raise Refused(f"{path}: cannot be read ({error.strerror or error})") from None
    if not fits or len(data) > most:
        raise DocumentRefused("", too_large(key, most), str(path))
    return data


def read_document(path: Path, limits: Limits | None = None) -> Decoded:
    """One run document, read, migrated and validated; a refusal names the file."""
    try:
        return read_arriving(read_bytes(path, "document_mb", limits))
    except DocumentRefused as refused:
        raise refused.located(str(path)) from None
