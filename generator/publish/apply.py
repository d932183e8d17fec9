"""Putting a built site in place: one build at a time per folder, and never a half-made site.

A build works in a staging folder beside ``--out`` and holds a lock beside it while it runs, so
two builds to one folder take turns. A full build's folder replaces the old site in one atomic
exchange of the two names; an incremental one moves each new or changed file over its old
copy (each replacement atomic), new pages before the pages that link to them, and removes what
no longer belongs last. Staging folders a killed build left are removed by the next build.
"""

from __future__ import annotations

import ctypes
import fcntl
import glob
import os
import re
import secrets
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import Refused
from generator.publish.plan import MANIFEST


class SiteRefused(Refused):
    """The site cannot be put where it was asked to go; nothing was published."""


def _staging_prefix(out: Path) -> str:
    return f".runsite-{out.name}-"


_STAGED = re.compile("[0-9a-f]{16}|[a-z0-9_]{8}")
"""What follows the prefix in a staging folder's name (16 hex digits; 8 letters, digits or
``_`` where an earlier build named it with ``tempfile``), never a ``-``: so the staging folder of
``public-x`` (``.runsite-public-x-…``), beside ``public``, is never taken for one of
``public``'s, whose build would remove it under its own lock, not the lock of ``public-x``."""


def _staging_folders(out: Path) -> list[Path]:
    """The staging folders of builds of ``out``: this build's, and those a killed one left."""
    prefix = _staging_prefix(out)
    return [
        folder
        for folder in out.parent.glob(f"{glob.escape(prefix)}*")
        if _STAGED.fullmatch(folder.name.removeprefix(prefix))
    ]


@contextmanager
def building(out: Path) -> Iterator[Path]:
    """Hold ``out``'s lock and a fresh staging folder beside it for the length of a build."""
    if out.exists() and not out.is_dir():
        raise SiteRefused(f"{out}: not a folder; give --out a folder")
    if out.is_dir() and not (out / MANIFEST).is_file() and any(out.iterdir()):
        raise SiteRefused(
            f"{out}: a folder runsite did not build; give --out an empty or new folder"
        )
    for folder in (out.parent, *out.parent.parents):
        if folder.exists() and not folder.is_dir():
            raise SiteRefused(f"{folder}: not a folder, so --out {out} cannot be inside it")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        lock = os.open(out.parent / f".{out.name}.runsite-lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise SiteRefused(
            f"{out}: a site cannot be written there ({error.strerror or error}); "
            "give --out a folder you can write to"
        ) from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _remove(_staging_folders(out))
        try:
            # Made inside the try: a Ctrl-C the moment the folder exists still has it removed.
            staging = out.parent / f"{_staging_prefix(out)}{secrets.token_hex(8)}"
            staging.mkdir(mode=0o700)
            yield staging
        finally:
            _remove(_staging_folders(out))
    finally:
        os.close(lock)


def _remove(folders: Iterable[Path]) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one atomic step (Linux's ``renameat2``); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    done = renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange)
    return bool(done == 0)


def replace(built: Path, out: Path) -> None:
    """Put the whole site ``built`` at ``out`` in place of whatever site was there."""
    if not out.exists():
        built.rename(out)
    elif _exchange(built, out):
        shutil.rmtree(built)
    else:
        old = built.with_name(built.name + ".old")
        out.rename(old)
        built.rename(out)
        shutil.rmtree(old)


def _rank(file: str) -> int:
    """Run and comparison pages first, the pages that link to them next, the manifest last."""
    if file == MANIFEST:
        return 2
    return 0 if "/runs/" in f"/{file}" or "/diffs/" in f"/{file}" else 1


def update(built: Path, out: Path, files: Iterable[str], gone: Iterable[str]) -> None:
    """Move ``files`` (relative paths) from ``built`` over their copies in ``out``, then remove
    ``gone``: pages before the pages that list them, the manifest last."""
    for file in sorted(files, key=lambda file: (_rank(file), file)):
        target = out / file
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(built / file, target)
    for file in sorted(gone):
        (out / file).unlink(missing_ok=True)
        folder = (out / file).parent
        while folder != out and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
