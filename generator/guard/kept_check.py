"""The process that checks the pages a build keeps (``guard.kept``), as the build sees it.

``runsite build`` starts it before it imports anything else it needs: the process's own imports
(numpy, the automaton: 0.3 s) then run on a core the build is not using yet, and it is ready
for its first pass as soon as the build has read the last build's manifest. So this module
imports only what starting a process takes.

The build sends three pickles on the process's stdin: its own ``sys.path`` first, so the process
imports this very code as the build found it (as ``multiprocessing`` does for a process it
spawns); then the first pass (``start``) and the second (``send``). It reads one ``Kept`` back
from its stdout. A process never given its first pass ends when the build closes its stdin.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.guard.kept import Kept
    from generator.guard.windows import Arrival, Windows

_START = (
    "import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); "
    "from generator.guard.kept import serve; serve()"
)


class KeptCheck:
    """The process checking one build's kept pages."""

    def __init__(self) -> None:
        """Start the process, which then imports what it needs and waits for its work. It runs
        in a session of its own: a Ctrl-C is the build's to handle, which ends the check with
        it (``__exit__``)."""
        self._process = subprocess.Popen(
            [sys.executable, "-P", "-c", _START],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        self._sending: threading.Thread | None = None
        self._send(pickle.dumps(sys.path, pickle.HIGHEST_PROTOCOL), last=False)

    def _send(self, data: bytes, last: bool) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(data)
            self._process.stdin.flush()
            if last:
                self._process.stdin.close()
        except BrokenPipeError:  # the process is gone: results() will say so
            pass

    def start(
        self, site: Path, listing: Sequence[tuple[str, str]], threads: int, record: Path | None
    ) -> None:
        """The first pass, in ``threads`` threads: each file of the last build in ``site``
        against its digest there, as the files of its manifest ``listing`` names give it (each
        with the digest it was read with: ``Manifest.listing``), or its signature where the
        last build kept one (``record``, see ``kept.sign``). The process reads the manifest
        itself, on a core the build is not using: handed its 40,000 files' digests at 10,000
        runs, the build took 10 ms to pickle them. Sent from a thread of its own, as the
        process may still be importing."""
        self._send_aside(pickle.dumps((site, listing, threads, record), pickle.HIGHEST_PROTOCOL))

    def _send_aside(self, data: bytes, last: bool = False) -> None:
        """Send ``data`` after what was sent before, from a thread of its own: the process may
        be busy (importing, reading the manifest) while ``data`` is more than a pipe holds."""
        before = self._sending

        def send() -> None:
            if before is not None:
                before.join()
            self._send(data, last)

        self._sending = threading.Thread(target=send, daemon=True)
        self._sending.start()

    def send(
        self,
        arrived: Sequence[Arrival],
        kept: Sequence[str],
        covered: Windows | None,
        fresh: Windows | None,
    ) -> None:
        """The second pass: sieve ``kept`` (the pages the build keeps) for the runs ``arrived``
        (each one's ``windows.arrival``) that ``covered`` (the filter of the kept pages'
        windows, if any) does not rule out, with the sieve's bounds as the build has them (the
        process imported its own copy of them); where there is no such filter, make ``fresh``
        one of the pages read."""
        from generator.guard import own_pages  # the build has it by now; the check's start does not

        assert self._sending is not None, "start() comes first"
        bounds = (own_pages.AUTOMATON_FORMS, own_pages.DFA_BYTES)
        work = (list(arrived), bounds, list(kept), covered, fresh)
        self._send_aside(pickle.dumps(work, pickle.HIGHEST_PROTOCOL), last=True)

    def results(self) -> Kept | None:
        """What the check found; None where its process ended before it was done (killed,
        by the system short of memory or by hand)."""
        assert self._process.stdout is not None
        data = self._process.stdout.read()
        if self._process.wait() != 0:
            return None
        found: Kept = pickle.loads(data)
        return found

    def __enter__(self) -> KeptCheck:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """End the process if it is still at work (a build that stopped before its results,
        or never needed them)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if self._sending is not None:
            self._sending.join()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                with suppress(BrokenPipeError):  # what a killed process did not read
                    stream.close()
