"""What a build learnt of each run, kept beside the archive for the next build.

A run document never changes under its blob id, so what a build derives from it (the summary
its suite's page and the home page show, and the sieve's keys of its payload) is kept under
that id, for the code and the disclosure it was derived under. A build then reads only the
runs that arrived since the last one. The cache lives in the archive's own ``.runsite/``
folder, which ignores itself in git. Of each payload string it holds the first 16 bytes, the
last 4 and the length, not the rest (the documents beside it hold them whole), and losing it
costs only time.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from generator.site.sieve import Keys
from generator.site.summary import RunSummary

FOLDER = ".runsite"

Learnt = tuple[RunSummary, Keys]
"""What a build learns of a run: its summary, for the pages of its suite and the home page, and
the sieve's keys of its payload."""


STALE = 24 * 3600
"""Seconds after which another code's or disclosure's cache goes: one that a build is writing
(another runsite's, or one with ``--for-files``, at the same time) is left alone."""


def _stale(folder: Path) -> bool:
    try:
        return time.time() - folder.stat().st_mtime > STALE
    except OSError:
        return False


def _atomic(path: Path, data: bytes) -> None:
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, prefix=".") as temporary:
        temporary.write(data)
    os.replace(temporary.name, path)


class RunCache:
    """Summaries and payload keys by blob id, and suite pages' bodies by suite and language, for
    one code and disclosure digest."""

    def __init__(self, root: Path, digest: str) -> None:
        """Raises ``OSError`` where the cache cannot be written (a read-only checkout)."""
        self._base = root / FOLDER
        self.folder = self._base / "cache" / digest
        self._make()
        os.utime(self.folder)  # in use: another build leaves it alone (``STALE``)
        for other in self.folder.parent.iterdir():
            if other != self.folder and other.is_dir() and _stale(other):
                shutil.rmtree(other, ignore_errors=True)
        self.mkdocs = self._base / "mkdocs"
        """What mkdocs keeps: the theme's compiled templates, and its last output."""

    @property
    def templates(self) -> Path:
        """Where runsite's own templates are kept compiled: with this code's cache, as what
        jinja2 compiles depends on the environment's settings, which the code sets."""
        return self.folder / "templates"

    def _make(self) -> None:
        """The cache's folder, and the ``.gitignore`` that keeps ``.runsite/`` out of git."""
        self.templates.mkdir(parents=True, exist_ok=True)
        ignore = self._base / ".gitignore"
        if not ignore.is_file():
            ignore.write_text("*\n", encoding="utf-8")

    def _write(self, path: Path, data: bytes) -> None:
        """``data`` at ``path``, whole or not at all; a cache removed while a build writes to
        it (by hand, by ``git clean -fdx``) is made again, as losing it costs only time."""
        try:
            _atomic(path, data)
        except FileNotFoundError:
            self._make()
            _atomic(path, data)

    def _path(self, blob: str, suffix: str) -> Path:
        return self.folder / f"{blob}{suffix}"

    def learnt(self, blob: str) -> Learnt | None:
        """The run's summary and payload keys, if the cache holds them (in one file, read
        once)."""
        try:
            line, _, keys = self._path(blob, ".run").read_bytes().partition(b"\n")
            summary = RunSummary.from_json(json.loads(line))
        except (OSError, ValueError, TypeError, KeyError):
            return None
        return summary, np.frombuffer(keys, dtype="<u8").reshape(-1, 3)

    def against(self, blob: str, reference: str) -> int | None:
        """How many checks of the run got worse against the reference run, if known."""
        try:
            return int(self._path(blob, f".{reference}.worse").read_text())
        except (OSError, ValueError):
            return None

    def keep_against(self, blob: str, reference: str, worse: int) -> None:
        self._write(self._path(blob, f".{reference}.worse"), str(worse).encode())

    def body(self, name: str, inputs: str) -> str | None:
        """The body kept under ``name`` if it was made from ``inputs`` (a digest)."""
        try:
            kept = self._path(name, ".html").read_text(encoding="utf-8")
        except OSError:
            return None
        made, _, body = kept.partition("\n")
        return body if made == inputs else None

    def keep_body(self, name: str, inputs: str, body: str) -> None:
        """Keep ``body`` under ``name``, in place of the one made from other inputs."""
        self._write(self._path(name, ".html"), f"{inputs}\n{body}".encode())

    def keep(self, blob: str, summary: RunSummary, keys: Keys) -> None:
        """Keep a run's summary and keys in one file: its summary's JSON on the first line (which
        JSON written compact never breaks), the keys' bytes after it."""
        text = json.dumps(summary.to_json(), sort_keys=True, separators=(",", ":"))
        data = text.encode() + b"\n" + np.ascontiguousarray(keys, dtype="<u8").tobytes()
        self._write(self._path(blob, ".run"), data)
