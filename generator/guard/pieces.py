"""The pieces of the pages a site keeps: which arrived run's payload no kept page can carry,
known without reading the pages.

``sieve.OwnPages`` seeks in a kept page's ASCII-lowered bytes the forms runsite's templates
write a payload string in (``scan.own_forms``), each ASCII-lowered bytes too. Cut a page's
lowered bytes at every ``<`` and ``>``: its pieces. Cut a form the same way: its segments. A
page that carries the form has the form's ``<`` and ``>`` where the form has them, and no
segment holds one, so each segment lies within one piece (the first ends one, the last begins
one, any other is one whole). So a segment of ``LEAST`` bytes or more that lies within no piece
of ``LEAST`` bytes or more lies within no piece of that page at all, and the page does not
carry the form. A run none of whose forms a kept page can carry, each by a segment found in no
piece, need not be sought in the kept pages. A form with no segment of ``LEAST`` bytes cannot
be ruled out so: its run is sought in every kept page, as is each run the store cannot rule out
(``Store.absent``, which takes a segment's key found, its first 16 bytes, its last 4 and its
length, for the segment: never less).

The store of a site holds every piece of ``LEAST`` bytes or more, lowered, of every run,
comparison and older-runs page the builds of that site wrote (the only pages a build keeps: the
home and suite pages, the search index, the sitemap are written again and scanned whole every
time), each followed by a ``<``, so that no piece runs into the next: 49 MB at 1,000 runs of
the bench's shape (38 MB of them distinct), against 349 MB of pages, read and sieved in 0.08 s
on two threads where sieving the pages took 0.25. A build keeps each chunk's pieces where it
wraps the pages (``keep_batch``, each distinct once in the chunk), and then (``keep``) a full
build makes the store of them, a rebuild adds to it the pieces it lacks, known by a sorted
array of 8-byte hashes of its pieces (BLAKE2b); the kept pages' check makes it anew of the
kept pages it reads (``Remake``) when there is none to go on, or when what was added since it
was made has outgrown ``GROWN`` of it: the pieces of a page written again stay (they only make
the store larger), and that bounds them. A piece whose hash a piece of the store shares is not
added: one chance in 2**64 for each piece of the store (3e-14 for a new piece at 1,000 runs),
which the guarantee rests on as it rests on SHA-256 for a page found as written.

The store's record names the manifest of the site it covers, by its digest: written with the
manifest, before the site is put in place, so that a build stopped on the way leaves a record
that covers no site found (the check then seeks every run in every kept page, and makes the
store anew). Every page a site keeps was written by a build whose store each later one added
to, and the kept pages' check finds each as written (its digest, its signature) before the
store is taken for it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import secrets
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from generator.guard.scan import own_forms
from generator.guard.sieve import Keys, OwnPages, key_rows, own_keys

LEAST = 8
"""The fewest bytes of a piece the store holds, and of a segment it is asked for: shorter ones
are everywhere (and make up most of a page's pieces)."""

GROWN = 0.5
"""What the pieces added since the store was made may come to, of those it was made with,
before the next check makes it anew from the kept pages."""

MERGED = 1 << 16
"""Hashes of pieces added since the store was made (held in its record) past which a build
merges them into its index, so that the record stays small."""

BLOCK = 1 << 20
"""Bytes of the store a thread sieves in one go."""

_ANGLES = bytes.maketrans(b">", b"<")

Hashes = npt.NDArray[np.uint64]

Cuts = tuple[Keys, tuple[tuple[int, ...], ...]]
"""A run's segments (their keys, one row each, as ``sieve.Keys``) and, for each of its forms,
the segments of ``LEAST`` bytes or more it is cut into (their rows)."""

Arrived = tuple[Keys, Cuts | None]
"""What the kept pages' check is handed of a run that arrived: its ``own_keys``, and its cuts
(None when a form of it has no segment of ``LEAST`` bytes)."""


def pieces_of(page: bytes) -> set[bytes]:
    """The distinct pieces of ``LEAST`` bytes or more of a page, lowered."""
    return {piece for piece in page.lower().translate(_ANGLES).split(b"<") if len(piece) >= LEAST}


def arrived(payload: Collection[str]) -> Arrived:
    """What the kept pages' check needs of a run whose payload (its strings no page shows) is
    ``payload``."""
    return own_keys(payload), _cuts(own_forms(payload))


def _cuts(forms: Iterable[bytes]) -> Cuts | None:
    cut: set[tuple[tuple[int, int, int], ...]] = set()
    for form in forms:
        segments = [s for s in form.translate(_ANGLES).split(b"<") if len(s) >= LEAST]
        if not segments:
            return None
        cut.add(tuple(sorted(key_rows(segments))))
    rows = sorted({row for segments in cut for row in segments})
    ids = {row: n for n, row in enumerate(rows)}
    return (
        np.array(rows, dtype=np.uint64).reshape(-1, 3),
        tuple(sorted(tuple(ids[row] for row in segments) for segments in cut)),
    )


def _hashed(pieces: Collection[bytes]) -> tuple[Hashes, bytes]:
    """``pieces`` in order, each followed by ``<``, and the 8-byte hash of each."""
    ordered = sorted(pieces)
    digests = b"".join(hashlib.blake2b(piece, digest_size=8).digest() for piece in ordered)
    return np.frombuffer(digests, dtype="<u8").astype(np.uint64), b"".join(
        piece + b"<" for piece in ordered
    )


def keep_batch(folder: Path, pieces: Collection[bytes]) -> Path:
    """Keep ``pieces`` (of some pages a build wrote) in a file of ``folder``, for ``keep``."""
    folder.mkdir(exist_ok=True)
    path = folder / f"{secrets.token_hex(8)}.pieces"
    path.write_bytes(pickle.dumps(_hashed(pieces), pickle.HIGHEST_PROTOCOL))
    return path


@dataclass(frozen=True)
class Record:
    """What a store is: its files (in the record's folder), and the site it covers."""

    manifest: str
    """The SHA-256 of the manifest of the site it covers ("": none yet, a store just made)."""
    pieces: str
    """The file of its pieces."""
    length: int
    """The bytes of that file it is made of (a build stopped while adding to it left more)."""
    index: str
    """The file of the sorted hashes of its pieces but those of ``added``."""
    made: int
    """The bytes of pieces it was made with."""
    added: Hashes
    """The sorted hashes of the last pieces added, until ``MERGED`` of them are merged into the
    index."""


class Store:
    """The store of a site, as its record says it is, when it covers the site found."""

    def __init__(self, path: Path, record: Record) -> None:
        self._pieces = path.parent / record.pieces
        self.record = record

    @classmethod
    def read(cls, path: Path, manifest: str) -> Store | None:
        """The store recorded at ``path`` if it covers the site whose manifest has the digest
        ``manifest``; None where it does not, or where it is gone, cut short, or unreadable."""
        record = _recorded(path)
        if record is None or record.manifest != manifest:
            return None
        try:
            if (path.parent / record.pieces).stat().st_size < record.length:
                return None
        except OSError:
            return None
        return cls(path, record)

    def grown(self) -> bool:
        """Whether the store should be made anew (``GROWN``)."""
        return self.record.length - self.record.made > GROWN * self.record.made

    def absent(self, cuts: Sequence[Cuts | None], pool: Executor, threads: int) -> set[int]:
        """The runs (their places in ``cuts``) that no page the store covers can carry: every
        form of each has a segment whose key is found in no piece. Sieved with ``OwnPages``
        over blocks of the store, each block whole pieces, in ``threads`` threads of
        ``pool``."""
        rows: dict[tuple[int, ...], int] = {}
        forms: dict[int, list[list[int]]] = {}
        for run, cut in enumerate(cuts):
            if cut is not None:
                segments, cut_forms = cut
                ids = [rows.setdefault(tuple(row.tolist()), len(rows)) for row in segments]
                forms[run] = [[ids[n] for n in form] for form in cut_forms]
        if not forms:
            return set()
        sought = OwnPages(list(np.array(list(rows), dtype=np.uint64).reshape(-1, 1, 3)))
        found: set[int] = set()
        for runs in _bounded(pool, sought.runs_in, self._blocks(), 2 * threads):
            found |= runs
        return {run for run, its in forms.items() if all(not found.issuperset(f) for f in its)}

    def _blocks(self) -> Iterator[bytes]:
        """The store's bytes, in blocks of about ``BLOCK`` bytes that end where a piece does."""
        left = self.record.length
        carried = b""
        with open(self._pieces, "rb") as source:
            while left > 0:
                data = carried + source.read(min(BLOCK, left))
                if len(data) == len(carried):
                    raise OSError(f"{self._pieces}: shorter than its record says")
                left -= len(data) - len(carried)
                end = data.rfind(b"<") + 1
                carried = data[end:]
                if end:
                    yield data[:end]
        if carried:
            yield carried


def _bounded(
    pool: Executor, work: Callable[[bytes], set[int]], blocks: Iterable[bytes], ahead: int
) -> Iterator[set[int]]:
    """``work`` over ``blocks`` in ``pool``, with no more than ``ahead`` blocks read ahead."""
    waiting: list[Future[set[int]]] = []
    for block in blocks:
        waiting.append(pool.submit(work, block))
        if len(waiting) >= ahead:
            yield waiting.pop(0).result()
    for future in waiting:
        yield future.result()


class Remake:
    """A store being made anew, in a file beside the record at ``path``: of the pieces of the
    pages a site keeps, as the kept pages' check reads them (the build then adds those of the
    pages it wrote, ``keep``), or of those of every page a build wrote."""

    def __init__(self, path: Path) -> None:
        """Begin the store, once the files no record names are gone (those of stores made by
        builds that stopped before they recorded them)."""
        _tidy(path, _recorded(path))
        self._folder = path.parent
        self._name = f"{path.name}-{secrets.token_hex(8)}"
        self._hashes: list[Hashes] = []
        self._length = 0
        self._failed = not self._written(b"", "wb")

    def _written(self, data: bytes, mode: str) -> bool:
        try:
            with open(self._folder / self._name, mode) as target:
                target.write(data)
        except OSError:  # the cache cannot be written: no store, as losing it costs only time
            return False
        return True

    def add(self, pieces: Collection[bytes]) -> None:
        """Add ``pieces``."""
        self.add_hashed(_hashed(pieces))

    def add_hashed(self, hashed: tuple[Hashes, bytes]) -> None:
        """Add pieces, as ``_hashed`` gives them."""
        hashes, joined = hashed
        self._failed = self._failed or not self._written(joined, "ab")
        self._length += len(joined)
        self._hashes.append(hashes)

    def close(self) -> Record | None:
        """The store made, covering no site yet; None where it could not be written."""
        index = np.unique(np.concatenate([*self._hashes, np.zeros(0, dtype=np.uint64)]))
        try:
            np.save(self._folder / f"{self._name}.npy", index)
        except OSError:
            self._failed = True
        if self._failed:
            return None
        added = np.zeros(0, dtype=np.uint64)
        return Record("", self._name, self._length, f"{self._name}.npy", self._length, added)


def batch_pieces(batch: Path) -> tuple[Hashes, bytes]:
    """The pieces ``keep_batch`` kept, and their hashes."""
    hashed: tuple[Hashes, bytes] = pickle.loads(batch.read_bytes())
    return hashed


def keep(path: Path, base: Record | None, batches: Sequence[Path], manifest: str) -> None:
    """Record at ``path`` the store of the site whose manifest has the digest ``manifest``:
    ``base`` (which covers every page the site keeps) with the pieces of ``batches`` (the pages
    the build wrote) it lacks, or, with no ``base`` (every page written), made of those pieces
    alone. Where the store cannot be written, no record is left: the next check makes it."""
    try:
        record = _made_of(path, batches) if base is None else _added(path.parent, base, batches)
        if record is not None:
            temporary = path.with_name(f".{path.name}-{secrets.token_hex(8)}")
            temporary.write_bytes(pickle.dumps(replace(record, manifest=manifest)))
            os.replace(temporary, path)
    except (OSError, ValueError):  # the cache cannot be written or read: it costs only time
        record = None
    if record is None:
        drop(path)
    else:
        _tidy(path, record)


def _recorded(path: Path) -> Record | None:
    """The record at ``path``, whatever site it covers; None where there is none to read."""
    try:
        record = pickle.loads(path.read_bytes())
    except Exception:  # gone, cut short, or not a record: anything unpickling raises
        return None
    return record if isinstance(record, Record) else None


def _tidy(path: Path, record: Record | None) -> None:
    """Remove the files of the stores of the record at ``path`` but those ``record`` names."""
    named = (record.pieces, record.index) if record is not None else ()
    for other in path.parent.glob(f"{path.name}-*"):
        if other.name not in named:
            other.unlink(missing_ok=True)


def _made_of(path: Path, batches: Sequence[Path]) -> Record | None:
    made = Remake(path)
    for batch in batches:
        made.add_hashed(batch_pieces(batch))
    return made.close()


def drop(path: Path) -> None:
    """Remove the record at ``path``: the pages a build kept have no store to go on."""
    path.unlink(missing_ok=True)


def _added(folder: Path, base: Record, batches: Sequence[Path]) -> Record:
    """``base`` with the pieces of ``batches`` whose hashes it lacks added."""
    index = np.load(folder / base.index, mmap_mode="r")
    added = [base.added]
    length = base.length
    with open(folder / base.pieces, "r+b") as target:
        target.truncate(length)  # what a build stopped while adding to it left
        target.seek(length)
        for batch in batches:
            hashes, joined = batch_pieces(batch)
            new = np.flatnonzero(~(_among(hashes, index) | _among(hashes, base.added)))
            if new.size:
                pieces = joined.split(b"<")
                data = b"".join(pieces[n] + b"<" for n in new.tolist())
                target.write(data)
                length += len(data)
                added.append(hashes[new])
    since = np.unique(np.concatenate(added))
    if len(since) <= MERGED:
        return replace(base, length=length, added=since)
    name = f"{base.pieces}-{secrets.token_hex(8)}.npy"
    np.save(folder / name, np.union1d(index, since))
    return replace(base, length=length, index=name, added=np.zeros(0, dtype=np.uint64))


def _among(hashes: Hashes, sorted_hashes: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Which of ``hashes`` are among ``sorted_hashes``."""
    if not len(sorted_hashes):
        return np.zeros(len(hashes), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_hashes, hashes), len(sorted_hashes) - 1)
    return np.asarray(sorted_hashes[at] == hashes)
