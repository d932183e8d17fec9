"""The pages a build keeps, as the build sees them: the check that each is what the last build
wrote and carries no payload of the runs that arrived since (``guard.kept``, in a process of
its own), and the filter of the kept pages' windows that spares that check reading them
(``guard.windows``), which the build then adds the pages it writes to."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from generator.errors import ProcessEnded
from generator.guard.kept import Kept
from generator.guard.kept_check import KeptCheck
from generator.guard.windows import Arrival, Batch, Windows, bits_for
from generator.publish.manifest import Manifest
from generator.publish.records import SiteRecords


class Keeping:
    """What one build does about the pages it keeps, step by step."""

    def __init__(
        self,
        out: Path,
        records: SiteRecords,
        old: Manifest | None,
        check: KeptCheck | None,
        jobs: int,
        stack: ExitStack,
    ) -> None:
        """Start the first pass of the check of the last build's files (``old``: none for a
        full build, which keeps nothing) in ``out``, whose ``records`` the cache keeps, in
        ``jobs`` threads, in the process ``check`` (one
        started now where not given). The check ends with ``stack``, even for a build that
        restarts."""
        self._records = records
        self.checking = None
        if old is not None:
            self.checking = stack.enter_context(check or KeptCheck())
            self.checking.start(out, old.listing(), jobs, records.signatures)
        elif check is not None:
            check.close()  # nothing kept to check: its memory goes now, not with the build
        self._covered = records.windows(old.digest) if old is not None else None
        self._fresh: Windows | None = None
        self._kept: Sequence[str] = ()
        self.windows: Windows | None = self._covered
        """The filter of the windows of the pages of the site this build makes: the last
        build's, to which it adds the pages it writes; else a new one, of those pages and of
        the kept ones, which the check then reads whole."""

    def plan(self, pages: int, kept: Sequence[str]) -> None:
        """The site has ``pages`` run, comparison and older-runs pages, of which the build keeps
        ``kept``."""
        self._kept = kept
        if self._covered is None:
            self._fresh = self._records.new_windows(bits_for(pages))
            self.windows = self._fresh

    def send(self, arrived: Sequence[Arrival]) -> None:
        """The second pass of the check: the kept pages sieved for the runs ``arrived``."""
        if self.checking is not None:
            self.checking.send(arrived, self._kept, self._covered, self._fresh)

    def wrote(self, batches: Sequence[Batch]) -> Kept | None:
        """What the check found, once the build wrote its pages, which set ``batches`` of the
        filter: added to it once the check is done with it."""
        checked = None
        if self.checking is not None:
            checked = self.checking.results()
            if checked is None:
                raise ProcessEnded("the check of the kept pages")
        if self.windows is not None:
            try:
                self.windows = self.windows.add(batches)
            except OSError:  # its file gone (the cache removed): the site keeps none
                self.windows = None
                return checked
            lacking = self._covered is None and self._kept  # kept pages it needs the check for
            if lacking and (checked is None or not checked.remade):
                self.windows = None
        return checked

    def record(self, manifest: str) -> None:
        """The site whose manifest's digest is ``manifest`` is in place: its filter is the one
        the next build goes on."""
        self._records.keep_windows(self.windows, manifest)
