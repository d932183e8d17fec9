"""Reading run documents from disk: the one place a path becomes bytes for the codec."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from generator.document.codec import Reading, read_run
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


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or a refusal naming the file."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise Refused(f"{path}: cannot be read ({error.strerror or error})") from None


def read_document(path: Path) -> Reading:
    """One run document, read, migrated and validated; a refusal names the file."""
    try:
        return read_run(read_bytes(path))
    except DocumentRefused as refused:
        raise refused.located(str(path)) from None
