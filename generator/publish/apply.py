"""Putting a built site in place: one build at a time per folder, never a half-made site, and
never a file runsite did not write.

A build works in a staging folder beside ``--out`` and holds a lock beside it while it runs, so
two builds to one folder take turns. It builds only into a folder that is new, empty but for
what a publishing checkout holds (dot-files and folders, ``CNAME``), or a site runsite built,
known by its manifest's content. What that manifest lists is runsite's; anything else in the
folder is not, and no build replaces, removes or writes through it.

A full build's folder replaces the old site in one atomic exchange of the two names, where the
old folder holds runsite's files only (the old one is then removed whole). Otherwise, and in
an incremental build, each new or changed file is moved over its old copy (each replacement
atomic), new pages before the pages that link to them, and what no longer belongs is removed
last, each file only where its bytes are still those the manifest lists. Staging folders a
killed build left are removed by the next build.
"""

from __future__ import annotations

import ctypes
import fcntl
import glob
import os
import re
import secrets
import shutil
import stat
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace as replaced
from pathlib import Path

from generator.guard.kept import content_digest
from generator.publish.manifest import (
    GONE,
    MANIFEST,
    NO_PART,
    PARTS,
    Manifest,
    OutRefused,
    Part,
    part_path,
    regular_bytes,
)
from generator.site.labels import LOCALES


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


def _publishing(name: str) -> bool:
    """Whether a name at the top of a folder is one a publishing checkout holds besides its site
    (``.git``, ``.nojekyll``, ``CNAME``…): a name no site runsite builds has."""
    return (name.startswith(".") and name not in (MANIFEST, PARTS)) or name == "CNAME"


def _refuse_unbuilt(out: Path) -> None:
    """Refuse ``out`` where it holds anything but a publishing checkout's own names."""
    if os.path.lexists(out / MANIFEST):
        raise OutRefused(
            f"{out / MANIFEST}: not a manifest runsite wrote, so {out} is a folder runsite did "
            "not build; give --out an empty or new folder"
        )
    if not all(map(_publishing, os.listdir(out))):
        raise OutRefused(
            f"{out}: a folder runsite did not build; give --out an empty or new folder"
        )


@contextmanager
def building(out: Path, trusted: str) -> Iterator[tuple[Path, Manifest | None]]:
    """Hold ``out``'s lock and a fresh staging folder beside it for the length of a build; with
    them, the manifest of the site at ``out`` (None where there is none yet), ``trusted`` where
    its digest is that one (``Manifest.read``)."""
    if out.exists() and not out.is_dir():
        raise OutRefused(f"{out}: not a folder; give --out a folder")
    if out.is_dir() and not os.path.lexists(out / MANIFEST):
        _refuse_unbuilt(out)  # now, before a lock is made beside a folder that is not a site
    for folder in (out.parent, *out.parent.parents):
        if folder.exists() and not folder.is_dir():
            raise OutRefused(f"{folder}: not a folder, so --out {out} cannot be inside it")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        lock = os.open(out.parent / f".{out.name}.runsite-lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise OutRefused(
            f"{out}: a site cannot be written there ({error.strerror or error}); "
            "give --out a folder you can write to"
        ) from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        last = Manifest.read(
            out, trusted
        )  # under the lock: another build may have just made the site
        if last is None and out.is_dir():
            _refuse_unbuilt(out)
        _remove(_staging_folders(out))
        try:
            # Made inside the try: a Ctrl-C the moment the folder exists still has it removed.
            staging = out.parent / f"{_staging_prefix(out)}{secrets.token_hex(8)}"
            staging.mkdir(mode=0o700)
            yield staging, last
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


def place(
    built: Path, out: Path, last: Manifest | None, made: Manifest, placed: Collection[str]
) -> None:
    """Put the site ``made`` at ``out``, in place of the one ``last`` describes. ``placed``
    are the files this build wrote in ``built``, the manifest and its parts aside: every file
    of ``made`` in a full build. ``built`` holds the parts of ``made`` that ``last`` lacks (all
    of them in a full build).

    The parts both manifests hold (by name, so by content) list the same files, kept as they
    are: only the other parts are read. A full build is exchanged whole with the old folder
    where that holds runsite's files only, and none that goes has been altered: removing the
    old folder then takes nothing else. Otherwise the new parts go in first (unnamed by any
    manifest until the top file names them), then each file is moved over its old copy, once
    nothing that is not runsite's is found where one goes (refused, naming it, before
    anything moves), and a file that no longer belongs is removed only where its bytes are
    still those runsite wrote; the last site's parts go last. Where a file goes that the last
    manifest did not list, a manifest listing the files of both sites goes in first: a build
    stopped among the moves leaves every file of runsite's named there."""
    if not out.exists():
        built.rename(out)
        return
    whole = made.held.keys() >= set(made.parts.values()) and len(placed) == len(made.files)
    before = set(last.parts.values()) if last else set()
    shared = set() if whole else before & set(made.parts.values())
    making = made.entries(label for label, name in made.parts.items() if name not in shared)
    listed = last.entries(x for x, n in last.parts.items() if n not in shared) if last else NO_PART
    # A file placed of a part both hold was the last site's too (put back, altered by hand).
    again = [file for file in placed if file not in making.files]
    ours = {MANIFEST, *map(part_path, before), *listed.files, *again} if last else set()
    gone = {f: d for f, d in listed.files.items() if f not in making.files}
    kept = [file for file, digest in gone.items() if not _written(out, file, digest)]
    altered = [file for file in kept if os.path.lexists(out / file)]
    if whole and not altered and _only(out, ours):
        _put_whole(built, out)
        return
    parts = [part_path(name) for name in made.parts.values() if name not in before]
    interim = built.parent / "interim"
    if gone and not ours.issuperset(placed):
        goes = Part(gone, {}).data()
        parts.append(part_path(content_digest(goes)))
        (built / parts[-1]).parent.mkdir(exist_ok=True)
        (built / parts[-1]).write_bytes(goes)
        interim.write_bytes(replaced(made, parts={**made.parts, GONE: content_digest(goes)}).data())
    blocking = _in_the_way(out, {*ours, *parts}, [MANIFEST, *parts, *placed])
    if blocking is not None:
        raise OutRefused(
            f"{blocking}: in the way of a file of the site, and not one runsite wrote; "
            "move it, or give --out another folder"
        )
    for part in parts:  # unnamed until a top file names them
        (out / PARTS).mkdir(exist_ok=True)
        os.replace(built / part, out / part)
    if not ours.issuperset(placed):
        if not gone:  # the new manifest itself, by a second name (its move then does nothing)
            try:
                os.link(built / MANIFEST, interim)
            except OSError:  # a filesystem without hard links: a copy
                shutil.copyfile(built / MANIFEST, interim)
        os.replace(interim, out / MANIFEST)
    update(built, out, [MANIFEST, *placed], [file for file in gone if file not in kept])
    _remove_parts(out, set(made.parts.values()))


def _remove_parts(out: Path, named: Collection[str]) -> None:
    """Remove the parts in ``out`` its manifest does not name (``named``): those of the last
    site, an interim one's, and those a stopped build left; each only where it is a part, a
    file whose bytes are those its name is the digest of."""
    try:
        names = os.listdir(out / PARTS)
    except OSError:
        return
    for name in names:
        if name in named:
            continue
        data = regular_bytes(out / PARTS / name)
        if data is not None and content_digest(data) == name:
            (out / PARTS / name).unlink(missing_ok=True)


def _written(out: Path, file: str, digest: str) -> bool:
    """Whether ``file`` of ``out`` holds bytes of content digest ``digest``, reached through
    folders only (no link followed out of ``out``)."""
    folder = out
    for part in file.split("/")[:-1]:
        folder = folder / part
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return False
        except FileNotFoundError:
            return False
    data = regular_bytes(out / file)
    return data is not None and content_digest(data) == digest


def _only(out: Path, ours: Collection[str]) -> bool:
    """Whether every file, link or other thing under ``out`` is one of ``ours`` (folders
    aside): nothing there that an exchange would take away with the old site."""
    prefix = len(str(out)) + 1
    unread: list[OSError] = []
    for folder, folders, names in os.walk(out, onerror=unread.append):
        here = folder[prefix:] + "/" if len(folder) >= prefix else ""
        if any(os.path.islink(os.path.join(folder, name)) for name in folders):
            return False  # a link to a folder, which the walk lists among folders
        if any(here + name not in ours for name in names):
            return False
    return not unread  # a folder it could not list may hold anything


def _in_the_way(out: Path, ours: Collection[str], files: Iterable[str]) -> Path | None:
    """The first thing under ``out`` that is not runsite's and stands where a file of
    ``files`` goes: something other than a folder where the file's folders are, or anything
    where the file is that is not one of ``ours``, or is a folder."""
    folders: set[str] = set()
    for file in sorted(files):
        parts = file.split("/")
        for n in range(1, len(parts)):
            folder = "/".join(parts[:n])
            if folder in folders:
                continue
            try:
                mode = os.lstat(out / folder).st_mode
            except FileNotFoundError:
                break
            if not stat.S_ISDIR(mode):
                return out / folder
            folders.add(folder)
        try:
            mode = os.lstat(out / file).st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue
        if file not in ours or stat.S_ISDIR(mode):
            return out / file
    return None


def _put_whole(built: Path, out: Path) -> None:
    """Put the whole site ``built`` at ``out`` in place of the old one, and remove that."""
    if _exchange(built, out):
        shutil.rmtree(built)
    else:
        old = built.with_name(built.name + ".old")
        out.rename(old)
        built.rename(out)
        shutil.rmtree(old)


def _rank(file: str) -> int:
    """Run and comparison pages and blocks of older runs first, the pages that link to them
    next, the manifest last."""
    if file == MANIFEST:
        return 2
    parts = file.split("/")
    parts = parts[1:] if parts[0] in LOCALES else parts
    older = len(parts) == 6 and parts[0] == "suites" and parts[3] == "older"
    return 0 if older or parts[0] in ("runs", "diffs") else 1


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
