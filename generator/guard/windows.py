"""The windows of the pages a site keeps: which arrived run's payload no kept page can carry,
known without reading a page.

``own_pages.OwnPages`` seeks each form of an arrived run's payload (``scan.own_forms``, ASCII
lowered) in the ASCII-lowered bytes of every page a build keeps (its run, comparison and
older-runs pages; the home and suite pages, the search index and the sitemap are written again
and sieved whole every time). At 10,000 runs that is reading 3.5 GB for every new run. A page
that carries a form carries every 8 bytes of it (a window), at every offset; so a site keeps a
Bloom filter of the windows of its pages, ``HASHES`` bits a window in a file of ``2**bits``
bits (``Windows``), and a form one of whose windows has a bit clear is on no page the filter
covers. A run none of whose forms may be on a kept page is sought in none: the check of the
kept pages then reads nothing for it, whatever the archive's size.

Only windows between markup are kept: a page's lowered bytes are cut at every ``<`` and ``>``
into pieces, and the windows of each distinct piece of ``LEAST`` bytes or more are hashed. That
is what makes them cheap, as most of a page's pieces are its theme's and runsite's markup, the
same in every page: a batch of pages takes each once (0.5 ms a page of the bench's shape). A
batch's bits go to a file of their own, sorted, and the filter's file is amended a megabyte at
a time from all of them (``Windows.add``): no process holds the filter, which is 64 MB at
10,000 runs. A form is probed the same way: cut at
``<`` and ``>`` into segments, each of which lies within one piece of a page carrying the form,
so a window of a segment is a window of that piece. ``PROBES`` windows of each form's segments
are probed, spread over them; a form with no segment of ``LEAST`` bytes cannot be ruled out,
nor its run.

A filter only ever gains bits. A full build makes a new one of every page it writes; a rebuild
adds the pages it writes to the one the last build left, which covered every page that build
kept or wrote; and the record that names a filter names the manifest of the site it covers
(``publish.cache``), so that a site put in place by another build, or not put in place, has no
filter to go on: the next build's check then reads every kept page, as before this module, and
makes a new filter of them (``kept.Checker.finish``).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from generator.guard.scan import own_forms
from generator.guard.sieve import Keys, eight_bytes, form_row, key_array

LEAST = 8
"""The bytes of a window: the fewest a piece of a page, or a segment of a form, must have."""

PROBES = 8
"""The windows of a form whose bits are tested. A form on no page is ruled out unless each of
its probes has its bits set by chance: one form in 16 at worst for a form of 8 bytes, whose
one window is its only probe (a quarter of the bits set, two a window), far fewer for a longer
one. A run not ruled out is sought in every kept page, as every run was before the filter."""

DENSITY = 8192
"""Bits of a new filter for each page of the site it is made for, rounded up to a power of two:
the bench's run and comparison pages have some 1,100 distinct windows each beyond their
markup's (4.8 million at 1,000 runs, 43 million at 10,000), two bits a window, so a quarter of
the bits or fewer are set (4 MB at 1,000 runs, 64 MB at 10,000). With one bit a window and half
the bits, a run of the bench's passed by chance one time in four at 1,000 runs: its one string
of 8 bytes (a ticket's id) did."""

CHUNK = 1 << 20
"""Bytes of a filter's file read, amended and written back in one go."""

APART = 1024
"""The bits of a filter for each bit kept apart from its file, at most (``Windows.add``)."""

SLICE = 4096
"""Pieces whose windows are hashed in one go (some 250 KB of them)."""


_MIXES = (np.uint64(0xD6E8FEB86659FD93), np.uint64(0x9E3779B97F4A7C15))
HASHES = len(_MIXES)
"""Bits each window sets."""
_ANGLES = bytes.maketrans(b">", b"<")

Positions = npt.NDArray[np.uint32]
"""Bits of a filter, each by its number (a filter has ``2**32`` bits at most)."""

Batch = tuple[Path, tuple[int, ...]]
"""The bits the pages of a batch set (``Pieces.keep``): a file of their numbers, sorted, each
once, and where those of each ``CHUNK`` of the filter begin in it."""

Probes = tuple[tuple[int, ...], ...]
"""The windows of a run's forms to test, each read as a little-endian integer: a tuple of them
for each distinct form."""

Arrival = tuple[Keys, Probes | None]
"""What the check of the kept pages is handed of a run that arrived: its ``sieve.own_keys``,
and the probes of its forms (None when one of its forms cannot be ruled out)."""


def arrival(payload: Iterable[str]) -> Arrival:
    """What the check of the kept pages needs of a run whose payload (its strings no page
    shows) is ``payload``: its forms are made once for the keys and the probes."""
    rows = set()
    probes: set[tuple[int, ...]] | None = set()
    for form in own_forms(payload):
        rows.add(form_row(form))
        if probes is not None:
            probed = _probes(form)
            if probed is None:
                probes = None  # a form no probe can rule out, nor then its run
            else:
                probes.add(probed)
    return key_array(rows), None if probes is None else tuple(sorted(probes))


def _probes(form: bytes) -> tuple[int, ...] | None:
    """Up to ``PROBES`` windows of ``form``'s segments, spread over them, first and last among
    them; None when it has no segment of ``LEAST`` bytes."""
    segments = [s for s in form.translate(_ANGLES).split(b"<") if len(s) >= LEAST]
    counts = [len(segment) - LEAST + 1 for segment in segments]  # each one's windows
    total = sum(counts)
    if not total:
        return None
    probes = []
    for n in sorted({round(k * (total - 1) / (PROBES - 1)) for k in range(PROBES)}):
        segment = 0
        while n >= counts[segment]:
            n -= counts[segment]
            segment += 1
        probes.append(int.from_bytes(segments[segment][n : n + LEAST], "little"))
    return tuple(probes)


def bits_for(pages: int) -> int:
    """The size (a power of two, in bits) of a new filter for a site of ``pages`` kept pages."""
    return min(32, max(16, (max(pages, 1) * DENSITY - 1).bit_length()))


class Pieces:
    """The distinct pieces of some pages (a batch of them, as a build writes them), cut at
    ``<`` and ``>``: what those of ``LEAST`` bytes or more set of a filter, lowered."""

    def __init__(self) -> None:
        self._pieces: set[bytes] = set()

    def add(self, page: bytes) -> None:
        """Cut at ``<`` alone here, and at ``>`` as the windows are hashed (``_hashed``): half
        the pieces to take (a tag with the text after it, as ``td>0.85``), and the same
        windows; the pieces of a page took 0.25 ms, not 0.42."""
        self._pieces.update(page.split(b"<"))

    def positions(self, bits: int) -> Positions:
        """The bits of a filter of ``2**bits`` bits their windows set, lowered, each once.
        Hashed ``SLICE`` pieces at a time, as the arrays of a batch's windows at once took
        tens of megabytes."""
        long = [piece for piece in self._pieces if len(piece) >= LEAST]
        self._pieces.clear()
        hashed = [
            _distinct(_hashed(b"<".join(long[n : n + SLICE]).lower().translate(_ANGLES), bits))
            for n in range(0, len(long), SLICE)
        ]  # each slice's bits taken once first: a batch's windows repeat four times over
        del long
        return _distinct(np.concatenate([np.zeros(0, dtype=np.uint32), *hashed]))

    def keep(self, bits: int, folder: Path) -> Batch:
        """Keep the bits of a filter of ``2**bits`` bits these pieces set in a file of
        ``folder``, for ``Windows.add``."""
        positions = self.positions(bits)
        folder.mkdir(exist_ok=True)
        handle, name = tempfile.mkstemp(dir=folder, suffix=".bits")
        with open(handle, "wb") as kept:
            kept.write(positions.tobytes())
        return _batch(Path(name), positions, bits)


def _batch(path: Path, positions: Positions, bits: int) -> Batch:
    """The batch of ``positions`` (sorted, each once), kept in the file at ``path``, of a
    filter of ``2**bits`` bits."""
    chunks = np.arange(0, 1 << bits, CHUNK * 8, dtype=np.uint64)
    return path, (*np.searchsorted(positions, chunks).tolist(), len(positions))


def _distinct(bits: Positions) -> Positions:
    """``bits`` in order, each once: sorted in place (a radix sort, a few ms a batch)."""
    bits.sort()
    first = np.concatenate([np.ones(min(len(bits), 1), dtype=bool), bits[1:] != bits[:-1]])
    distinct: Positions = bits[first]
    return distinct


def _hashed(joined: bytes, bits: int) -> Positions:
    """The bits of a filter of ``2**bits`` bits that the windows of ``joined`` (pieces joined by
    ``<``, each ``>`` in them made one) set, but those that hold a ``<``."""
    count = len(joined) - LEAST + 1
    if count < 1:
        return np.zeros(0, dtype=np.uint32)
    windows = eight_bytes(joined, count)
    within = np.ones(count, dtype=bool)  # the windows with no "<" in them
    cuts = np.flatnonzero(np.frombuffer(joined, dtype=np.uint8) == ord("<"))
    for back in range(LEAST):
        ending = cuts - back
        within[ending[(ending >= 0) & (ending < count)]] = False
    return _bits(windows[within], bits).astype(np.uint32)


def _bits(windows: npt.NDArray[np.uint64], bits: int) -> npt.NDArray[np.uint64]:
    """The ``HASHES`` bits of a filter of ``2**bits`` bits each of ``windows`` sets, the first
    of every window, then the second: the high bits of two products (Fibonacci hashing)."""
    shift = np.uint64(64 - bits)
    return np.concatenate([(windows * mix) >> shift for mix in _MIXES])


@dataclass(frozen=True)
class Windows:
    """A filter of ``2**bits`` bits in the file at ``path``, and the bits set since it was last
    amended, in files beside it (``later``)."""

    path: Path
    bits: int
    later: tuple[str, ...] = ()
    """The names of the files beside ``path`` each of which holds bits set since (sorted, each
    once: ``add``)."""

    def make(self) -> None:
        """The file of a filter with no bit set (sparse where the filesystem allows)."""
        with open(self.path, "wb") as made:
            made.truncate(1 << (self.bits - 3))

    def add(self, batches: Sequence[Batch]) -> Windows:
        """This filter, with the bits ``batches`` keep (``Pieces.keep``) set: in a file of
        their own beside it while the bits kept apart are fewer than one in ``APART`` of its
        bits, else amended into its file with those (``amend``).

        The pages a rebuild writes after one run set some 50,000 bits, spread over the whole
        filter: at 10,000 runs, amending them into its 64 MB took reading and writing all of
        it, 0.035 s of each rebuild. Kept apart, they cost a file of 200 KB, and the filter is
        amended once every ten such rebuilds there."""
        apart = [self.path.with_name(name) for name in self.later]
        counted = sum(starts[-1] for _, starts in batches)
        if (counted + sum(path.stat().st_size // 4 for path in apart)) * APART >= 1 << self.bits:
            kept = [_batch(path, np.fromfile(path, dtype=np.uint32), self.bits) for path in apart]
            self.amend([*batches, *kept])
            return replace(self, later=())
        empty = np.zeros(0, dtype=np.uint32)
        bits = [np.fromfile(path, dtype=np.uint32) for path, _ in batches]
        handle, name = tempfile.mkstemp(
            dir=self.path.parent, prefix=f"{self.path.stem}-", suffix=".later"
        )
        with open(handle, "wb") as kept_apart:
            kept_apart.write(_distinct(np.concatenate([empty, *bits])).tobytes())
        return replace(self, later=(*self.later, Path(name).name))

    def amend(self, batches: Sequence[Batch]) -> None:
        """Set the bits ``batches`` keep in the filter's file: a ``CHUNK`` of it at a time,
        read, amended with the bits of every batch that fall in it, and written back. So no
        more of the filter, nor of the bits, is held at once than a chunk and what falls in
        it, however large the site."""
        handle = os.open(self.path, os.O_RDWR)
        try:
            for chunk in range(max(1, (1 << (self.bits - 3)) // CHUNK)):
                falling = [
                    (path, starts) for path, starts in batches if starts[chunk + 1] > starts[chunk]
                ]
                if not falling:
                    continue
                at = chunk * CHUNK
                held = np.zeros(min(CHUNK, 1 << (self.bits - 3)), dtype=np.uint8)
                read = os.pread(handle, len(held), at)
                held[: len(read)] = np.frombuffer(read, dtype=np.uint8)
                for path, starts in falling:  # one batch's bits at a time
                    bits = np.fromfile(
                        path,
                        dtype=np.uint32,
                        count=starts[chunk + 1] - starts[chunk],
                        offset=starts[chunk] * 4,
                    )
                    bits -= np.uint32(at * 8)
                    np.bitwise_or.at(held, bits >> 3, np.left_shift(1, bits & 7).astype(np.uint8))
                os.pwrite(handle, held.tobytes(), at)
        finally:
            os.close(handle)

    def since(self) -> Positions:
        """The bits kept apart from the filter's file (``later``), read once for all the runs
        a check rules out or not."""
        later = [np.fromfile(self.path.with_name(name), dtype=np.uint32) for name in self.later]
        return np.concatenate([np.zeros(0, dtype=np.uint32), *later])

    def carries(self, probes: Probes, since: Positions) -> bool:
        """Whether a page the filter covers may carry a form of the run whose ``probes`` these
        are: each of one form's probed windows has its bits set, in the filter's file or among
        the bits kept apart (``since``). The file is read with ``os.pread``, a byte at a time,
        so that the check touches a few bytes of the filter, not its pages."""
        hashed = [_bits(np.array(form, dtype=np.uint64), self.bits).tolist() for form in probes]
        handle = os.open(self.path, os.O_RDONLY)
        try:
            held = {
                at: os.pread(handle, 1, at) for at in sorted({b >> 3 for f in hashed for b in f})
            }
        finally:
            os.close(handle)
        probed = np.array(sorted({bit for form in hashed for bit in form}), dtype=np.uint32)
        apart = set(probed[np.isin(probed, since)].tolist())
        return any(
            all(bit in apart or _set(held[bit >> 3], bit) for bit in form) for form in hashed
        )


def _set(byte: bytes, bit: int) -> bool:
    """Whether ``bit`` is set in ``byte`` (its byte of the filter); a byte past the file's end
    (a file cut short since its record was read) sets every bit, as ruling out a run on it would
    be a guess."""
    return not byte or bool(byte[0] >> (bit & 7) & 1)


def ruled_out(windows: Windows | None, arrived: Sequence[Arrival]) -> frozenset[int]:
    """The runs of ``arrived`` (by their place) that ``windows`` says no kept page carries."""
    if windows is None:
        return frozenset()
    try:
        since = windows.since()
        return frozenset(
            n
            for n, (_, probes) in enumerate(arrived)
            if probes is not None and not windows.carries(probes, since)
        )
    except OSError:  # its file gone since the build found it: every run is sought
        return frozenset()
