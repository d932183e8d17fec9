"""The archive as a build reads it: the runs committed at HEAD, read as git stores them.

A build publishes what the archive's history holds, not whatever the working tree has at the
moment: the listing is HEAD's tree, and each document is the blob it names. Where the working
tree's file has the blob's size and, hashed as git hashes it, the blob's id, it is that blob,
and is read from there: git, asked through one ``git cat-file --batch`` per process, inflates
each document from the chain of deltas a pack keeps it as, 1.7 ms a bench document where the
file and its hash take 0.4 from the page cache (a file the disk must give costs more, and the
pack is twenty times smaller, but a build waits on one worker's read while the other works).
Any other file (changed, missing, not a regular file) is passed over for git's copy.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from generator.archive import Archive
from generator.archive.catalog import refuse_if_larger, refuse_unless_file
from generator.archive.head import blob_id
from generator.archive.layout import BASELINE, unsafe
from generator.errors import ArchiveRefused, DocumentRefused


class Listed(NamedTuple):
    """One run committed at HEAD. (A tuple: a build lists 10,000 of them at 10,000 runs, at a
    fifth of a frozen dataclass's cost each.)"""

    tenant: str
    suite: str
    key: str
    blob: str
    path: str
    """Relative to the archive's root, as messages name it."""
    file: str
    """Where the working tree has it (which may hold other bytes)."""
    size: int
    """The blob's bytes."""

    @property
    def suite_of(self) -> tuple[str, str]:
        return (self.tenant, self.suite)


@dataclass(frozen=True)
class Committed:
    """What HEAD holds: every run, and each suite's reference key."""

    git_dir: Path
    runs: tuple[Listed, ...]
    references: dict[tuple[str, str], str]


def committed(archive: Archive, sizes: Mapping[str, int]) -> Committed:
    """The runs and references of ``archive`` at HEAD. ``sizes`` are the bytes of the blobs
    a build before read (what the cache knows: a blob's bytes never change); git is asked for
    the others', one by one where they are few, else with the listing."""
    store = archive.store
    prefix = store.path(archive.layout.runs)
    runs: list[Listed] = []
    pointers: dict[tuple[str, str], str] = {}
    folder = archive.layout.shown(archive.layout.runs)
    top = str(store.top)
    entries = store.tree(prefix, sized=False)
    unknown = {e.sha for e in entries.values() if e.mode != SUBMODULE and e.sha not in sizes}
    found: Mapping[str, int] = {}
    if len(unknown) * 3 > len(entries):  # ``tree``'s sizes cost a third of ``sizes``'s
        entries = store.tree(prefix)
    elif unknown:
        found = store.sizes(unknown)
    safe: dict[str, bool] = {}  # the tenants' and suites' names, each asked once
    limits = archive.config.limits
    cut = len(prefix) + 1
    for path, (mode, blob, size) in sorted(entries.items()):
        shown = f"{folder}/{path[cut:]}"
        refuse_unless_file(mode, shown)
        parts = path[cut:].split("/")
        if len(parts) != 3:
            continue
        tenant, suite, name = parts
        if tenant not in safe or suite not in safe:
            safe[tenant], safe[suite] = unsafe(tenant) is None, unsafe(suite) is None
        if not (safe[tenant] and safe[suite]) or unsafe(name):
            continue
        size = size if size is not None else found.get(blob, sizes.get(blob))
        if name.endswith(".json"):
            refuse_if_larger(size, shown, limits)
            runs.append(Listed(tenant, suite, name[:-5], blob, shown, f"{top}/{path}", size or 0))
        elif name == BASELINE:
            refuse_if_larger(size, shown, limits)
            pointers[(tenant, suite)] = blob
    with Blobs(store.git_dir) as blobs:
        references = {
            suite: blobs.read(blob).decode("utf-8", errors="replace").strip()
            for suite, blob in pointers.items()
        }
    return Committed(store.git_dir, tuple(runs), references)


SUBMODULE = "160000"
"""The mode of a submodule's entry: a commit of another repository, whose size git cannot
give (``refuse_unless_file`` refuses it)."""


GIT_LIMITS = (
    "core.deltaBaseCacheLimit=8m",
    "core.packedGitLimit=4m",
    "core.packedGitWindowSize=512k",
)
"""What one ``git cat-file`` may hold while it reads a build's documents: 8 MiB of the delta
bases it inflated (git's default is 96 MiB, and with it a reader held 110 MiB after 16 of the
bench's documents, which are deltas of one another in a pack) and 4 MiB of windows on the packs
(git maps them whole by default: its map grew with the archive's packs). So one reader lasts a
whole build at 17 MiB, where a fresh one every 16 documents cost 1 ms a document to start."""


class Blobs:
    """Reads git objects by id through one ``git cat-file --batch``, started when first asked;
    a run's document from its working tree file where that file is the blob."""

    def __init__(self, git_dir: Path) -> None:
        self._git_dir = git_dir
        self._process: subprocess.Popen[bytes] | None = None

    def _started(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            limits = [part for limit in GIT_LIMITS for part in ("-c", limit)]
            self._process = subprocess.Popen(
                ["git", f"--git-dir={self._git_dir}", *limits, "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        return self._process

    def read(self, blob: str) -> bytes:
        process = self._started()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(f"{blob}\n".encode())
        process.stdin.flush()
        header = process.stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            raise ArchiveRefused(f"git cat-file: {blob} is not a blob of this repository")
        data = process.stdout.read(int(header[2]))
        process.stdout.read(1)
        return data

    def document(self, listed: Listed) -> bytes:
        """The bytes of ``listed``'s blob: its working tree file's where they are the blob's,
        git's where the file cannot be opened or read, or is another."""
        with suppress(OSError):
            descriptor = os.open(listed.file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            with os.fdopen(descriptor, "rb") as handle:
                status = os.fstat(descriptor)
                if stat.S_ISREG(status.st_mode) and status.st_size == listed.size:
                    data = handle.read(listed.size + 1)
                    if blob_id(data) == listed.blob:
                        return data
        return self.read(listed.blob)

    def close(self) -> None:
        if self._process is not None:
            if self._process.stdin:
                self._process.stdin.close()
            self._process.wait()
            self._process = None

    def __enter__(self) -> Blobs:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


_UTC_KEY = re.compile(r"(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)(?:-(\d{1,6}))?-00-00-[0-9a-f]{16}")
_CREATED_AT = re.compile(rb'"created_at"\s*:\s*"([^"\\]*)"')


def created_at(listed: Listed, blobs: Blobs) -> datetime:
    """When ``listed`` was measured, as an instant to order runs by, as cheaply as it can be
    known: from a key written in UTC (the key is ``created_at`` with its punctuation turned
    into ``-``, which keeps the offset's digits but not its sign), else from the document's
    one ``created_at``. The reading that follows checks it against the whole document."""
    found = _UTC_KEY.fullmatch(listed.key)
    if found:
        day, minute, second, fraction = found.groups()
        fraction = f".{fraction}" if fraction else ""
        return datetime.fromisoformat(f"{day}:{minute}:{second}{fraction}+00:00")
    data = blobs.document(listed)
    values = _CREATED_AT.findall(data)
    try:
        if len(values) == 1:
            moment: datetime | None = datetime.fromisoformat(values[0].decode())
        else:
            value = json.loads(data).get("created_at")
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except (ValueError, AttributeError):
        moment = None
    if moment is None or moment.tzinfo is None:
        raise DocumentRefused(
            "created_at", "not one ISO-8601 timestamp with its UTC offset"
        ).located(listed.path)
    return moment


def measured(head: Committed, cached: Mapping[str, str | None]) -> dict[str, datetime]:
    """When each run at ``head`` was measured, by blob id: as the cache knows it (``cached``,
    its ``created_at``, None where it does not), else as cheaply as it can be read."""
    moments = {}
    with Blobs(head.git_dir) as blobs:
        for listed in head.runs:
            entry = cached[listed.blob]
            moments[listed.blob] = (
                datetime.fromisoformat(entry) if entry else created_at(listed, blobs)
            )
    return moments


def check_moments(
    head: Committed, read: Mapping[str, str], moments: Mapping[str, datetime]
) -> None:
    """Each run was ordered by the moment its key says (``moments``); the document of each run
    ``read`` (its ``created_at``, by blob id) must say the same. (A run the cache knew was
    checked by the build that read it.)"""
    for listed in head.runs:
        if (
            listed.blob in read
            and datetime.fromisoformat(read[listed.blob]) != moments[listed.blob]
        ):
            raise DocumentRefused(
                "created_at", "not the moment its file name (the run key) says"
            ).located(listed.path)
