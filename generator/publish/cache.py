"""What a build learnt of each run, kept beside the archive for the next build.

A run document never changes under its blob id, so what a build derives from it (the summary
its suite's page and the home page show, and the sieve's keys of its payload) is kept under
that id, for the code and the disclosure it was derived under, in packs (each the work of one
process of one build, pickled: the cache is runsite's own, like the templates it keeps compiled
beside it), the keys in a file beside each pack. A build then reads only the runs that arrived
since the last one. It also keeps the sieve it made of every run's keys, which later builds map
from its files instead of making it again, sieving apart for the runs it lacks: so a rebuild
reads no run's keys but those. For each folder a site is built in, it keeps that site's
records (``records``). The cache lives in the archive's own ``.runsite/`` folder, which ignores
itself in git. Of each payload string it holds the first 16 bytes, the last 4 and the length,
not the rest (the documents beside it hold them whole), and losing it costs only time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import secrets
import shutil
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from generator.guard.sieve import SHARD, Keys
from generator.publish.heap import give_back_freed
from generator.publish.records import SiteRecords
from generator.site.summary import RunSummary

FOLDER = ".runsite"

Learnt = tuple[RunSummary, Keys]
"""What a build learns of a run: its summary, for the pages of its suite and the home page, and
the sieve's keys of its payload."""


class Known(NamedTuple):
    """What a cache knows of the runs it holds (their summaries and the keys of their payload
    it reads when asked: ``summaries``, ``keys``)."""

    created: dict[str, str]
    """When each was measured (its ``created_at``), by blob id."""
    worse: dict[tuple[str, str], int]
    """How many of a run's checks got worse against a reference run, by the blob ids of both."""
    sizes: dict[str, int]
    """The bytes of each, by blob id: so that a build asks git only for the new runs'."""


OPENED = 500
"""Runs whose summaries a build keeps read, the packs read last (``RunCache.summaries``): a
suite's recent runs lie in a few, and a merged pack holds ``SHARD`` runs, so a bound on packs
alone held every run's at 10,000 runs (99 MB). The pages of older runs ask for a block of them
at a time, in order: with 2,000, making the pages that span runs at 10,000 runs peaked at
164 MB, with 500 (or a merged pack, whichever is more) at 152."""

PACKS = 128
"""Packs past which a build merges those of fewer than ``SHARD`` runs. Each process of a build
that learnt something adds one (a full build one a stretch of ``work.CHUNK`` runs, a rebuild
after one more run one), and each is one more file to open."""


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
        self._keyed: dict[str, Path] = {}
        """The file that holds each known run's keys, as ``known`` found them: its summary is in
        the pack beside it."""
        self._opened: OrderedDict[Path, dict[str, RunSummary]] = OrderedDict()
        self._small: list[tuple[Path, list[str]]] = []
        """The packs ``merge`` takes together, with their runs: those of fewer than ``SHARD``
        runs (and those that cannot be read, none), where ``known`` found more than ``PACKS``
        packs."""

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
        """What the builds before learnt: every pack's runs and counts, read once (a pack that
        cannot be read, or whose keys are gone, is passed over, as losing it costs only time).
        The summaries stay in their packs. Past ``PACKS`` packs, the cache is ``crowded``."""
        self._keyed.clear()
        self._opened.clear()
        created: dict[str, str] = {}
        worse: dict[tuple[str, str], int] = {}
        sizes: dict[str, int] = {}
        small: list[tuple[Path, list[str]]] = []
        packs = sorted(self.folder.glob("*.pack"))
        for pack in packs:
            keys = pack.with_suffix(".keys")
            try:
                with pack.open("rb") as packed:  # its head only (``_pack``)
                    more_created, more_worse, more_sizes = pickle.load(packed)
                if not keys.is_file():
                    continue
            except Exception:  # unreadable, cut short, or not a pack: anything unpickling raises
                small.append((pack, []))
                continue
            created.update(more_created)
            worse.update(more_worse)
            sizes.update(more_sizes)
            self._keyed.update(dict.fromkeys(more_created, keys))
            if len(more_created) < SHARD:
                small.append((pack, list(more_created)))
        self._small = small if len(packs) > PACKS else []
        return Known(created, worse, sizes)

    @property
    def crowded(self) -> bool:
        """Whether ``known`` found packs to merge."""
        return bool(self._small)

    def merge(self, known: Known) -> None:
        """Merge the packs of fewer than ``SHARD`` runs that ``known`` (the cache's ``known``)
        found, past ``PACKS`` of them, into packs of that many, the last one of fewer (and
        remove those that cannot be read); ``known`` then reads the merged ones. The counts of
        worse checks go into the first: no more keys in memory at once than a pack's.

        The runs go in the order they were measured, so that every suite's newest runs, which
        its pages ask for, lie in the last packs: merged in the packs' order, they lay in every
        pack, and a rebuild at 10,000 runs read each pack again and again (13.7 s)."""
        small, self._small = self._small, []
        if not small:
            return
        created, worse, sizes = known
        blobs = [blob for _, some in small for blob in some if blob in self._keyed]
        blobs.sort(key=lambda blob: (created.get(blob, ""), blob))
        for start in range(0, max(len(blobs), 1), SHARD):
            learnt = self.keys(blobs[start : start + SHARD])
            summaries = self.summaries(list(learnt))
            merged = self._pack(
                {blob: (summaries[blob], learnt[blob]) for blob in learnt if blob in summaries},
                worse if start == 0 else {},
                sizes,
            )
            self._keyed.update(dict.fromkeys(learnt, merged))
        for pack, _ in small:
            pack.unlink(missing_ok=True)
            pack.with_suffix(".keys").unlink(missing_ok=True)
        self._opened.clear()
        give_back_freed()

    def summaries(self, blobs: Sequence[str]) -> dict[str, RunSummary]:
        """The summaries of ``blobs`` (runs ``known`` found, or this build ``learnt``), read
        from their packs when asked: a build holds those of the pages it writes, not every
        run's (12 KB a run of the bench's shape). The packs read last stay open, up to
        ``OPENED`` runs' summaries, as a suite's pages ask for runs that lie together."""
        by_pack: dict[Path, list[str]] = {}
        for blob in blobs:
            keys = self._keyed.get(blob)
            if keys is not None:
                by_pack.setdefault(keys.with_suffix(".pack"), []).append(blob)
        found: dict[str, RunSummary] = {}
        for pack, some in by_pack.items():  # each pack read once for all it is asked
            if pack not in self._opened:
                try:
                    with pack.open("rb") as packed:
                        pickle.load(packed)  # its head
                        self._opened[pack] = pickle.load(packed)
                except Exception:  # gone or cut short since it was known: read again
                    self._opened[pack] = {}
            self._opened.move_to_end(pack)
            held = self._opened[pack]
            found.update({blob: held[blob] for blob in some if blob in held})
            while sum(map(len, self._opened.values())) > OPENED and len(self._opened) > 1:
                del self._opened[next(iter(self._opened))]
        return found

    def keys(self, blobs: Iterable[str]) -> dict[str, Keys]:
        """The payload keys of the runs ``known`` found, of those among ``blobs`` whose keys
        can be read (the others' runs are to be read again)."""
        wanted: dict[Path, list[str]] = {}
        for blob in blobs:
            if blob in self._keyed:
                wanted.setdefault(self._keyed[blob], []).append(blob)
        found = {}
        for path, some in wanted.items():
            try:
                held = pickle.loads(path.read_bytes())
                found.update({blob: held[blob] for blob in some})
            except Exception:  # gone or cut short since ``known`` looked: read again
                self._keyed = {b: p for b, p in self._keyed.items() if p != path}
        return found

    def keep(
        self,
        runs: Mapping[str, Learnt],
        worse: Mapping[tuple[str, str], int],
        sizes: Mapping[str, int],
    ) -> Path | None:
        """Keep what a build learnt (of its runs, their sizes among ``sizes``, and how many
        checks got worse against which reference) in a pack of its own: the file that holds the
        runs' keys (``learnt``)."""
        return self._pack(runs, worse, sizes) if runs or worse else None

    def learnt(self, blobs: Iterable[str], keys: Path) -> None:
        """The keys of ``blobs`` are in ``keys``, which a process of this build kept (``keep``),
        and their summaries in the pack beside it: ``keys`` and ``summaries`` read them from
        there, so that the build holds no run's keys but while it sieves for them, nor its
        summary but while it writes the pages that show it."""
        self._keyed.update(dict.fromkeys(blobs, keys))

    def _pack(
        self,
        runs: Mapping[str, Learnt],
        worse: Mapping[tuple[str, str], int],
        sizes: Mapping[str, int],
    ) -> Path:
        """A pack: how many got worse, and when each run was measured and its size (of those
        ``sizes`` has), then the runs' summaries, two pickles one after the other, so that
        ``known`` reads the first alone (the summaries are 12 KB a run of the bench's shape,
        and reading them all took 0.04 s of a rebuild at 10,000 runs); and beside it the
        runs' keys (the file returned), written first, as a pack whose keys are missing is
        passed over."""
        name = secrets.token_hex(8)
        keys = {blob: held for blob, (_, held) in runs.items()}
        path = self.folder / f"{name}.keys"
        self._write(path, pickle.dumps(keys, pickle.HIGHEST_PROTOCOL))
        summaries = {blob: summary for blob, (summary, _) in runs.items()}
        created = {blob: summary.created_at for blob, summary in summaries.items()}
        held = {blob: sizes[blob] for blob in runs if blob in sizes}
        data = pickle.dumps((created, dict(worse), held), protocol=pickle.HIGHEST_PROTOCOL)
        data += pickle.dumps(summaries, protocol=pickle.HIGHEST_PROTOCOL)
        self._write(self.folder / f"{name}.pack", data)
        return path

    def sieve(self) -> tuple[list[str], Path] | None:
        """The runs (blob ids, in order) of the sieve the last build kept, and the folder it
        is in (``Sieve.load``); None where there is none to read."""
        try:
            name, blobs = pickle.loads((self.folder / "sieve").read_bytes())
        except Exception:  # none yet, or not a record: the build makes one
            return None
        folder = self.folder / name
        return (blobs, folder) if folder.is_dir() else None

    def keep_sieve(self, blobs: Sequence[str], make: Callable[[Path], None]) -> Path:
        """Keep the sieve of the keys of ``blobs`` in that order, which ``make`` writes into the
        folder it is given (``Sieve.write``), for the next builds, in place of the one kept
        before: the folder it is in."""
        name = f"sieve-{secrets.token_hex(8)}"
        make(self.folder / name)
        record = pickle.dumps((name, list(blobs)), pickle.HIGHEST_PROTOCOL)
        self._write(self.folder / "sieve", record)
        for other in self.folder.glob("sieve-*"):
            if other.name != name:
                shutil.rmtree(other, ignore_errors=True)
        return self.folder / name

    def site(self, out: Path) -> SiteRecords:
        """What the cache keeps of the site at ``out``: one record for each folder the
        archive's site is built in."""
        name = hashlib.sha256(os.fsencode(out.resolve())).hexdigest()[:32]
        return SiteRecords(self.folder / "sites" / name, self._write)

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
