"""Which names a new run may bring into ``runs/``: names every file system keeps as they are, and
none that is, or looks like, a name already there.

A tenant, a suite and a run key name folders and files in the archive and in its site, on the
machine of whoever clones or builds them: a Linux server, a laptop whose file system ignores
case and normalises Unicode, a Windows runner, an object store. So the door refuses a name one of
them would not keep as written (a device name such as ``CON``, a character Windows forbids, a dot
or space at the end, a form Unicode composes differently), a name that mixes scripts as a
look-alike does (UTS #39's highly restrictive level), and a name that is another one already
there once case is folded and Unicode normalised (``Support`` beside ``support``), or once each
character is taken to the one it looks like (Unicode's confusables: Cyrillic ``ѕ`` for Latin
``s``). Each tenant is compared with the tenants, each suite with its tenant's suites, each key
with its suite's keys. Names archived before these rules stay as they are: the rules are the
door's, and the site builds them as it always did.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from generator.archive.layout import unsafe

_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$"}
    | {f"{port}{n}" for port in ("COM", "LPT") for n in "0123456789¹²³"}
)
"""Names Windows takes for a device, whatever follows a dot: ``con.txt`` is the console too."""

_FORBIDDEN = '<>:"|?*'
"""Characters Windows refuses in a file name (the slashes, and controls, are refused anyway)."""

_SHARED = frozenset({"COMMON", "INHERITED"})
"""Scripts whose characters (digits, punctuation, combining marks) go with any script."""

_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""Scripts one name may mix under UTS #39's highly restrictive level: Japanese, Chinese and
Korean as they are written, with Latin."""


def unfit(name: str) -> str | None:
    """Why ``name`` cannot name a folder or file of ``runs/`` on every machine, as a refusal
    says it (``layout.unsafe``, then ``unportable``); None if it can."""
    problem = unsafe(name) or unportable(name)
    return f"cannot name a folder in runs/: {problem}" if problem else None


def unportable(name: str) -> str | None:
    """Why ``name`` would not be kept as written on every file system, or would read as another
    name, or None. Said without quoting the name, which may be a customer's."""
    if name.split(".")[0].rstrip(" ").upper() in _DEVICES:
        return "a device name on Windows (CON, PRN, AUX, NUL, COM1, LPT1...), with or without a dot"
    forbidden = next((c for c in name if c in _FORBIDDEN), None)
    if forbidden:
        return f"holds {forbidden}, which Windows refuses in a file name"
    if name.endswith("."):
        return "ends with a dot, which Windows drops from a file name"
    if name != name.strip():
        return "starts or ends with a space, which reads as the name without it"
    if not unicodedata.is_normalized("NFC", name):
        return "not in Unicode's composed form (NFC), which macOS and git there give file names"
    scripts = sorted(_scripts(name))
    if len(scripts) > 1 and not any(set(scripts) <= allowed for allowed in _TOGETHER):
        return f"mixes scripts ({' and '.join(s.title() for s in scripts)}), as a look-alike does"
    return None


def _scripts(name: str) -> set[str]:
    from confusable_homoglyphs import categories  # its data, only where a name arrives

    return {categories.alias(c) for c in name} - _SHARED


def folded(name: str) -> str:
    """``name`` as a file system that ignores case and normalises Unicode compares it: the full
    case folding of its decomposed upper case (``ß`` is ``ss``, dotless ``ı`` is ``i`` as
    Windows has it, Kelvin's K is k), composed again."""
    upper = unicodedata.normalize("NFD", name).upper()
    return unicodedata.normalize("NFC", upper.casefold())


def skeleton(name: str) -> str:
    """What ``name`` looks like: UTS #39's skeleton, each character taken to the prototype
    Unicode's confusables give it, so that names a reader cannot tell apart have one skeleton.
    Case is kept: ``support`` and ``Support`` look different, and ``folded`` finds them."""
    prototype = _prototypes()
    decomposed = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(prototype.get(c, c) for c in decomposed))


_MARK = "\u200e"
"""The left-to-right mark the library's data wraps right-to-left characters in, for display."""


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from the library's table (which lists, for each
    prototype, the characters taken to it, and for each of those, its prototype)."""
    table = {
        key.strip(_MARK): [h["c"].strip(_MARK) for h in found]
        for key, found in _confusables().items()
    }
    prototype: dict[str, str] = {}
    for key, found in table.items():
        if len(key) > 1 or len(found) > 1:
            prototype.update((source, key) for source in found if len(source) == 1)
        elif len(found[0]) > 1 or len(table.get(found[0], ())) > 1:
            prototype[key] = found[0]
        else:
            # A prototype with a single look-alike lists it as the look-alike lists it: either
            # way, both are taken to one of them.
            prototype[max(key, found[0])] = min(key, found[0])
    return prototype


def _confusables() -> dict[str, list[dict[str, str]]]:
    """Unicode's confusables as the library holds them, loaded only where a name arrives."""
    from confusable_homoglyphs import confusables

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    return data


Place = tuple[str, ...]
"""A folder of ``runs/`` as the names above it: () for the tenants, (tenant,) for its suites,
(tenant, suite) for its runs."""


@dataclass
class _Folder:
    """The names in one folder, and by their folded form and skeleton, how each is shown."""

    names: set[str] = field(default_factory=set)
    by_fold: dict[str, str] = field(default_factory=dict)
    by_look: dict[str, str] = field(default_factory=dict)


class Taken:
    """The names taken in each folder of ``runs/``, each with what names it to a reader (the
    path of the archived folder or file, or the file a document of this batch came from)."""

    def __init__(self, tracked: Iterable[str], runs: str) -> None:
        """``tracked``: every path tracked under ``runs``, the folder's path as git has it."""
        self._listed: dict[Place, dict[str, str]] = {}
        for path in tracked:
            parts = path.removeprefix(f"{runs}/").split("/")
            if len(parts) != 3:
                continue
            tenant, suite, file = parts
            self._listed.setdefault((), {}).setdefault(tenant, f"runs/{tenant}/")
            self._listed.setdefault((tenant,), {}).setdefault(suite, f"runs/{tenant}/{suite}/")
            if file.endswith(".json"):
                key = file.removesuffix(".json")
                self._listed.setdefault((tenant, suite), {})[key] = f"runs/{'/'.join(parts)}"
        self._folders: dict[Place, _Folder] = {}

    def clash(self, place: Place, name: str) -> str | None:
        """Why ``name`` may not join the folder ``place``: the name there that it is on a file
        system ignoring case, or that it looks like; None if it is free or already there."""
        folder = self._folder(place)
        if name in folder.names:
            return None
        same = folder.by_fold.get(folded(name))
        if same is not None:
            return f"{same} is the same name once case and Unicode are folded"
        alike = folder.by_look.get(skeleton(name))
        if alike is not None:
            return f"{alike} looks the same (Unicode's confusables)"
        return None

    def take(self, place: Place, name: str, shown: str) -> None:
        """Count ``name`` as in ``place``, named to a reader as ``shown``."""
        self._add(self._folder(place), name, shown)

    def _folder(self, place: Place) -> _Folder:
        folder = self._folders.get(place)
        if folder is None:
            folder = self._folders[place] = _Folder()
            for name, shown in sorted(self._listed.get(place, {}).items()):
                self._add(folder, name, shown)
        return folder

    @staticmethod
    def _add(folder: _Folder, name: str, shown: str) -> None:
        if name in folder.names:
            return
        folder.names.add(name)
        folder.by_fold.setdefault(folded(name), shown)
        folder.by_look.setdefault(skeleton(name), shown)
