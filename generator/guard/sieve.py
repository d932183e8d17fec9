"""A sieve before the leak scan: which runs' payload a file may carry, from 16-byte keys.

The exact scan (``scan.Sought``) is an Aho–Corasick automaton over every form of every payload
string; over a real archive's strings (half a million at 1,000 runs, little shared prefix) it
takes hundreds of megabytes and seconds to build. The sieve holds 28 bytes per form instead:
the form's first 8 bytes, its next 8 (masked to its length), its length and its last 4 bytes;
and the run it belongs to. A file is sieved at every byte offset with numpy, and only the
(file, run) pairs that pass are scanned exactly, with that run's strings alone.

It never misses: it keys the forms the exact scan seeks (``sought_bytes``) and sieves the texts
that scan reads (``normalised``); every occurrence of a form starts with the form's first 16
bytes (or all of it, when shorter) and ends with its last 4 where its length says, and the
sieve tests every offset for exactly those bytes. The last 4 are what keep the pairs that pass
few: without them, every page showing a published model's name was a candidate of every run
whose answers began with that name, and the exact scan of those pairs took a 200-run build
from 6 s to 75.

``OwnPages`` sieves the pages a build keeps for the runs that arrived since: over their raw
bytes, for the ends (first 16 bytes, last 4, length) of the forms runsite's own templates write
a string in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from ahocorasick_rs import BytesAhoCorasick, Implementation

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


_COLUMNS = ("first", "second", "length", "last", "runs")
"""What a shard of a sieve is made of, as ``save`` writes it: one ``.npy`` file each."""


class _Rows:
    """The rows of some runs' keys, sorted by their first 8 bytes: one shard of a sieve."""

    first: npt.NDArray[np.uint64]
    second: npt.NDArray[np.uint64]
    length: npt.NDArray[np.int32]
    last: npt.NDArray[np.uint32]
    runs: npt.NDArray[np.int32]

    @classmethod
    def of(cls, keys: Sequence[Keys], runs: Sequence[int]) -> _Rows:
        """The rows of ``keys``, each run named by its number in ``runs``: gathered a column at
        a time, as a copy of every row at once took 190 MB on top of the 47 of 3,000 runs'
        keys."""
        rows = cls()
        order = np.argsort(_column(keys, 0), kind="stable")
        rows.first = _column(keys, 0)[order]
        rows.second = _column(keys, 1)[order]
        end = _column(keys, 2)[order]
        rows.length = (end >> np.uint64(32)).astype(np.int32)
        rows.last = (end & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        del end
        named = [np.full(len(k), n, dtype=np.int32) for n, k in zip(runs, keys, strict=True)]
        rows.runs = np.concatenate([*named, np.zeros(0, dtype=np.int32)])[order]
        return rows

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
    every offset of a file is tested against, and the rows behind it in one or more shards,
    which only the offsets that pass it are looked up in."""

    _positions: npt.NDArray[np.int64] | None = None
    """Where each run of the keys it was made of is in the build's list of runs (-1: not in
    it), for a sieve made by an earlier build (``load``); None when they are the same."""

    def __init__(self, keys: Sequence[Keys], positions: Sequence[int] | None = None) -> None:
        """The sieve of ``keys``, held in memory. The runs are named by their place in
        ``keys``, or by ``positions`` (one for each)."""
        if positions is not None:
            self._positions = np.array(positions, dtype=np.int64)
        self._shards = [_Rows.of(keys, range(len(keys)))]
        self._mark(len(self._shards[0].first))

    def _mark(self, rows: int) -> None:
        """The bitmap of the shards' first 8 bytes, sized for ``rows`` rows: 32 bits a row,
        so that few offsets of a file pass it by chance."""
        bits = max(16, int(np.ceil(np.log2(max(rows, 1) * 32))))
        self._shift = np.uint64(64 - bits)
        self._bitmap = np.zeros(1 << (bits - 3), dtype=np.uint8)
        for shard in self._shards:
            hashed = shard.first * _MIX  # in place from here: a copy of a column is 12 MB
            hashed >>= self._shift
            bit = (hashed & np.uint64(7)).astype(np.uint8)
            np.left_shift(np.uint8(1), bit, out=bit)
            hashed >>= np.uint64(3)
            np.bitwise_or.at(self._bitmap, hashed, bit)

    def save(self, folder: Path) -> None:
        """Write the sieve into ``folder`` (made here), for ``load``: its bitmap, and each of
        its shards in a folder of its own."""
        folder.mkdir()
        np.save(folder / "bitmap.npy", self._bitmap)
        for n, shard in enumerate(self._shards):
            shard.save(folder / f"shard-{n:05d}")

    @classmethod
    def write(cls, folder: Path, groups: Iterable[Sequence[Keys]]) -> None:
        """Make the sieve of every run ``groups`` gives the keys of (a few runs at a time, in
        order: ``SHARD``) into ``folder``, as ``save`` would write the sieve of them all, one
        shard a group; with no more of them in memory at once than a group's."""
        sieve = cls.__new__(cls)
        sieve._shards = []
        folder.mkdir()
        done = rows = 0
        for n, keys in enumerate(groups):
            shard = _Rows.of(keys, range(done, done + len(keys)))
            shard.save(folder / f"shard-{n:05d}")
            sieve._shards.append(_Rows.load(folder / f"shard-{n:05d}"))
            done, rows = done + len(keys), rows + len(shard.first)
            del shard
        sieve._mark(rows)
        np.save(folder / "bitmap.npy", sieve._bitmap)

    @classmethod
    def load(cls, folder: Path, positions: Sequence[int]) -> Sieve:
        """The sieve ``save`` wrote into ``folder``, mapped from its files rather than read:
        what a build touches of it is the bitmap and the rows of the offsets that pass it.
        ``positions`` says where each of the runs it was made of is now (-1: gone)."""
        sieve = cls.__new__(cls)
        sieve._bitmap = np.load(folder / "bitmap.npy", mmap_mode="r")
        sieve._shift = np.uint64(64 - (len(sieve._bitmap).bit_length() - 1 + 3))
        sieve._shards = [_Rows.load(shard) for shard in sorted(folder.glob("shard-*"))]
        sieve._positions = np.array(positions, dtype=np.int64)
        return sieve

    def __len__(self) -> int:
        return sum(len(shard.first) for shard in self._shards)

    def runs_in(self, data: bytes) -> set[int]:
        """The runs (their positions in the keys given) whose payload ``data`` (a file's bytes)
        may carry, in any form the exact scan looks for: the file is sieved as that scan reads
        it, decoded and case folded, with its markup and without."""
        return Sieves([self]).runs_in(data)

    def _sieved(self, data: bytes) -> set[int]:
        if len(data) < 8:
            return set()
        padded = data + bytes(16)
        windows = eight_bytes(padded, len(data) - 7)
        hashed = (windows * _MIX) >> self._shift
        passed = (
            self._bitmap[hashed >> np.uint64(3)] >> (hashed & np.uint64(7)).astype(np.uint8)
        ) & 1
        starts = np.flatnonzero(passed)
        if not starts.size:
            return set()
        found: set[int] = set()
        for shard in self._shards:
            found |= self._confirm(shard, padded, len(data), starts, windows[starts])
        return found

    def _confirm(
        self,
        shard: _Rows,
        padded: bytes,
        size: int,
        starts: npt.NDArray[np.int64],
        firsts: npt.NDArray[np.uint64],
    ) -> set[int]:
        """Of the offsets whose first 8 bytes passed the bitmap, the runs of ``shard`` whose
        key matches in full there: its first 16 bytes, and its last 4 where its length ends
        it, within the ``size`` bytes of the text."""
        low = np.searchsorted(shard.first, firsts, "left")
        high = np.searchsorted(shard.first, firsts, "right")
        counts = high - low
        if not counts.any():
            return set()
        pairs = np.repeat(starts, counts)
        keys = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        keys += np.repeat(low, counts)
        raw = np.frombuffer(padded, dtype=np.uint8)
        seconds = np.ascontiguousarray(raw[(pairs + 8)[:, None] + np.arange(8)]).view("<u8")
        length = shard.length[keys]
        past = np.minimum(length, 16) - 8  # bytes of the form in the second 8
        shift = (8 * np.minimum(past, 7)).astype(np.uint64)
        mask = np.where(past == 8, np.uint64(_ALL), (np.uint64(1) << shift) - 1)
        ends = pairs + length
        within = ends <= size
        lasts = np.ascontiguousarray(raw[np.where(within, ends - 4, 0)[:, None] + np.arange(4)])
        matched = (
            ((seconds.ravel() & mask) == shard.second[keys])
            & within
            & (lasts.view("<u4").ravel() == shard.last[keys])
        )
        runs = shard.runs[keys[matched]]
        if self._positions is not None:
            runs = self._positions[runs]
            runs = runs[runs >= 0]
        return set(runs.tolist())  # not np.unique, which imports numpy.ma


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


AUTOMATON_FORMS = 12_000
"""The most forms ``OwnPages`` seeks with an Aho–Corasick automaton over their heads, 0.12 ms a
run page of the bench's shape against 0.30 for the sieve's arrays, but some 3 KB of memory a
head at worst (distinct answers share no prefix): about 40 MB at this bound. A run has from 800
forms (the bench's) to 3,200 (150 answers of a few kilobytes)."""

DFA_BYTES = 16 << 20
"""The most memory the heads' automaton may take as a DFA, which is up to twice as fast again
(0.15 ms a page against 0.29 for a run of long answers). A DFA has a state per byte of the
distinct heads, and a row of 4-byte transitions per state, as long as the heads' byte classes
rounded up to a power of two (``dfa_bytes``). Text has few classes: a run of 150 long answers
has 3,100 forms, 740 heads and 49 classes (3 MB, 2 measured); distinct binary heads have 256,
a kilobyte a pattern byte."""


def dfa_bytes(heads: Collection[bytes]) -> int:
    """The memory a DFA over ``heads`` takes at most: a byte class for each byte they use, one
    for the bytes they do not, one for the end of input; a row's length a power of two."""
    alphabet = len(set(b"".join(heads))) + 2
    return sum(map(len, heads)) * 4 * (1 << (alphabet - 1).bit_length())


class OwnPages(Sieve):
    """Which runs' payload a page runsite wrote itself may carry, from its raw bytes: the sieve
    of the pages a build keeps, whose (page, run) pairs ``publish.confirm`` then searches
    exactly, as for every file a build writes.

    A run or comparison page is the theme's chrome around a body. The chrome is the same in
    every page of a build, the home and suite pages among them, which a build writes and scans
    whole every time; the body is runsite's template text and the values of redacted runs, each
    written through jinja2's escaping, never decoded, split by markup or re-cased. So a string
    the normalised scan would find in such a page is there in one of the forms its templates
    write (raw, HTML-escaped, JSON-escaped: ``own_keys``), which this finds without decoding the
    page, by its first 16 bytes and its last 4: with the sieve's arrays over the page's bytes
    lowered or, while the forms are few, an automaton over their heads.

    Only those bytes of a form are held: a run's outputs and inputs run to megabytes, and an
    automaton over whole forms took 700 MB to build for one run of 150 answers of a few
    kilobytes. Case: the page's ASCII letters are lowered byte by byte; a form's letters outside
    ASCII are sought as written, all upper and all lower case.
    """

    def __init__(self, keys: Sequence[Keys]) -> None:
        super().__init__(keys)
        self._automaton: BytesAhoCorasick | None = None
        if 0 < len(self) <= AUTOMATON_FORMS:
            ends: dict[bytes, list[tuple[int, int, bytes]]] = {}
            rows = self._shards[0]
            for first, second, length, last, run in zip(
                rows.first, rows.second, rows.length, rows.last, rows.runs, strict=True
            ):
                head = (int(first).to_bytes(8, "little") + int(second).to_bytes(8, "little"))[
                    : min(int(length), 16)
                ]
                ends.setdefault(head, []).append(
                    (int(run), int(length), int(last).to_bytes(4, "little"))
                )
            self._ends = list(ends.values())
            self._automaton = BytesAhoCorasick(
                list(ends),
                implementation=Implementation.DFA if dfa_bytes(ends) <= DFA_BYTES else None,
            )

    def runs_in(self, data: bytes) -> set[int]:
        """The runs whose payload the page ``data`` may carry."""
        if not len(self):
            return set()
        lowered = data.lower()
        if self._automaton is None:
            return self._sieved(lowered)
        found = set()
        for index, start, _ in self._automaton.find_matches_as_indexes(lowered, overlapping=True):
            for run, length, last in self._ends[index]:
                end = start + length
                if end <= len(lowered) and lowered[end - 4 : end] == last:
                    found.add(run)
        return found
