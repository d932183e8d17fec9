"""Where things live in an archive, and which names may become folders.

An archive is a folder with a ``runsite.toml`` and a ``runs/`` folder inside a git working tree:

    runsite.toml                         the site's name and language, and the disclosure
    runs/<tenant>/<suite>/<key>.json     one run document, its original bytes
    runs/<tenant>/<suite>/baseline       the key of the suite's reference run, on one line

File names come from the run's identity, so there is no index to fall out of step. A run key
always starts with the year's digits, so ``baseline`` can never be a run's file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator.document.values import hidden_character
from generator.errors import ArchiveRefused

CONFIG = "runsite.toml"
RUNS = "runs"
BASELINE = "baseline"
KEEP = ".gitkeep"
"""Holds ``runs/`` in git before the first run arrives."""

_LONGEST_NAME = 255
"""Bytes a file name may have on the common file systems."""

_PLAIN = re.compile("[0-9A-Za-z_+-][0-9A-Za-z_.+-]*")
"""Names of ASCII letters, digits and ``_.+-`` that do not start with a dot: safe."""


@dataclass(frozen=True)
class Layout:
    """The paths of one archive, from its root folder."""

    root: Path

    @property
    def config(self) -> Path:
        return self.root / CONFIG

    @property
    def runs(self) -> Path:
        return self.root / RUNS

    def run(self, tenant: str, suite: str, key: str) -> Path:
        return self.runs / tenant / suite / f"{key}.json"

    def baseline(self, tenant: str, suite: str) -> Path:
        return self.runs / tenant / suite / BASELINE

    def shown(self, path: Path) -> str:
        """``path`` as messages and listings name it: relative to the root."""
        return path.relative_to(self.root).as_posix()


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` holding a ``runsite.toml``, as git finds .git."""
    for folder in (start, *start.parents):
        if (folder / CONFIG).is_file():
            return folder
    raise ArchiveRefused(
        f"{start}: no {CONFIG} here or in any folder above; runsite init makes an archive"
    )


def checked_root(root: Path) -> Path:
    """``root``, if it is an archive."""
    if not (root / CONFIG).is_file():
        raise ArchiveRefused(f"{root}: no {CONFIG}; runsite init {root} makes it an archive")
    return root


def unsafe(name: str) -> str | None:
    """Why ``name`` cannot be a folder or file name inside ``runs/``, or None if it can.

    The reason describes the name without quoting it: a tenant may be a customer's name.
    """
    if len(name) <= _LONGEST_NAME and _PLAIN.fullmatch(name):
        return None  # the names of nearly every run: told in a fifth of the time the rest takes
    if not name:
        return "empty"
    if name in (".", ".."):
        return "a reference to a folder, not a name"
    if "/" in name or "\\" in name:
        return "contains a path separator"
    if name.startswith("."):
        return "starts with a dot"
    code = hidden_character(name)
    if code is not None:
        return f"contains an invisible or control character ({code})"
    if len(name.encode("utf-8")) > _LONGEST_NAME:
        return f"longer than {_LONGEST_NAME} bytes"
    return None
