"""The build's last check: no output file carries a payload string, in any form a page uses.

``scan`` searches every file under the built site (decompressing ``.gz``) for every payload
string of the documents the build read, and returns each (file, field) it found. Pages carry a
string escaped: HTML text and attributes (``html.escape`` and Jinja's ``&#34;``/``&#39;``), JSON
(the search index, with and without ``ensure_ascii``), and JSON inside a ``<script>`` (Jinja's
``tojson`` escapes ``<>&'``), so each string is sought in every one of those forms. Files are
searched as the UTF-8 bytes the site writes, without decoding, so an image or a font is
searched too, at no extra cost.

At the scale of an archive (about 60 MB of pages against half a million strings) a search per
string is out of the question, so one Aho–Corasick automaton finds them all in a single pass
per file. Its keys are each form's first ``KEY_BYTES`` bytes, which bounds the automaton's size
however long the outputs are; a key found is then confirmed against the whole form in place.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring, encode_basestring_ascii
from pathlib import Path

from ahocorasick_rs import BytesAhoCorasick

KEY_BYTES = 16
"""How much of each form the automaton holds; the rest is checked where the key is found."""

_PLAIN = re.compile(r"[^&<>\"'\\\x00-\x1f]*")
"""A string no escaping changes: it has one form only."""


def _jinja_html(text: str) -> str:
    """How Jinja's autoescape (markupsafe) writes text into HTML."""
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&#34;")):
        text = text.replace(char, entity)
    return text.replace("'", "&#39;")


def _jinja_script(as_json: str) -> str:
    """How Jinja's ``tojson`` writes JSON into a ``<script>``: no ``<>&'`` left to close it."""
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        as_json = as_json.replace(char, escape)
    return as_json.replace("'", "\\u0027")


@dataclass(frozen=True, order=True)
class Leak:
    """A payload string found in an output file."""

    file: str
    """The file, relative to the scanned folder, with ``/`` separators."""
    field: str
    """Where the string came from in the full document."""


def carried_forms(string: str) -> set[str]:
    """``string`` as a page may carry it: raw, HTML-escaped, JSON-escaped, and both at once."""
    if string.isascii() and _PLAIN.fullmatch(string):
        return {string}
    marked_up = {
        string,
        html.escape(string),
        html.escape(string, quote=False),
        _jinja_html(string),
    }
    as_json = {encode_basestring(text)[1:-1] for text in marked_up}
    as_json |= {encode_basestring_ascii(text)[1:-1] for text in marked_up}
    return marked_up | as_json | {_jinja_script(encode_basestring_ascii(string)[1:-1])}


class Sought:
    """Payload strings compiled for search: one automaton over the first bytes of every form.

    Escaping maps each character on its own, so a form's first ``KEY_BYTES`` bytes are those of
    the form of the string's first ``KEY_BYTES`` characters: the keys cost a short string each,
    and the whole forms are made only for the few strings whose key a file carries.
    """

    def __init__(self, payload: Mapping[str, str]) -> None:
        by_key: dict[bytes, list[tuple[str, str]]] = {}
        for string, field in payload.items():
            for key in {head.encode()[:KEY_BYTES] for head in carried_forms(string[:KEY_BYTES])}:
                by_key.setdefault(key, []).append((string, field))
        self._candidates = list(by_key.values())
        self._automaton = BytesAhoCorasick(list(by_key)) if by_key else None
        self._forms: dict[str, list[bytes]] = {}

    def fields_in(self, data: bytes) -> set[str]:
        """The fields of every payload string that ``data`` carries."""
        if self._automaton is None:
            return set()
        found: set[str] = set()
        for index, start, _ in self._automaton.find_matches_as_indexes(data, overlapping=True):
            for string, field in self._candidates[index]:
                if field not in found and any(
                    data.startswith(form, start) for form in self._whole(string)
                ):
                    found.add(field)
        return found

    def _whole(self, string: str) -> list[bytes]:
        if string not in self._forms:
            self._forms[string] = [form.encode() for form in carried_forms(string)]
        return self._forms[string]


def scan(
    folder: Path, payload: Mapping[str, str], shipped: frozenset[str] = frozenset()
) -> list[Leak]:
    """Every (file, field) where a payload string appears under ``folder``, sorted.

    A file whose SHA-256 is in ``shipped`` is a verbatim copy of a file an installed package
    ships (the theme's scripts, plotly.js): it cannot carry a run's data, and its words
    ("currency", "delivered") would only fail the build for nothing.
    """
    sought = Sought(payload)
    leaks: set[Leak] = set()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if hashlib.sha256(data).hexdigest() in shipped:
                continue
            file = path.relative_to(folder).as_posix()
            leaks |= {Leak(file, field) for field in sought.fields_in(_contents(path, data))}
    return sorted(leaks)


def shipped_files(*folders: Path) -> frozenset[str]:
    """The SHA-256 of every file under ``folders``: what packages ship, byte for byte."""
    return frozenset(
        hashlib.sha256(path.read_bytes()).hexdigest()
        for folder in folders
        for path in folder.rglob("*")
        if path.is_file()
    )


def _contents(path: Path, data: bytes) -> bytes:
    """A file's bytes, decompressed when it is gzipped (as sitemaps are)."""
    return gzip.decompress(data) if path.suffix == ".gz" else data
