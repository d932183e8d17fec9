"""What a build learnt of each run, kept beside the archive for the next build.

A run document never changes under its blob id, so what a build derives from it (the summary
its suite's page and the home page show, and the sieve's keys of its payload) is kept under
that id, for the code and the disclosure it was derived under, in packs (each the work of one
process of one build, pickled: the cache is runsite's own, like the templates it keeps compiled
beside it). A build then reads only the runs that arrived since the last one. The cache lives
in the archive's own ``.runsite/`` folder, which ignores itself in git. Of each payload string
it holds the first 16 bytes, the last 4 and the length, not the rest (the documents beside it
hold them whole), and losing it costs only time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import secrets
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from generator.site.kept import Signed
from generator.site.sieve import Keys
from generator.site.summary import RunSummary

FOLDER = ".runsite"

Learnt = tuple[RunSummary, Keys]
"""What a build learns of a run: its summary, for the pages of its suite and the home page, and
the sieve's keys of its payload."""

Known = tuple[dict[str, Learnt], dict[tuple[str, str], int]]
"""What a cache holds: what was learnt of each run, by blob id; and how many of a run's checks
got worse against a reference run, by the blob ids of both."""

PACKS = 128
"""Packs past which a build merges them into one. Each process of a build that learnt something
adds one (a full build one a stretch of ``work.CHUNK`` runs, a rebuild after one more run one),
and each is one more file to open."""


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
    """Summaries and payload keys by blob id, and suite pages' bodies and search entries by
    suite and language, for one code and disclosure digest."""

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

    def known(self) -> Known:
        """What the builds before learnt: every pack, read once (one that cannot be read is
        passed over, as losing it costs only time); past ``PACKS`` of them, merged into one."""
        runs: dict[str, Learnt] = {}
        worse: dict[tuple[str, str], int] = {}
        packs = sorted(self.folder.glob("*.pack"))
        for pack in packs:
            try:
                more_runs, more_worse = pickle.loads(pack.read_bytes())
                runs.update(more_runs)
                worse.update(more_worse)
            except Exception:  # unreadable, cut short, or not a pack: anything unpickling raises
                continue
        if len(packs) > PACKS:
            self._pack(runs, worse)
            for pack in packs:
                pack.unlink(missing_ok=True)
        return runs, worse

    def keep(self, runs: Mapping[str, Learnt], worse: Mapping[tuple[str, str], int]) -> None:
        """Keep what a build learnt (of its runs, and how many checks got worse against which
        reference) in a pack of its own."""
        if runs or worse:
            self._pack(runs, worse)

    def _pack(self, runs: Mapping[str, Learnt], worse: Mapping[tuple[str, str], int]) -> None:
        data = pickle.dumps((dict(runs), dict(worse)), protocol=pickle.HIGHEST_PROTOCOL)
        self._write(self.folder / f"{secrets.token_hex(8)}.pack", data)

    def signatures(self, out: Path) -> Path:
        """Where the signatures of the files of the site at ``out`` are kept (``kept.sign``):
        one record for each folder the archive's site is built in."""
        name = hashlib.sha256(os.fsencode(out.resolve())).hexdigest()[:32]
        return self.folder / "sites" / name

    def keep_signatures(self, out: Path, signed: Signed) -> None:
        """Keep the signatures of the site just put in place at ``out``."""
        path = self.signatures(out)
        path.parent.mkdir(exist_ok=True)
        self._write(path, pickle.dumps(signed, protocol=pickle.HIGHEST_PROTOCOL))

    def text(self, name: str, inputs: str) -> str | None:
        """The text kept under ``name`` (a suite page's body, its search entries) if it was made
        from ``inputs`` (a digest)."""
        try:
            kept = self._path(name, ".text").read_text(encoding="utf-8")
        except OSError:
            return None
        made, _, text = kept.partition("\n")
        return text if made == inputs else None

    def keep_text(self, name: str, inputs: str, text: str) -> None:
        """Keep ``text`` under ``name``, in place of the one made from other inputs."""
        self._write(self._path(name, ".text"), f"{inputs}\n{text}".encode())
