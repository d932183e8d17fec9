"""What the cache keeps of each folder the archive's site is built in, so that the next build
there reads no page it need not: the signatures of the site's files (``guard.signatures.sign``), the
filter of its pages' windows (``guard.windows``), the digest of the manifest put there last,
and the blocks of runs whose pages it lists (``plan.Block``)."""

from __future__ import annotations

import os
import pickle
import secrets
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from generator.guard.signatures import Signed, read_signed, recorded
from generator.guard.windows import Windows
from generator.publish.plan import Block

SINCE = 8
"""Files of a site for each signature kept beside the others, at most (``keep_signatures``)."""


class SiteRecords:
    """The records of one site's folder, in files named after it (``RunCache.site``)."""

    def __init__(self, path: Path, write: Callable[[Path, bytes], None]) -> None:
        """``path``: the records' name (each a suffix of it); ``write``: how the cache writes a
        file, whole or not at all."""
        self._path = path
        self._write = write

    @property
    def signatures(self) -> Path:
        """Where the signatures of the site's files are kept (``kept.sign``), those kept since
        beside it (``kept.recorded``)."""
        return self._path

    def keep_signatures(self, signed: Signed, files: Collection[str]) -> None:
        """Keep the signatures of the site just put in place, whose files are ``files``:
        ``signed``, those this build took (of the files it placed, and of those its check read
        and found as written), in place of those kept before, which stand for the files
        unchanged since. They go in a file of their own beside the others (``.delta``) until it
        holds one for every ``SINCE`` files of the site; then all of them are written again,
        but for files the site no longer has. (Written whole at every build, the 40,000 of a
        10,000-run site took 0.04 s of each rebuild.)"""
        self._path.parent.mkdir(exist_ok=True)
        delta = self._path.with_suffix(".delta")
        since = read_signed(delta) | signed
        if len(since) * SINCE <= len(files):
            self._write(delta, pickle.dumps(since, protocol=pickle.HIGHEST_PROTOCOL))
            return
        every = signed if len(signed) == len(files) else recorded(self._path) | signed
        kept = {file: every[file] for file in files if file in every}
        self._write(self._path, pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
        delta.unlink(missing_ok=True)

    def manifest(self) -> str:
        """The digest of the manifest the last build put in place (``keep_manifest``), or ``""``
        where none is kept."""
        try:
            return self._path.with_suffix(".manifest").read_text(encoding="ascii")
        except (OSError, ValueError):
            return ""

    def keep_manifest(self, digest: str) -> None:
        """Keep ``digest``, that of the manifest just put in place: the next build takes the
        file of that digest there as runsite's own without testing it again."""
        path = self._path.with_suffix(".manifest")
        path.parent.mkdir(exist_ok=True)
        self._write(path, digest.encode())

    def blocks(self, manifest: str) -> dict[str, Block]:
        """The blocks of runs the site's pages were planned in, by key, where their record says
        they are those of the site whose manifest's digest is ``manifest``; none else."""
        try:
            covered, keys = pickle.loads(self._path.with_suffix(".plan").read_bytes())
            if covered != manifest:
                return {}
            folder = self._path.with_suffix(".blocks")
            return {key: Block(key, *pickle.loads((folder / key).read_bytes())) for key in keys}
        except Exception:  # none yet, gone, or not a record: every block is planned again
            return {}

    def keep_blocks(self, blocks: Sequence[Block], manifest: str) -> None:
        """Record ``blocks`` as those of the site just put in place, whose manifest's digest is
        ``manifest``: each in a file of its own, named by its key, written once (one more run
        makes one block anew), and the others removed."""
        folder = self._path.with_suffix(".blocks")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            there = set(os.listdir(folder))
            for block in blocks:
                if block.key not in there:
                    data = (block.listing, block.digests)
                    self._write(folder / block.key, pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
            keys = [block.key for block in blocks]
            record = (manifest, keys)
            self._write(
                self._path.with_suffix(".plan"), pickle.dumps(record, pickle.HIGHEST_PROTOCOL)
            )
            for gone in there.difference(keys):
                (folder / gone).unlink(missing_ok=True)
        except OSError:  # the cache removed while the build wrote it: the next plans anew
            pass

    def windows(self, manifest: str) -> Windows | None:
        """The filter of the windows of the site's pages (``guard.windows``), where its record
        says it covers the site whose manifest's digest is ``manifest`` and its file is whole;
        None where there is none to go on."""
        try:
            covered, name, bits, later = pickle.loads(
                self._path.with_suffix(".windows").read_bytes()
            )
            found = Windows(self._path.parent / name, bits, later)
            whole = found.path.stat().st_size == 1 << (bits - 3)
            whole = whole and all(found.path.with_name(apart).is_file() for apart in later)
        except Exception:  # none yet, gone, or not a record: the kept pages are read whole
            return None
        return found if covered == manifest and whole else None

    def new_windows(self, bits: int) -> Windows:
        """A filter of ``2**bits`` bits, none set, for the site: kept for the next builds once a
        site it covers is in place (``keep_windows``)."""
        self._path.parent.mkdir(exist_ok=True)
        name = f"{self._path.name}-{secrets.token_hex(8)}.bits"
        made = Windows(self._path.parent / name, bits)
        made.make()
        return made

    def keep_windows(self, windows: Windows | None, manifest: str) -> None:
        """Record ``windows`` as the filter of the site just put in place, whose manifest's
        digest is ``manifest`` (None: it has none), and remove the site's other filters (those
        of sites gone, or of builds refused or stopped)."""
        record = self._path.with_suffix(".windows")
        self._path.parent.mkdir(exist_ok=True)
        if windows is None:
            record.unlink(missing_ok=True)
        else:
            data = (manifest, windows.path.name, windows.bits, windows.later)
            self._write(record, pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
        files = {windows.path.name, *windows.later} if windows is not None else set()
        for pattern in (f"{self._path.name}-*.bits", f"{self._path.name}-*.later"):
            for other in self._path.parent.glob(pattern):
                if other.name not in files:
                    other.unlink(missing_ok=True)
