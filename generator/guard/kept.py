"""The check of the pages a build keeps, in a process of its own beside the build.

Every page a build keeps must be what the last build wrote (its content digest), and is sieved
for the payload of the runs that arrived since (``own_pages.OwnPages``). That is reading every run
and comparison page of the site, 160 MB at 1,000 runs; done last, it took a fifth of a rebuild.
So the check starts with the build and works in two passes, each on a core the build is not
using:

1. as soon as it has imported what it needs, it checks every file of the last build against
   the digest the last build's manifest gives it: the build does not know yet which pages it
   keeps, but they are among these, and it puts back any other file not what the last build
   wrote (edited by hand). A file whose signature is the one the last build signed it with
   (``signatures.sign``) is not read: it has not changed since;
2. once the build knows the arrived runs' keys (before it reads the runs, when few arrived),
   it is handed them and the pages it keeps, and reads those pages again (from the page cache
   now) to sieve them: for the runs the filter of the kept pages' windows (``windows``) does
   not rule out, which are none most of the time, so that it reads no page at all. With no
   run left to seek there is nothing to sieve, and a build that only checks its pages waits
   for none.

A page whose file changed between the passes (its inode, size or times) has its digest taken
again from what the second pass read, so the digest and the sieve judge the same bytes.

A process started afresh, not a fork of the build: a fork shares the build's memory until the
build writes to it, and then holds each page it wrote twice (50 MiB more at 3,000 runs, when
the check was forked once the runs were read). Inside it, ``threads`` threads: reading a file,
its digest and the automaton's search let go of the GIL.

The process reads two pickles on its stdin, ``(site, listing, threads, record)`` (the site, the
files of its manifest that list its files, each with the digest the build read it with, from
which it reads the files to check and their digests, and where the last build kept their
signatures) and, when the build
knows them, ``(arrived, bounds, kept, covered, fresh)`` (each arrived run's
``windows.Arrival``, the sieve's bounds, the pages kept, the filter of their windows if any,
else one to make of them), and writes one ``Kept`` to its stdout. The build's side of it is
``guard.kept_check``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import jiter

from generator.guard import own_pages, windows
from generator.guard.signatures import DIGEST, Signature, Signed, known, recorded, signature
from generator.guard.windows import Windows

BATCH = 256
"""Pages a thread checks in one go."""


def content_digest(data: bytes) -> str:
    """The digest a site's manifest keeps of each of its files, and names its parts by."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Kept:
    """What the check found of the kept pages."""

    altered: frozenset[str]
    """The files whose bytes are not those the last build wrote (or that are gone)."""
    found: Mapping[str, frozenset[int]]
    """The kept pages that may carry the payload of arrived runs: the runs' places in what
    the check was handed."""
    seen: Signed
    """The digest and signature of each file found as the last build wrote it, when it was
    found so, where that is not the signature kept for it (``recorded``): what the next build's
    record adds."""
    ruled_out: frozenset[int] = frozenset()
    """The arrived runs (their places) sought in no kept page, as no kept page can carry them
    (``windows``)."""
    remade: bool = False
    """Whether the filter of the kept pages' windows was made anew of every kept page."""


Read = tuple[bytes, Signature]


def _contents(path: str) -> Read | None:
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
    return data, signature(status)


_First = tuple[dict[str, bytes | None], list[str]]
"""What the first pass found of a batch of files: each one's digest and signature (as
``Signed`` holds them) if it is what the last build wrote, else None; and those it read to
know."""

Judged = tuple[bytes | None, frozenset[int]]
"""A page's digest and signature if it is what the last build wrote (else None), and the runs
whose payload it may carry."""


class Checker:
    """The two passes of one check, in ``threads`` threads."""

    def __init__(self, site: Path, expected: Mapping[str, bytes], threads: int) -> None:
        """Start the first pass: each file of ``expected`` (``known``'s) against its digest, or
        against its signature where it has one."""
        self._site = f"{os.fspath(site)}/"
        """Where the site is, as a prefix to its files' paths: joined as strings, as a build
        checks 40,000 files at 10,000 runs, and a ``Path`` took 5 µs a join (the first pass
        from 0.58 s to 0.27 there)."""
        self._expected = expected
        self._threads = max(1, threads)
        files = list(expected)
        unsigned = sum(len(expected[file]) == DIGEST for file in files)
        # A file taken by its signature costs a system call, in which its thread lets go of the
        # GIL for the other to take: two threads over 40,000 signed files took 0.24 s, one 0.17.
        # Threads only where files are read and hashed, which they do side by side.
        self._pool = ThreadPoolExecutor(self._threads if unsigned > BATCH else 1)
        self._first: dict[str, Future[_First]] = {}
        for start in range(0, len(files), BATCH):
            batch = files[start : start + BATCH]
            self._first.update(dict.fromkeys(batch, self._pool.submit(self._first_pass, batch)))

    def _first_pass(self, files: Sequence[str]) -> _First:
        """Each file's digest and signature if it is what the last build wrote, else None; and
        the files read to know (those whose signature is not the one the last build signed
        them with)."""
        said: dict[str, bytes | None] = {}
        read = []
        for file in files:
            expected = self._expected[file]
            if len(expected) > DIGEST:
                try:
                    status = os.lstat(self._site + file)
                except OSError:
                    status = None
                if (
                    status is not None
                    and stat.S_ISREG(status.st_mode)
                    and signature(status) == expected[DIGEST:]
                ):
                    said[file] = expected
                    continue
            said[file] = self._as_written(file, _contents(self._site + file))
            read.append(file)
        return said, read

    def _as_written(self, file: str, read: Read | None) -> bytes | None:
        """``read``'s digest and signature if its bytes are what the last build wrote of
        ``file`` (its digest), else None."""
        expected = self._expected.get(file)
        if read is None or expected is None:
            return None
        digest = hashlib.sha256(read[0]).digest()
        return digest + read[1] if digest == expected[:DIGEST] else None

    def _first_said(self, file: str) -> bytes | None:
        """What the first pass found of ``file``. (A first pass's batch is under way or done
        by the time a second pass's batch asks, as the pool takes its work in order.)"""
        first = self._first.get(file)
        return first.result()[0][file] if first is not None else None

    def _same(self, file: str, read: Read | None) -> bytes | None:
        """``read``'s digest and signature if it is what the last build wrote (else None):
        known from the first pass when the file has not changed since."""
        said = self._first_said(file)
        if read is not None and said is not None and said[DIGEST:] == read[1]:
            return said
        return self._as_written(file, read)

    def _sieved(
        self, own: own_pages.OwnPages, files: Sequence[str], remaking: tuple[int, Path] | None
    ) -> tuple[dict[str, Judged], windows.Batch | None]:
        """Each file's judgement, and where a filter of the kept pages is being made anew
        (``remaking``: its size in bits, and a folder for the bits the files set), those bits
        (``Pieces.keep``)."""
        judged = {}
        pieces = windows.Pieces()
        for file in files:
            read = _contents(self._site + file)
            runs = frozenset(own.runs_in(read[0])) if read is not None else frozenset()
            judged[file] = (self._same(file, read), runs)
            if remaking is not None and read is not None:
                pieces.add(read[0])
        return judged, pieces.keep(*remaking) if remaking is not None else None

    def finish(
        self,
        arrived: Sequence[windows.Arrival],
        kept: Sequence[str],
        covered: Windows | None = None,
        fresh: Windows | None = None,
    ) -> Kept:
        """The files altered, and the pages of ``kept`` that may carry the payload of the runs
        ``arrived``: sought in every kept page, but for the runs the filter of the windows of
        the kept pages (``covered``) rules out. Where there is no such filter and some run is
        sought, every kept page is read, and ``fresh`` (a filter with no bit set) is given the
        bits they set."""
        skipped = windows.ruled_out(covered, arrived)
        sought = [n for n in range(len(arrived)) if n not in skipped]
        remaking = fresh if covered is None and sought and fresh and fresh.path.exists() else None
        beside = remaking.path.parent if remaking is not None else None
        with (
            self._pool,
            ThreadPoolExecutor(self._threads) as pool,
            tempfile.TemporaryDirectory(dir=beside) as folder,
        ):
            sieved: dict[str, Judged] = {}
            batches: list[windows.Batch] = []
            if sought:
                own = own_pages.OwnPages([arrived[n][0] for n in sought])
                making = (remaking.bits, Path(folder)) if remaking is not None else None
                for batch in [
                    pool.submit(self._sieved, own, kept[n : n + BATCH], making)
                    for n in range(0, len(kept), BATCH)
                ]:
                    found, bits = batch.result()
                    sieved.update(found)
                    batches += [bits] if bits is not None else []
            remade = remaking is not None
            if remaking is not None:
                try:
                    remaking.amend(batches)
                except OSError:  # its file gone (the cache removed): the build keeps none
                    remade = False
            same: dict[str, bytes | None] = dict.fromkeys(kept)  # None: not in the manifest
            read: list[str] = []
            for said, reading in map(Future.result, dict.fromkeys(self._first.values())):
                same.update(said)  # each batch's once, not each of its files'
                read += reading
        same.update({file: judged for file, (judged, _) in sieved.items()})
        return Kept(
            frozenset(file for file, judged in same.items() if judged is None),
            {
                file: frozenset(sought[n] for n in runs)
                for file, (_, runs) in sieved.items()
                if runs
            },
            {
                file: as_found
                for file in dict.fromkeys([*read, *sieved])
                if (as_found := same[file]) is not None and self._expected.get(file) != as_found
            },
            skipped,
            remade,
        )

    def stop(self) -> None:
        """Drop the work not begun: the build is gone."""
        self._pool.shutdown(cancel_futures=True)


def _files_listed(
    site: Path, listing: Sequence[tuple[str, str]], signed: Signed
) -> dict[str, bytes]:
    """The files the manifest of ``site`` lists, with what the check goes on for each
    (``known``, of their digests and the signatures the last build ``signed`` them with): those
    its files ``listing`` names list (its parts, or its one file), each read where its digest
    is the one given (by the top file the build read). None where one is not (changed since,
    or gone): every page the build keeps is then found altered, and the build starts again as
    a full one. A part at a time, so that the check never holds every file's name twice."""
    files: dict[str, bytes] = {}
    try:
        for name, digest in listing:
            data = (site / name).read_bytes()
            if content_digest(data) != digest:
                return {}
            files.update(known(jiter.from_json(data, cache_mode="none")["files"], signed))
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return files


def serve() -> None:
    """The process's side: the two passes in, what they found out."""
    try:
        site, listing, threads, record = pickle.load(sys.stdin.buffer)
    except EOFError:  # the build ended before it sent the work
        return
    checker = Checker(site, _files_listed(site, listing, recorded(record)), threads)
    try:
        arrived, bounds, kept, covered, fresh = pickle.load(sys.stdin.buffer)
    except EOFError:
        checker.stop()
        return
    own_pages.AUTOMATON_FORMS, own_pages.DFA_BYTES = bounds
    found = checker.finish(arrived, kept, covered, fresh)
    try:
        sys.stdout.buffer.write(pickle.dumps(found, pickle.HIGHEST_PROTOCOL))
        sys.stdout.buffer.flush()
    except BrokenPipeError:  # the build is gone (killed): nobody reads what the check found
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    # Ended now, its work done and written: the build reads what it found to the end of its
    # output, and the interpreter's own ending (freeing what the check held, 40,000 files'
    # digests and signatures at 10,000 runs) kept it waiting 0.1 s there.
    os._exit(0)
