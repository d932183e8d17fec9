"""The manifest each built site holds: what its files were made from, and which are runsite's.

Its top file (``MANIFEST``) names the digests the site's shells were made from, every run the
site was built from (and scanned against), and its parts: the pages of each block of runs
(``plan.Block``) in a part of their own, labelled with the block's key, and the site's other
files (home and suite pages, mkdocs' files, assets) in one more (``REST``). A part is a file in
``PARTS``, named by the SHA-256 of its bytes, and lists files, each with the SHA-256 of its
bytes, and each page's body digest. So a rebuild after one run reads the top and the parts of
the blocks that moved, and writes those anew: as one file, the 40,000 files' digests of a
10,000-run site (14 MB) were read, made, written and hashed again at every rebuild, 0.13 s of
it.

Read as ``Manifest.read`` reads it, the manifest marks a folder runsite built, and names the
only files there runsite may replace or remove. A manifest of one file, as runsite wrote them
before its parts, is read as one whose files are all in one part.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jiter
import orjson

from generator.errors import Refused
from generator.guard.kept import content_digest
from generator.site.labels import LOCALES

MANIFEST = ".runsite-site"
"""The manifest's top file, at the top of the site."""
PARTS = ".runsite-parts"
"""The folder beside it that holds its parts."""
REST = "rest"
"""The label of the part of the files no block holds."""
GONE = "gone"
"""The label of the part an interim manifest adds of the last site's files the new one drops
(``apply.place``)."""

LAYOUT = frozenset(
    {
        *("index.html", "404.html", "sitemap.xml", "sitemap.xml.gz", "assets", "search"),
        *("runs", "suites", "diffs", "boards", "cases", "javascripts", "stylesheets", "images"),
    }
)
"""The names at the top of a site runsite builds, and of each other language's folder: what
mkdocs-material writes, the folders of run, suite, comparison, board and case pages, and
runsite's and the user's assets. A manifest that lists a file anywhere else is not one runsite
wrote."""

_HEX = re.compile("[0-9a-f]*")
_BLOBS = re.compile("(?:[0-9a-f]{40}\n|[0-9a-f]{64}\n)*")
"""Git object ids, each on a line of its own: SHA-1, or SHA-256 in a repository of that
format (tested on them all joined, as a manifest holds thousands)."""
_TOP = ("captured", "parts", "runs", "shells")
_WHOLE = ("bodies", "captured", "files", "runs", "shells")
"""The keys of a manifest of one file, as runsite wrote them before its parts."""
_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE


class OutRefused(Refused):
    """The site cannot be put where it was asked to go; nothing was published."""


@dataclass(frozen=True)
class Part:
    """Some files of a site, each with its SHA-256, and the body digest of each page of them."""

    files: Mapping[str, str]
    bodies: Mapping[str, str]

    def data(self) -> bytes:
        """The part's file: compact JSON, keys sorted (orjson writes the bytes of the stdlib's
        sorted compact JSON, 13 times faster)."""
        return orjson.dumps({"bodies": self.bodies, "files": self.files}, option=_SORTED)


NO_PART = Part({}, {})


def part_path(name: str) -> str:
    """The part named ``name``'s file, relative to the site."""
    return f"{PARTS}/{name}"


@dataclass
class Manifest:
    """What a build made: the digests it worked from, the runs, and the parts by label."""

    shells: str = ""
    """The digest of everything a shell is made of."""
    captured: str = ""
    """The digest of the shells themselves, as the theme rendered them."""
    runs: list[str] = field(default_factory=list)
    """The blob id of every run the site was built from (and scanned against)."""
    parts: dict[str, str] = field(default_factory=dict)
    """Each part's name (its file's SHA-256) by its label: a block's key, or ``REST``."""
    digest: str = field(default="", compare=False)
    """The SHA-256 of the top file, as ``read`` found it: what names the site it describes
    (``guard.windows``)."""
    site: Path | None = field(default=None, compare=False, repr=False)
    """Where its parts are read from, when asked for."""
    held: dict[str, Part] = field(default_factory=dict, compare=False, repr=False)
    """The parts read, by name."""

    @classmethod
    def read(cls, out: Path, trusted: str = "") -> Manifest | None:
        """The manifest of the site at ``out``, or None where there is none runsite wrote.

        Known by its content, not by its name: the shape ``data`` writes, every part there and
        named by its bytes' digest, every digest a SHA-256, every file a plain path inside the
        site's ``LAYOUT`` (no ``..``, no absolute path, nothing under a dot-folder) listed by
        one part only, every body a file's. A file of that name planted in a folder, empty or
        listing files a site does not hold, does not make it a site. A top file whose digest
        is ``trusted`` (the one runsite's cache says it put there) is taken as the manifest it
        wrote without that test, and its parts are read when asked for (``part``).

        Parsed by jiter (12 ms for 14 MB, where the stdlib's parser took 30); a key written
        twice, or text that is not UTF-8, makes it no manifest."""
        data = regular_bytes(out / MANIFEST)
        found = _json(data)
        if data is None or not isinstance(found, dict):
            return None
        digest = content_digest(data)
        if found.keys() not in ({*_WHOLE}, {*_TOP}):
            return None
        shells, captured, runs = found["shells"], found["captured"], found["runs"]
        parts = found.get("parts")
        if parts is None:  # a manifest of one file
            files, bodies = found["files"], found["bodies"]
            if not (isinstance(files, dict) and isinstance(bodies, dict)):
                return None
            whole = {"": Part(files, bodies)}
            made = cls(shells, captured, runs, {REST: ""}, digest, out, whole)
        elif isinstance(parts, dict) and _digests(parts.values()):
            made = cls(shells, captured, runs, parts, digest, out)
        else:
            return None
        if digest != trusted and not made._valid():
            return None
        return made

    def _valid(self) -> bool:
        """Whether it is one runsite wrote (``read``), every part read and tested."""
        runs = self.runs
        if not (
            _digests([self.shells, self.captured])
            and isinstance(runs, list)
            and all(isinstance(run, str) and len(run) in (40, 64) for run in runs)
            and _BLOBS.fullmatch("".join(f"{run}\n" for run in runs)) is not None
        ):
            return False
        files: dict[str, str] = {}
        for name in self.parts.values():
            part = self._read_part(name)
            if part is None or not part.files.keys().isdisjoint(files):
                return False
            files.update(part.files)
            if not all(file in part.files for file in part.bodies):
                return False
        everything = self.entries(self.parts)
        return (
            _site_files(everything.files)
            and _digests(everything.files.values())
            and _digests(everything.bodies.values())
        )

    def _read_part(self, name: str) -> Part | None:
        """The part named ``name``, read once; None where its file is not one of that digest
        holding a part's shape."""
        if name in self.held:
            return self.held[name]
        assert self.site is not None, "a manifest read from a site"
        data = regular_bytes(self.site / PARTS / name)
        if data is None or content_digest(data) != name:
            return None
        found = _json(data)
        if not (
            isinstance(found, dict)
            and found.keys() == {"bodies", "files"}
            and isinstance(found["files"], dict)
            and isinstance(found["bodies"], dict)
        ):
            return None
        self.held[name] = Part(found["files"], found["bodies"])
        return self.held[name]

    def part(self, label: str) -> Part:
        """The part labelled ``label``; refused, naming its file, where it is gone or altered
        (a part of a manifest read as trusted is read and tested only now)."""
        name = self.parts[label]
        part = self._read_part(name)
        if part is None:
            assert self.site is not None
            raise OutRefused(
                f"{self.site / PARTS / name}: gone or altered, so which files of {self.site} "
                "are runsite's is not known; give --out an empty or new folder"
            )
        return part

    def entries(self, labels: Iterable[str]) -> Part:
        """The parts labelled ``labels`` as one."""
        files: dict[str, str] = {}
        bodies: dict[str, str] = {}
        for label in labels:
            part = self.part(label)
            files.update(part.files)
            bodies.update(part.bodies)
        return Part(files, bodies)

    @property
    def files(self) -> Mapping[str, str]:
        """Every file of the site, each with its SHA-256."""
        return self.entries(self.parts).files

    @property
    def bodies(self) -> Mapping[str, str]:
        """Every run or comparison page's file, each with its body digest."""
        return self.entries(self.parts).bodies

    def listing(self) -> list[tuple[str, str]]:
        """The files that list the site's files, each with its digest, as it was read: its
        parts, or its top file where it has none."""
        if self.parts == {REST: ""}:
            return [(MANIFEST, self.digest)]
        return [(part_path(name), name) for name in self.parts.values()]

    def data(self) -> bytes:
        """The top file: compact JSON, keys sorted."""
        top = {
            "shells": self.shells,
            "captured": self.captured,
            "runs": sorted(self.runs),
            "parts": self.parts,
        }
        return orjson.dumps(top, option=_SORTED)


def _json(data: bytes | None) -> Any:
    """``data`` parsed, or None where it is not JSON (or nested past the parser's depth)."""
    if data is None:
        return None
    try:
        return jiter.from_json(data, cache_mode="none")
    except ValueError:
        return None


def _digests(values: Collection[object]) -> bool:
    """Whether every one of ``values`` is a SHA-256 in hex: tested on them all joined, as a
    manifest holds tens of thousands."""
    hexes = [value for value in values if isinstance(value, str) and len(value) == 64]
    return len(hexes) == len(values) and _HEX.fullmatch("".join(hexes)) is not None


def _site_files(files: Collection[str]) -> bool:
    """Whether every one of ``files`` is a path a site runsite builds may hold: relative,
    normalised, no part empty or a dot-name (nor ``..``), and under a name of its ``LAYOUT``
    or of a language's folder's."""
    joined = "\n/" + "\n/".join(files) + "\n"
    if "/." in joined or "//" in joined or "/\n" in joined or "\0" in joined:
        return False
    tops = (file.split("/", 2) for file in files)
    return all((top[1] if top[0] in LOCALES and len(top) > 1 else top[0]) in LAYOUT for top in tops)


def regular_bytes(path: Path) -> bytes | None:
    """The bytes of the regular file at ``path``; None for anything else there (nothing, a
    folder, a link, which is not followed, a FIFO, which is not waited on)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        with open(handle, "rb", closefd=False) as opened:
            return opened.read()
    except OSError:
        return None
    finally:
        os.close(handle)
