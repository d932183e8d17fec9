"""A page's body between its rendering and its shell: a chunk's bodies in one file of the
build's staging folder, written by the process that renders them and read by the one that puts
them in their shells (``wrapping``), a body at a time."""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from generator.publish.plan import PageJob
from generator.site.writer import Body

Staged = tuple[PageJob, str, bytes]
"""A page's body as a build keeps it until its shell exists: the page, its title, and its HTML
in UTF-8, which is how the page is written (as text, a body took twice its bytes wherever it
held a character past Latin-1; a chunk's bodies were 18 MB as text, 9 as UTF-8)."""


def staged_body(job: PageJob, body: Body) -> Staged:
    return job, body.title, body.html.encode()


class Stage:
    """A chunk's bodies kept in one file until the shells exist, each pickled as it is made and
    read back one at a time (``staged_bodies``), so that neither the process that renders them
    nor the one that wraps them holds a chunk's bodies at once: with them, the reading
    processes held 40 and 49 MB of their own at the peak of a 1,000-run full build (169 MB);
    without, its peak is the wrapping's (164 MB), whose processes hold 26 and 28. One file a
    chunk, not one a page, because opening files is what costs most here; pickled, as the
    build that writes the file is the one that reads it, from its own staging folder (as JSON,
    the 3 MB of a chunk's bodies took 39 ms to write and read again, pickled 2)."""

    def __init__(self, staging: Path) -> None:
        self._staging = staging
        self._target: BinaryIO | None = None
        self.path: Path | None = None
        """The file, once a body is in it."""

    def add(self, staged: Staged) -> None:
        if self._target is None:
            folder = self._staging / "bodies"
            folder.mkdir(exist_ok=True)
            handle, name = tempfile.mkstemp(dir=folder, suffix=".pickle")
            self._target = open(handle, "wb")  # noqa: SIM115 (closed by ``close``)
            self.path = Path(name)
        pickle.dump(staged, self._target, protocol=pickle.HIGHEST_PROTOCOL)

    def close(self) -> Path | None:
        """The file, written whole; None where no body went in."""
        if self._target is not None:
            self._target.close()
        return self.path


def stage_bodies(staging: Path, bodies: Iterable[Staged]) -> Path | None:
    """``bodies`` kept in a file of ``staging`` (``Stage``); None where there are none."""
    stage = Stage(staging)
    try:
        for staged in bodies:
            stage.add(staged)
    finally:
        found = stage.close()
    return found


def staged_bodies(path: Path) -> Iterator[Staged]:
    """The bodies a ``Stage`` kept at ``path``, in order, one at a time."""
    with path.open("rb") as source:
        while True:
            try:
                yield pickle.load(source)
            except EOFError:
                return
