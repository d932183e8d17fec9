"""The check of the pages a build keeps, in a process of its own beside the build.

Every page a build keeps must be what the last build wrote (its content digest), and is sieved
for the payload of the runs that arrived since (``sieve.OwnPages``). That is reading every run
and comparison page of the site, 160 MB at 1,000 runs; done last, it took a fifth of a rebuild.
So the check starts with the build and works in two passes, each on a core the build is not
using:

1. as soon as it has imported what it needs, it reads every file of the last build and
   compares each with the digest the last build's manifest gives it: the build does not know
   yet which pages it keeps, but they are among these, and it puts back any other file not
   what the last build wrote (edited by hand);
2. once the build has read the runs, it is handed the pages it keeps and the arrived runs'
   keys, and reads those pages again (from the page cache now) to sieve them. With no run
   arrived there is nothing to sieve, and a build that only checks its pages waits for none.

A page whose file changed between the passes (its inode, size or times) has its digest taken
again from what the second pass read, so the digest and the sieve judge the same bytes.

A process started afresh, not a fork of the build: a fork shares the build's memory until the
build writes to it, and then holds each page it wrote twice (50 MiB more at 3,000 runs, when
the check was forked once the runs were read). Inside it, ``threads`` threads: reading a file,
its digest and the automaton's search let go of the GIL.

The process reads two pickles on its stdin, ``(site, expected, threads)`` (the files to check
and their digests) and, when the build knows them, ``(keys, bounds, kept)``, and writes one
``Kept`` to its stdout. The build's side of it is ``site.kept_check``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.site import sieve

BATCH = 256
"""Pages a thread checks in one go."""


def content_digest(data: bytes) -> str:
    """The digest a site's manifest keeps of each of its files."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Kept:
    """What the check found of the kept pages."""

    altered: frozenset[str]
    """The files whose bytes are not those the last build wrote (or that are gone)."""
    found: Mapping[str, frozenset[int]]
    """The kept pages that may carry the payload of arrived runs: their positions in the
    keys."""


Signature = tuple[int, int, int, int]
"""What tells that a file changed without reading it: its inode, size, and modify and change
times."""

Read = tuple[bytes, Signature]


def _contents(path: Path) -> Read | None:
    """A regular file's bytes and signature; None for anything else, or a file gone. Opened
    without blocking, so a FIFO in a page's place is refused, not waited on; and read with
    ``os.read`` into a buffer of the file's size, in half the time ``read_bytes`` takes."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            return None
        data = os.read(handle, status.st_size)
        while more := os.read(handle, 1 << 16):  # a file that grew since its fstat
            data += more
    except OSError:
        return None
    finally:
        os.close(handle)
    return data, (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


Judged = tuple[Signature | None, frozenset[int]]
"""A page's signature if it is what the last build wrote (else None), and the runs whose payload
it may carry."""


class Checker:
    """The two passes of one check, in ``threads`` threads."""

    def __init__(self, site: Path, expected: Mapping[str, str], threads: int) -> None:
        """Start the first pass: each page of ``expected`` against its digest."""
        self._site = site
        self._expected = expected
        self._pool = ThreadPoolExecutor(max(1, threads))
        files = list(expected)
        self._first: dict[str, Future[dict[str, Signature | None]]] = {}
        for start in range(0, len(files), BATCH):
            batch = files[start : start + BATCH]
            self._first.update(dict.fromkeys(batch, self._pool.submit(self._signed, batch)))

    def _signed(self, files: Sequence[str]) -> dict[str, Signature | None]:
        """Each file's signature if it is what the last build wrote, else None."""
        return {file: self._as_written(file, _contents(self._site / file)) for file in files}

    def _as_written(self, file: str, read: Read | None) -> Signature | None:
        """``read``'s signature if its bytes are what the last build wrote of ``file`` (its
        digest), else None."""
        if read is None or content_digest(read[0]) != self._expected.get(file):
            return None
        return read[1]

    def _first_said(self, file: str) -> Signature | None:
        """What the first pass found of ``file``. (A first pass's batch is under way or done
        by the time a second pass's batch asks, as the pool takes its work in order.)"""
        first = self._first.get(file)
        return first.result()[file] if first is not None else None

    def _same(self, file: str, read: Read | None) -> Signature | None:
        """``read``'s signature if it is what the last build wrote (else None): known from the
        first pass when the file has not changed since."""
        if read is not None and self._first_said(file) == read[1]:
            return read[1]
        return self._as_written(file, read)

    def _sieved(self, own: sieve.OwnPages, files: Sequence[str]) -> dict[str, Judged]:
        judged = {}
        for file in files:
            read = _contents(self._site / file)
            runs = frozenset(own.runs_in(read[0])) if read is not None else frozenset()
            judged[file] = (self._same(file, read), runs)
        return judged

    def finish(self, keys: Sequence[sieve.Keys], kept: Sequence[str]) -> Kept:
        """The files altered, and the pages of ``kept`` that may carry the payload of ``keys``
        (the ``own_keys`` of each arrived run)."""
        with self._pool:
            sieved: dict[str, Judged] = {}
            if keys:
                own = sieve.OwnPages(keys)
                starts = range(0, len(kept), BATCH)
                for batch in [
                    self._pool.submit(self._sieved, own, kept[n : n + BATCH]) for n in starts
                ]:
                    sieved.update(batch.result())
            judged = {
                file: sieved[file] if file in sieved else (self._first_said(file), frozenset())
                for file in dict.fromkeys([*self._expected, *kept])
            }
        return Kept(
            frozenset(file for file, (same, _) in judged.items() if same is None),
            {file: runs for file, (_, runs) in judged.items() if runs},
        )

    def stop(self) -> None:
        """Drop the work not begun: the build is gone."""
        self._pool.shutdown(cancel_futures=True)


def serve() -> None:
    """The process's side: the two passes in, what they found out."""
    try:
        site, expected, threads = pickle.load(sys.stdin.buffer)
    except EOFError:  # the build ended before it sent the work
        return
    checker = Checker(site, expected, threads)
    try:
        keys, bounds, kept = pickle.load(sys.stdin.buffer)
    except EOFError:
        checker.stop()
        return
    sieve.AUTOMATON_FORMS, sieve.DFA_FORMS = bounds
    found = checker.finish(keys, kept)
    try:
        sys.stdout.buffer.write(pickle.dumps(found, pickle.HIGHEST_PROTOCOL))
        sys.stdout.buffer.flush()
    except BrokenPipeError:  # the build is gone (killed): nobody reads what the check found
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
