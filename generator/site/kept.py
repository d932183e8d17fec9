"""The check of the pages a build keeps, in a process of its own beside the build.

Every page a build keeps must be what the last build wrote (its content digest), and is sieved
for the payload of the runs that arrived since (``sieve.OwnPages``). That is reading every run
and comparison page of the site, 160 MB at 1,000 runs; done last, it took a fifth of a rebuild.
So the check starts with the build, imports what it needs on a core the build is not using yet,
is handed the pages and the arrived runs' keys as soon as the build knows them, and reads the
pages while the build writes the home and suite pages, runs mkdocs and wraps the new pages.

A process started afresh, not a fork of the build: a fork shares the build's memory until the
build writes to it, and then holds each page it wrote twice (50 MiB more at 3,000 runs, when
the check was forked once the runs were read). Inside it, ``threads`` threads: reading a file,
its digest and the automaton's search let go of the GIL, so they use every core once the build
is done with its own work.

The build sends two pickles on the process's stdin: its own ``sys.path`` first, so the process
imports this very code as the build found it (as ``multiprocessing`` does for a process it
spawns); then, when it knows them, ``(keys, bounds, site, files, threads)``. It reads one back
from its stdout: for each file, in order, its content digest and the positions in ``keys`` of
the runs whose payload it may carry.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from generator.site import sieve

_START = (
    "import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); "
    "from generator.site.kept import serve; serve()"
)

BATCH = 256
"""Pages a thread checks in one go."""

Checked = tuple[str, frozenset[int]]
"""A kept page's content digest, and the runs whose payload it may carry."""


def content_digest(data: bytes) -> str:
    """The digest a site's manifest keeps of each of its files."""
    return hashlib.sha256(data).hexdigest()


class KeptCheck:
    """The process checking one build's kept pages."""

    def __init__(self) -> None:
        """Start the process, which then waits for its work. It runs in a session of its own:
        a Ctrl-C is the build's to handle, which ends the check with it (``__exit__``)."""
        self._process = subprocess.Popen(
            [sys.executable, "-P", "-c", _START],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        assert self._process.stdin is not None
        pickle.dump(sys.path, self._process.stdin, pickle.HIGHEST_PROTOCOL)
        self._process.stdin.flush()

    def send(
        self, keys: Sequence[sieve.Keys], site: Path, files: Sequence[str], threads: int
    ) -> None:
        """Check ``files`` (paths in ``site``) for ``keys`` (``own_keys`` of each arrived run),
        with the sieve's bounds as this process has them."""
        assert self._process.stdin is not None
        bounds = (sieve.AUTOMATON_FORMS, sieve.DFA_FORMS)
        with self._process.stdin as task:
            work = (list(keys), bounds, site, list(files), threads)
            pickle.dump(work, task, pickle.HIGHEST_PROTOCOL)

    def results(self) -> list[Checked]:
        """What the check found, file by file in the order sent."""
        assert self._process.stdout is not None
        data = self._process.stdout.read()
        if self._process.wait() != 0:
            raise RuntimeError(f"the check of the kept pages ended with {self._process.returncode}")
        found: list[Checked] = pickle.loads(data)
        return found

    def __enter__(self) -> KeptCheck:
        return self

    def __exit__(self, *_: object) -> None:
        """End the process if it is still at work (a build that stopped before its results)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                stream.close()


def check(
    keys: Sequence[sieve.Keys], site: Path, files: Sequence[str], threads: int
) -> list[Checked]:
    """Each file's content digest (empty for one that cannot be read) and the runs of ``keys``
    it may carry the payload of."""
    own = sieve.OwnPages(keys)

    def batch(start: int) -> list[Checked]:
        found: list[Checked] = []
        for file in files[start : start + BATCH]:
            try:
                data = (site / file).read_bytes()
            except OSError:  # gone, or a folder now: no digest is that of what a build wrote
                found.append(("", frozenset()))
                continue
            found.append((content_digest(data), frozenset(own.runs_in(data))))
        return found

    with ThreadPoolExecutor(max(1, threads)) as pool:
        return [page for found in pool.map(batch, range(0, len(files), BATCH)) for page in found]


def serve() -> None:
    """The process's side: one task in, its results out."""
    try:
        keys, bounds, site, files, threads = pickle.load(sys.stdin.buffer)
    except EOFError:  # the build ended before it sent the work
        return
    sieve.AUTOMATON_FORMS, sieve.DFA_FORMS = bounds
    found = check(keys, site, files, threads)
    try:
        sys.stdout.buffer.write(pickle.dumps(found, pickle.HIGHEST_PROTOCOL))
        sys.stdout.buffer.flush()
    except BrokenPipeError:  # the build is gone (killed): nobody reads what the check found
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
