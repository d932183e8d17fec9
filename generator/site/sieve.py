"""A sieve before the leak scan: which runs' payload a file may carry, from 16-byte keys.

The exact scan (``scan.Sought``) is an Aho–Corasick automaton over every form of every payload
string; over a real archive's strings (half a million at 1,000 runs, little shared prefix) it
takes hundreds of megabytes and seconds to build. The sieve holds 24 bytes per form instead:
the form's first 8 bytes, its next 8 (masked to its length) and the run it belongs to. A file
is sieved at every byte offset with numpy, and only the (file, run) pairs that pass are scanned
exactly, with that run's strings alone.

It never misses: it keys the forms the exact scan seeks (``form_heads``) and sieves the texts
that scan reads (``normalised``); every occurrence of a form starts with the form's first 16
bytes (or all of it, when shorter), and the sieve tests every offset for exactly those bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from generator.site.scan import form_heads, normalised

Keys = npt.NDArray[np.uint64]
"""One row per form: first 8 bytes, next 8 bytes masked to the form's length, the mask."""

_MIX = np.uint64(0x9E3779B97F4A7C15)
_ALL = (1 << 64) - 1


def payload_keys(payload: Iterable[str]) -> Keys:
    """The sieve's keys for ``payload`` (strings of 8 bytes or more), one row per distinct form
    head."""
    rows = set()
    for string in payload:
        for head in form_heads(string):
            tail = head[8:16]
            mask = _ALL if len(tail) == 8 else (1 << (8 * len(tail))) - 1
            rows.add(
                (
                    int.from_bytes(head[:8], "little"),
                    int.from_bytes(tail.ljust(8, b"\0"), "little"),
                    mask,
                )
            )
    return np.array(sorted(rows), dtype=np.uint64).reshape(-1, 3)


class Sieve:
    """The keys of many runs, ready to sieve files with."""

    def __init__(self, keys: Sequence[Keys]) -> None:
        rows = np.concatenate([*keys, np.zeros((0, 3), dtype=np.uint64)])
        runs = np.concatenate(
            [np.full(len(k), n, dtype=np.int64) for n, k in enumerate(keys)]
            + [np.zeros(0, dtype=np.int64)]
        )
        order = np.argsort(rows[:, 0], kind="stable")
        self._first = np.ascontiguousarray(rows[order, 0])
        self._second = np.ascontiguousarray(rows[order, 1])
        self._mask = np.ascontiguousarray(rows[order, 2])
        self._runs = runs[order]
        bits = max(16, int(np.ceil(np.log2(max(len(rows), 1) * 32))))
        self._shift = np.uint64(64 - bits)
        self._bitmap = np.zeros(1 << (bits - 3), dtype=np.uint8)
        hashed = (self._first * _MIX) >> self._shift
        np.bitwise_or.at(
            self._bitmap,
            hashed >> np.uint64(3),
            np.left_shift(1, hashed & np.uint64(7)).astype(np.uint8),
        )

    def __len__(self) -> int:
        return len(self._first)

    def runs_in(self, data: bytes) -> set[int]:
        """The runs (their positions in the keys given) whose payload ``data`` (a file's bytes)
        may carry, in any form the exact scan looks for: the file is sieved as that scan reads
        it, decoded and case folded, with its markup and without."""
        found: set[int] = set()
        if len(self._first):
            for text in normalised(data):
                found |= self._sieved(text)
        return found

    def _sieved(self, data: bytes) -> set[int]:
        if len(data) < 8:
            return set()
        padded = data + bytes(16)
        # The 8 bytes at every offset at once: a view of the bytes with a stride of one.
        windows: npt.NDArray[np.uint64] = np.ndarray(
            shape=(len(data) - 7,), dtype="<u8", buffer=padded, strides=(1,)
        )
        hashed = (windows * _MIX) >> self._shift
        passed = (
            self._bitmap[hashed >> np.uint64(3)] >> (hashed & np.uint64(7)).astype(np.uint8)
        ) & 1
        starts = np.flatnonzero(passed)
        if not starts.size:
            return set()
        return self._confirm(padded, starts, windows[starts])

    def _confirm(
        self, padded: bytes, starts: npt.NDArray[np.int64], firsts: npt.NDArray[np.uint64]
    ) -> set[int]:
        """Of the offsets whose first 8 bytes passed the bitmap, the runs whose key matches in
        full there."""
        low = np.searchsorted(self._first, firsts, "left")
        high = np.searchsorted(self._first, firsts, "right")
        counts = high - low
        if not counts.any():
            return set()
        pairs = np.repeat(starts, counts)
        keys = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        keys += np.repeat(low, counts)
        raw = np.frombuffer(padded, dtype=np.uint8)
        seconds = np.ascontiguousarray(raw[(pairs + 8)[:, None] + np.arange(8)]).view("<u8")
        matched = (seconds.ravel() & self._mask[keys]) == self._second[keys]
        return {int(run) for run in np.unique(self._runs[keys[matched]])}
