"""The archive's git repository as commands change it: one lock, one commit per command, and
recovery from a kill (``head`` reads what HEAD holds).

How a command changes the archive, so that a SIGKILL at any point loses nothing:

1. It takes an OS lock (``flock``) on ``<git dir>/runsite.lock``. The kernel releases it when
   the process dies, so this lock never goes stale; git children inherit it, so a git command
   orphaned by a kill still holds it until it ends.
2. Under the lock it first finishes whatever a killed command left (``_recover``).
3. It stores the blobs (one pack, by ``git fast-import``) and builds the commit against a
   private index (``GIT_INDEX_FILE``): the working tree and the real index are untouched, and
   a kill leaves only unreachable objects.
4. It writes a journal naming the commit and its paths, then moves the branch with one
   ``update-ref`` that checks the old value. That is the atomic point.
5. It writes each file into the working tree (a temporary file, then a rename), refreshes the
   real index for those paths, and deletes the journal.

A kill after 4 leaves the branch at the journal's commit: the next command writes the files and
refreshes the index again (and removes an ``index.lock`` that only the killed refresh can have
left). A journal whose commit the branch never reached is deleted.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from generator.archive.head import GitHead, blob_id
from generator.errors import ArchiveRefused

NO_COMMIT = "0" * 40
LOCK = "runsite.lock"
SCRATCH = "runsite"
"""A folder in the git dir for the private index and the journal; only the lock holder uses it."""

Changes = Mapping[str, bytes | None]
"""Paths relative to the working tree's top, each to its new bytes, or None to remove it."""


def crash_point(name: str) -> None:
    """Tests set ``RUNSITE_CRASH_AT`` to kill the process here, to prove that costs nothing."""
    if os.environ.get("RUNSITE_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


class GitStore(GitHead):
    """The git repository whose working tree holds an archive, as a command changes it."""

    def __init__(self, folder: Path, branch: str | None = None) -> None:
        super().__init__(folder)
        self.branch = branch
        """The one branch commits may go to; None: any branch."""
        self._scratch = self.git_dir / SCRATCH

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the archive's lock, after finishing what a killed command left."""
        with self._held(for_writing=True):
            yield

    @contextmanager
    def reading(self) -> Iterator[None]:
        """What a command that only reads holds: the lock, as ``locked``, where it can be
        taken; nothing where the archive may only be read (a read-only mount, a lock file
        of another user's), as HEAD, which every read goes through, is whole even if a killed
        command left its working tree unsettled."""
        with self._held(for_writing=False):
            yield

    @contextmanager
    def _held(self, for_writing: bool) -> Iterator[None]:
        try:
            fd = os.open(self.git_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            if for_writing:
                raise ArchiveRefused(
                    f"{self.git_dir}: the archive cannot be written here "
                    f"({error.strerror or error})"
                ) from None
            fd = None
        if fd is None:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._lock = fd
            self._scratch.mkdir(exist_ok=True)
            self._recover()
            yield
        finally:
            self._lock = None
            os.close(fd)

    def check_branch(self) -> None:
        """Refuse to commit anywhere but on the archive's branch: a commit on a detached HEAD
        is on no branch, and vanishes from sight once one is checked out."""
        current = self.current_branch()
        wanted = self.branch or "a branch"
        if current is None:
            raise ArchiveRefused(
                f"{self.top}: HEAD is detached, and runsite commits only to the archive's "
                f"branch; check out {wanted}: nothing was committed"
            )
        if self.branch is not None and current != self.branch:
            raise ArchiveRefused(
                f"{self.top}: HEAD is on {current}, and runsite.toml keeps the archive on "
                f"{self.branch}; check out {self.branch}: nothing was committed"
            )

    def commit(self, changes: Changes, message: str) -> str | None:
        """Commit ``changes`` on HEAD and bring the working tree along; None if nothing changed.

        Call it holding the lock.
        """
        assert self._lock is not None, "commit without the archive's lock"
        self.check_branch()
        parent = self.head()
        entries = {
            path: None if data is None else blob_id(data) for path, data in sorted(changes.items())
        }
        self._store(data for data in changes.values() if data is not None)
        crash_point("blobs")
        scratch = {"GIT_INDEX_FILE": str(self._scratch / "index")}
        self._git("read-tree", parent or "--empty", env=scratch)
        records = [
            f"{'100644' if sha else '0'} {sha or NO_COMMIT}\t{path}\0"
            for path, sha in entries.items()
        ]
        self._git(
            "update-index", "-z", "--index-info", stdin="".join(records).encode(), env=scratch
        )
        tree = self._git("write-tree", env=scratch)
        if parent and tree == self._git("rev-parse", f"{parent}^{{tree}}"):
            return None
        commit = self._git(
            "commit-tree", tree, *(["-p", parent] if parent else []), stdin=message.encode()
        )
        journal = {"commit": commit, "entries": entries}
        (self._scratch / "journal.tmp").write_text(json.dumps(journal), encoding="utf-8")
        os.replace(self._scratch / "journal.tmp", self._scratch / "journal.json")
        crash_point("journal")
        subject = message.splitlines()[0]
        self._git("update-ref", "-m", f"runsite: {subject}", "HEAD", commit, parent or NO_COMMIT)
        crash_point("ref")
        self._settle({path: changes[path] for path in entries})
        (self._scratch / "journal.json").unlink()
        return commit

    def _store(self, blobs: Iterable[bytes]) -> None:
        """Write blobs into the object store, all into one pack (``git fast-import``)."""
        stream = b"".join(b"blob\ndata %d\n%s\n" % (len(data), data) for data in blobs)
        if stream:
            self._git("fast-import", "--quiet", stdin=stream)

    def _settle(self, files: Mapping[str, bytes | None]) -> None:
        """Make the working tree and the real index show ``files`` as HEAD has them.

        Each file is written beside its place and renamed into it, so a reader never meets half
        a document; a kill leaves at most a ``.partial`` file that the next settle replaces.
        """
        for path, data in files.items():
            target = self.top / path
            if data is None:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                partial = target.with_name(f".{target.name}.partial")
                partial.write_bytes(data)
                crash_point("partial")
                os.replace(partial, target)
            crash_point("file")
        listing = "".join(f"{path}\0" for path in files).encode()
        self._git("update-index", "--add", "--remove", "-z", "--stdin", stdin=listing)
        crash_point("index")

    def _recover(self) -> None:
        journal = self._scratch / "journal.json"
        if journal.exists():
            record = json.loads(journal.read_bytes())
            if self.head() == record["commit"]:
                (self.git_dir / "index.lock").unlink(missing_ok=True)
                entries: dict[str, str | None] = record["entries"]
                self._settle({p: None if s is None else self.blob(s) for p, s in entries.items()})
            journal.unlink()
        for leftover in self._scratch.iterdir():
            leftover.unlink()
