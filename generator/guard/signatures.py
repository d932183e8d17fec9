"""What a build records of the files it leaves in place, so that the next build's check of the
kept pages (``guard.kept``) takes a file for what this one left without reading it: its
signature, and the digest it had then.

Every change to a file moves its change time (``st_ctime``), which nobody can set back but the
system's clock, to the moment of the change; so a file's device, inode, size and times stand
for its bytes from the moment the build knew them until it changes (``sign``). The check holds
one for every file of the site, 40,000 at 10,000 runs, so each is packed in 72 bytes.
"""

from __future__ import annotations

import os
import pickle
import stat
import struct
from collections.abc import Mapping
from pathlib import Path

_SIGNATURE = struct.Struct("<QQQqq")

Signature = bytes
"""What tells that a file changed without reading it: its device and inode, its size, and its
modify and change times, packed (``_SIGNATURE``)."""

DIGEST = 32
"""The bytes of a content digest, raw."""

Signed = dict[str, bytes]
"""The files a build left in place that the next build need not read: each one's digest then
(raw: ``DIGEST`` bytes) followed by its signature. Packed in 72 bytes, as the check holds one
for every file of the site: 40,000 at 10,000 runs took 22 MiB as a tuple of ints and a hex
string each, 9 so."""


def signature(status: os.stat_result) -> Signature:
    """The signature of the file ``status`` describes."""
    return _SIGNATURE.pack(
        status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns
    )


def _changed(signed: bytes) -> int:
    """When the file ``signed`` stands for last changed (its ``st_ctime_ns``)."""
    changed: int = _SIGNATURE.unpack_from(signed, DIGEST)[4]
    return changed


def sign(
    site: Path,
    placed: Mapping[str, str],
    staged: int,
    seen: Signed,
    started: int,
) -> Signed:
    """The files of a site just put in place that the next build may take for what this one
    left without reading them: those whose signature can only be theirs as long as they are
    unchanged.

    Every change to a file moves its change time (``st_ctime``), which nobody can set back
    but the system's clock, to the moment of the change. So a file whose change time is
    earlier than a moment this build knew the file as written is unchanged since, and any later
    change gives it another signature. A file this build ``placed`` (each with its digest) was
    written in its private staging folder before the manifest was (``staged``: that file's
    change time, from the same clock). A file it kept was found as written by its check, with
    the signature it had then (``seen``: those of the new site it did not place), and must not
    have changed since the build began (``started``). Strictly earlier, as a filesystem whose
    times are coarse gives a change made just after that moment the same time; the few files
    that leaves unsigned are read next time, as every file of a site restored from a copy
    is."""
    signed: Signed = {}
    for file, digest in placed.items():
        try:
            status = os.lstat(site / file)
        except OSError:
            continue
        if stat.S_ISREG(status.st_mode) and status.st_ctime_ns < staged:
            signed[file] = bytes.fromhex(digest) + signature(status)
    for file, found in seen.items():
        if _changed(found) < started:
            signed[file] = found
    return signed


def recorded(path: Path | None) -> Signed:
    """The signatures kept at ``path``, and those kept since beside it (``.delta``, each in
    place of an earlier one: ``RunCache.keep_signatures``). A signature stands for its file
    only while the file is unchanged, so a stale one, kept or not, is never taken for a file
    that changed."""
    if path is None:
        return {}
    return read_signed(path) | read_signed(path.with_suffix(".delta"))


def read_signed(path: Path) -> Signed:
    """The signatures in the file at ``path``; none where there are none to read (a cache lost
    costs only time)."""
    try:
        signed: Signed = pickle.loads(path.read_bytes())
    except Exception:  # gone, cut short, or not a record: anything unpickling raises
        return {}
    return signed if isinstance(signed, dict) else {}


def known(files: Mapping[str, str], signed: Signed) -> dict[str, bytes]:
    """What a check goes on for each of ``files`` (by the digest the manifest gives it, in hex):
    that digest, raw, with the signature the last build ``signed`` the file with where it
    signed it with this digest (the ``Signed`` value itself, not a copy)."""
    found = {}
    for file, digest in files.items():
        raw = bytes.fromhex(digest)
        kept = signed.get(file)
        found[file] = kept if kept is not None and kept[:DIGEST] == raw else raw
    return found
