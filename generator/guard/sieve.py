"""A sieve before the leak scan: which runs' payload a file may carry, from 16-byte keys.

The exact scan (``scan.Sought``) is an Aho–Corasick automaton over every form of every payload
string; over a real archive's strings (half a million at 1,000 runs, little shared prefix) it
takes hundreds of megabytes and seconds to build. The sieve holds 36 bytes per distinct form
instead: the form's first 8 bytes, its next 8 (masked to its length), its length and its last 4
bytes, what it is looked up by, and where its runs begin; and 4 bytes for each run that has it.
A file is sieved at every byte offset with numpy, and only the (file, run) pairs that pass are
scanned exactly, with that run's strings alone.

It never misses: it keys the forms the exact scan seeks (``sought_bytes``) and sieves the texts
that scan reads (``normalised``); every occurrence of a form starts with the form's first 16
bytes (or all of it, when shorter) and ends with its last 4 where its length says, and the
sieve tests every offset for exactly those bytes. The last 4 are what keep the pairs that pass
few: without them, every page showing a published model's name was a candidate of every run
whose answers began with that name, and the exact scan of those pairs took a 200-run build
from 6 s to 75.

``own_pages.OwnPages`` sieves the pages a build keeps, for the runs that arrived since, with the
same arrays.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from generator.guard.scan import normalised, sought_bytes

Keys = npt.NDArray[np.uint64]
"""One row per form: its first 8 bytes, the next 8 (zeros past its end), each read as a
little-endian integer; and its length in bytes (8 or more) times 2**32 plus its last 4 bytes,
read the same way."""

_MIX = np.uint64(0x9E3779B97F4A7C15)
_ALL = (1 << 64) - 1


def payload_keys(payload: Iterable[str]) -> Keys:
    """The sieve's keys for ``payload`` (strings of 8 bytes or more), one row per distinct form
    head."""
    return _rows(form for string in payload for form in sought_bytes(string))


def _rows(forms: Iterable[bytes]) -> Keys:
    return key_array(form_row(form) for form in forms)


Row = tuple[int, int, int]


def form_row(form: bytes) -> Row:
    """A form's row of keys (see ``Keys``)."""
    return (
        int.from_bytes(form[:8], "little"),
        int.from_bytes(form[8:16].ljust(8, b"\0"), "little"),
        len(form) << 32 | int.from_bytes(form[-4:], "little"),
    )


def key_array(rows: Iterable[Row]) -> Keys:
    """Distinct rows of keys as ``Keys``, in order."""
    return np.array(sorted(set(rows)), dtype=np.uint64).reshape(-1, 3)


def eight_bytes(data: bytes, count: int) -> npt.NDArray[np.uint64]:
    """The 8 bytes at each of the first ``count`` offsets of ``data``, each read as a
    little-endian integer, all at once: a view of the bytes with a stride of one, not a copy."""
    return np.ndarray(shape=(count,), dtype="<u8", buffer=data, strides=(1,))


_COLUMNS = ("probe", "first", "second", "length", "last", "start", "runs")
"""What a shard of a sieve is made of, as ``save`` writes it: one ``.npy`` file each."""

_PROBE = np.uint64(0xC2B2AE3D27D4EB4F)


def _probe(first: npt.NDArray[np.uint64], second: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """What a key is looked up by: its first 16 bytes (``second`` masked to the form's length)
    mixed into 8. Equal heads give equal probes; a shard's rows are sorted by them."""
    return (first ^ (second * _PROBE)) * _MIX


class _Rows:
    """One shard of a sieve: the distinct keys of some runs, each once, sorted by their probe,
    and the runs that have each (``runs[start[k]:start[k + 1]]`` for key ``k``).

    Each key once, not once a run: a suite's runs share most of their payload (its cases'
    inputs, a tool's arguments begin the same), 5 million rows of 300,000 keys at 10,000 runs
    of the bench's shape. And looked up by its first 16 bytes, not its first 8: 1.5 million of
    those rows began with the same 8 bytes, and every offset of a page that held them made
    that many pairs to compare (6 ms a page, against 1.3 at 1,000 runs)."""

    probe: npt.NDArray[np.uint64]
    first: npt.NDArray[np.uint64]
    second: npt.NDArray[np.uint64]
    length: npt.NDArray[np.int32]
    last: npt.NDArray[np.uint32]
    start: npt.NDArray[np.int64]
    runs: npt.NDArray[np.int32]

    @classmethod
    def of(cls, keys: Sequence[Keys], runs: Sequence[int]) -> _Rows:
        """The rows of ``keys``, each run named by its number in ``runs``: gathered a column at
        a time, as a copy of every row at once took 190 MB on top of the 47 of 3,000 runs'
        keys."""
        rows = cls()
        first, second, end = (_column(keys, n) for n in range(3))
        probe = _probe(first, second)
        named = [np.full(len(k), n, dtype=np.int32) for n, k in zip(runs, keys, strict=True)]
        owners = np.concatenate([*named, np.zeros(0, dtype=np.int32)])
        # Sorted by probe, each key's rows together (those of two keys of one probe and one
        # digest of the whole would lie apart, and be two keys of the same runs' union: found
        # as well), runs in order: a third of the time of sorting by every column.
        order = np.lexsort((owners, (probe ^ end) * _PROBE, probe))
        probe, first, second, end = probe[order], first[order], second[order], end[order]
        rows.runs = owners[order]
        del order, owners
        new = np.ones(len(probe), dtype=bool)
        new[1:] = (first[1:] != first[:-1]) | (second[1:] != second[:-1]) | (end[1:] != end[:-1])
        at = np.flatnonzero(new)
        rows.start = np.append(at, len(probe)).astype(np.int64)
        rows.probe, rows.first, rows.second = probe[at], first[at], second[at]
        rows.length = (end[at] >> np.uint64(32)).astype(np.int32)
        rows.last = (end[at] & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        return rows

    def pairs(self) -> Iterator[tuple[int, int, int, int, int]]:
        """Each (key, run) pair: the key's first, second, length and last, and the run."""
        counts = np.diff(self.start)
        for k, run in zip(np.repeat(np.arange(len(self.probe)), counts), self.runs, strict=True):
            yield (
                int(self.first[k]),
                int(self.second[k]),
                int(self.length[k]),
                int(self.last[k]),
                int(run),
            )

    def save(self, folder: Path) -> None:
        folder.mkdir()
        for name in _COLUMNS:
            np.save(folder / f"{name}.npy", np.asarray(getattr(self, name)))

    @classmethod
    def load(cls, folder: Path) -> _Rows:
        rows = cls()
        for name in _COLUMNS:
            setattr(rows, name, np.load(folder / f"{name}.npy", mmap_mode="r"))
        return rows


def _column(keys: Sequence[Keys], n: int) -> npt.NDArray[np.uint64]:
    return np.concatenate([*(k[:, n] for k in keys), np.zeros(0, dtype=np.uint64)])


SHARD = 1000
"""Runs whose keys a sieve made on disk (``Sieve.write``) holds in memory at once: a sieve of
every run of the archive is made a shard of that many runs at a time, so the memory it takes to
make grows with the shard, not with the archive (some 40 MB at a thousand runs of the bench's
shape)."""


class Sieve:
    """The keys of many runs, ready to sieve files with: a bitmap of their first 8 bytes, which
    every offset of a file is tested against; those first 8 bytes sorted, which the offsets
    that pass it are looked up in (the bitmap lets one in 32 through by chance); and the keys
    behind them in one or more shards, which only the offsets found there are looked up in."""

    _positions: npt.NDArray[np.int64] | None = None
    """Where each run of the keys it was made of is in the build's list of runs (-1: not in
    it), for a sieve made by an earlier build (``load``); None when they are the same."""

    def __init__(self, keys: Sequence[Keys], positions: Sequence[int] | None = None) -> None:
        """The sieve of ``keys``, held in memory. The runs are named by their place in
        ``keys``, or by ``positions`` (one for each)."""
        if positions is not None:
            self._positions = np.array(positions, dtype=np.int64)
        self._shards = [_Rows.of(keys, range(len(keys)))]
        self._mark(np.unique(self._shards[0].first))

    def _mark(self, firsts: npt.NDArray[np.uint64]) -> None:
        """The bitmap of the distinct first 8 bytes ``firsts`` (sorted) of the shards' keys:
        32 bits each, so that few offsets of a file pass it by chance. Sized by them, not by
        the keys: the 5 million keys of 10,000 runs of the bench's shape begin 9,000 ways, a
        bitmap of 64 KB, which stays in the processor's cache, where one sized by the keys took
        32 MB (and a sixth of a page's sieving, in the memory's latency)."""
        self._firsts = firsts
        bits = max(16, int(np.ceil(np.log2(max(len(firsts), 1) * 32))))
        self._shift = np.uint64(64 - bits)
        self._bitmap = np.zeros(1 << (bits - 3), dtype=np.uint8)
        hashed = (firsts * _MIX) >> self._shift
        bit = (hashed & np.uint64(7)).astype(np.uint8)
        np.left_shift(np.uint8(1), bit, out=bit)
        np.bitwise_or.at(self._bitmap, hashed >> np.uint64(3), bit)
        self._unpack()

    def _unpack(self) -> None:
        """The bitmap a byte a bit, which the offsets of a file are tested against: one lookup
        an offset, where the bit of each took four operations over every offset (a search
        index of 2 MB tested in 15 ms, now 5.6). 512 KB at 10,000 runs of the bench's shape,
        which the processor's cache holds as well."""
        self._passing = np.unpackbits(self._bitmap, bitorder="little").view(np.bool_)

    def save(self, folder: Path) -> None:
        """Write the sieve into ``folder`` (made here), for ``load``: its bitmap, and each of
        its shards in a folder of its own."""
        folder.mkdir()
        self._save_heads(folder)
        for n, shard in enumerate(self._shards):
            shard.save(folder / f"shard-{n:05d}")

    def _save_heads(self, folder: Path) -> None:
        """Write the bitmap and the sorted first 8 bytes, which ``load`` maps."""
        np.save(folder / "bitmap.npy", self._bitmap)
        np.save(folder / "firsts.npy", self._firsts)

    @classmethod
    def write(cls, folder: Path, groups: Iterable[Sequence[Keys]]) -> None:
        """Make the sieve of every run ``groups`` gives the keys of (a few runs at a time, in
        order: ``SHARD``) into ``folder``, as ``save`` would write the sieve of them all, one
        shard a group; with no more of them in memory at once than a group's."""
        sieve = cls.__new__(cls)
        folder.mkdir()
        done = 0
        firsts = np.zeros(0, dtype=np.uint64)
        for n, keys in enumerate(groups):
            shard = _Rows.of(keys, range(done, done + len(keys)))
            shard.save(folder / f"shard-{n:05d}")
            firsts = np.union1d(firsts, shard.first)
            done += len(keys)
            del shard
        sieve._mark(firsts)
        sieve._save_heads(folder)

    @classmethod
    def load(cls, folder: Path, positions: Sequence[int]) -> Sieve:
        """The sieve ``save`` wrote into ``folder``, mapped from its files rather than read:
        what a build touches of it is the bitmap and the keys of the offsets that pass it.
        ``positions`` says where each of the runs it was made of is now (-1: gone)."""
        sieve = cls.__new__(cls)
        # Plain arrays over the mapped files: a ``memmap``'s indexing is Python's (50 µs).
        sieve._bitmap = np.asarray(np.load(folder / "bitmap.npy", mmap_mode="r"))
        sieve._firsts = np.asarray(np.load(folder / "firsts.npy", mmap_mode="r"))
        sieve._shift = np.uint64(64 - (len(sieve._bitmap).bit_length() - 1 + 3))
        sieve._unpack()
        sieve._shards = [_Rows.load(shard) for shard in sorted(folder.glob("shard-*"))]
        sieve._positions = np.array(positions, dtype=np.int64)
        return sieve

    def __len__(self) -> int:
        """The (key, run) pairs it holds."""
        return sum(len(shard.runs) for shard in self._shards)

    def runs_in(self, data: bytes) -> set[int]:
        """The runs (their positions in the keys given) whose payload ``data`` (a file's bytes)
        may carry, in any form the exact scan looks for: the file is sieved as that scan reads
        it, decoded and case folded, with its markup and without."""
        return Sieves([self]).runs_in(data)

    def _sieved(self, data: bytes) -> set[int]:
        if len(data) < 8:
            return set()
        padded = data + bytes(16)
        every = eight_bytes(padded, len(data) + 1)
        windows = every[: len(data) - 7]
        starts = np.concatenate(
            [
                self._passed(windows[at : at + STRETCH]) + at
                for at in range(0, len(windows), STRETCH)
            ]
        )
        if starts.size:  # those whose first 8 bytes begin a key, of those that passed
            heads = windows[starts]
            near = np.searchsorted(self._firsts, heads)
            near[near == len(self._firsts)] = 0
            starts = starts[self._firsts[near] == heads]
        if not starts.size:
            return set()
        # Each offset's head as a key of each length would hold it: a form of 8 + ``past``
        # bytes (``past`` from 0 to 7), and one of 16 or more.
        firsts = np.tile(windows[starts], len(_MASKS))
        seconds = (every[starts + 8][None, :] & _MASKS[:, None]).ravel()
        at = np.tile(starts, len(_MASKS))
        probes = _probe(firsts, seconds)
        found: set[int] = set()
        for shard in self._shards:
            found |= self._confirm(shard, padded, len(data), at, firsts, seconds, probes)
        return found

    def _passed(self, windows: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
        """The offsets among ``windows`` whose first 8 bytes pass the bitmap. Looked up by the
        hashes seen as signed (each below ``2**63``, so the same numbers): ``take`` casts
        unsigned indices to signed ones first, a copy checked element by element: sieving a
        page of the bench's took 0.58 ms at 1,000 runs, 0.23 now (0.70 and 0.33 at 10,000)."""
        hashed = np.multiply(windows, _MIX)
        np.right_shift(hashed, self._shift, out=hashed)
        return np.flatnonzero(np.take(self._passing, hashed.view(np.int64)))

    def _confirm(
        self,
        shard: _Rows,
        padded: bytes,
        size: int,
        at: npt.NDArray[np.int64],
        firsts: npt.NDArray[np.uint64],
        seconds: npt.NDArray[np.uint64],
        probes: npt.NDArray[np.uint64],
    ) -> set[int]:
        """Of the offsets ``at`` whose first 8 bytes passed the bitmap, each with its head as
        each length of form would hold it, the runs of ``shard`` whose key matches there in
        full: its first 16 bytes (masked to its length), and its last 4 where its length ends
        it, within the ``size`` bytes of the text."""
        low = np.searchsorted(shard.probe, probes, "left")
        high = np.searchsorted(shard.probe, probes, "right")
        counts = high - low
        if not counts.any():
            return set()
        pairs = np.repeat(np.arange(len(probes)), counts)
        keys = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        keys += np.repeat(low, counts)
        length = shard.length[keys]
        mask = _MASKS[np.minimum(length, 16) - 8]
        ends = at[pairs] + length
        within = ends <= size
        raw = np.frombuffer(padded, dtype=np.uint8)
        lasts = np.ascontiguousarray(raw[np.where(within, ends - 4, 0)[:, None] + np.arange(4)])
        matched = keys[
            (shard.first[keys] == firsts[pairs])
            & (shard.second[keys] == (seconds[pairs] & mask))
            & within
            & (lasts.view("<u4").ravel() == shard.last[keys])
        ]
        if not matched.size:
            return set()
        begins, ends = shard.start[matched], shard.start[matched + 1]
        spans = ends - begins
        runs = shard.runs[
            np.arange(spans.sum())
            - np.repeat(np.cumsum(spans) - spans, spans)
            + np.repeat(begins, spans)
        ]
        if self._positions is not None:
            runs = self._positions[runs]
            runs = runs[runs >= 0]
        return set(runs.tolist())  # not np.unique, which imports numpy.ma


STRETCH = 1 << 18
"""Offsets of a text tested against the bitmap at once: the arrays of a test take some 30 bytes
an offset, and a search index of 2 MB (at 10,000 runs) tested whole took 50 MB in each process
sieving one, the peak of a rebuild there. A page (72 KB) is one stretch."""

_MASKS = np.array([(1 << (8 * past)) - 1 for past in range(8)] + [_ALL], dtype=np.uint64)
"""The bytes past its first 8 that a form's second key holds, by how many there are (0 to 8:
a form of 16 bytes or more has all 8)."""


class Sieves:
    """Sieves of parts of a build's runs as one (the last build's, and one of the runs it did
    not sieve for), each naming runs by their place in the build's list: a file is normalised
    once for all of them."""

    def __init__(self, parts: Sequence[Sieve]) -> None:
        self._parts = [part for part in parts if len(part)]

    def runs_in(self, data: bytes) -> set[int]:
        """The runs whose payload ``data`` may carry (``Sieve.runs_in``)."""
        found: set[int] = set()
        if self._parts:
            for text in normalised(data):
                for part in self._parts:
                    found |= part._sieved(text)
        return found
