"""The sieve a build passes every file it writes through: of every run's payload keys.

Making it sorts the keys of every run of the archive (0.3 s at 3,000 runs), so it is made on
disk, in the build's cache, a shard of ``sieve.SHARD`` runs at a time (``SieveCache``): the
memory it takes does not grow with the archive. The builds after it map that from its files
and make a small sieve of only the runs it lacks, until ``REBASE`` of them have gathered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Protocol

from generator.guard.sieve import SHARD, Keys, Sieve, Sieves

REBASE = 64
"""Runs the sieve the last build kept may lack, or hold that are gone, before a build makes a
new one. Below, a rebuild maps it and sieves for the runs it lacks apart; each kept sieve
serves the builds of that many more runs."""


class SieveCache(Protocol):
    """Where a build keeps its sieve for the next builds (the archive's run cache)."""

    def sieve(self) -> tuple[list[str], Path] | None:
        """The runs (blob ids, in order) of the sieve the last build kept, and the folder it
        is in (``Sieve.load``); None where there is none to read."""

    def keep_sieve(self, blobs: Sequence[str], make: Callable[[Path], None]) -> Path:
        """Keep the sieve of the keys of ``blobs`` in that order, which ``make`` writes into
        the folder it is given, for the next builds: the folder it is in."""


def run_sieve(
    blobs: Sequence[str],
    cache: SieveCache,
    keys_of: Callable[[Sequence[str]], Mapping[str, Keys]],
    apart: Callable[[Callable[[], Path]], Path],
) -> Sieves:
    """The sieve of the payload of every run of ``blobs`` (the runs at HEAD, by blob id): the
    one the last build kept, mapped from ``cache``, with a sieve of the runs it lacks; or, past
    ``REBASE`` of them (or of runs it has that are gone), one made anew, which the next builds
    then take. ``keys_of`` gives the payload keys of the runs it is handed; ``apart`` makes
    the new one with the work it is given (in a process of its own, where the build works in
    processes: the keys it reads and the arrays it sorts, let go of, left 24 MB of holes in
    the heap of a build of 10,000 runs, which its wrapping processes are forked from)."""
    order = {blob: n for n, blob in enumerate(blobs)}
    last = cache.sieve()
    if last is not None:
        kept, folder = last
        had = set(kept)
        lacking = [blob for blob in order if blob not in had]
        gone = len(had) - (len(order) - len(lacking))
        base = None
        if len(lacking) + gone <= REBASE:
            with suppress(OSError, ValueError):  # a file of it lost or cut short: anew
                base = Sieve.load(folder, [order.get(blob, -1) for blob in kept])
        if base is not None:
            keys = keys_of(lacking)
            more = Sieve([keys[blob] for blob in lacking], [order[b] for b in lacking])
            return Sieves([base, more])

    def groups() -> Iterator[list[Keys]]:
        for start in range(0, len(blobs), SHARD):
            some = list(order)[start : start + SHARD]
            keys = keys_of(some)
            yield [keys[blob] for blob in some]

    folder = apart(partial(cache.keep_sieve, list(order), partial(Sieve.write, groups=groups())))
    return Sieves([Sieve.load(folder, range(len(order)))])
