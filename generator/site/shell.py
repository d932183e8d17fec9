"""The site's shell, taken from what Material renders, around pages runsite writes itself.

Run and comparison pages are 99 % of a site. Rendering each through Python-Markdown and the
theme costs ~80 ms a page; jinja2 alone writes one in about a millisecond. So mkdocs builds,
beside the home and suite pages, one placeholder page per language and page kind, at the same
depth as the real pages: a shell. Its header, search, language switch, navigation and footer
are exactly what the theme gives every page (the same CSS and JS, the user's palette, logo and
copyright); only three things in it belong to the page and are put in per page: its title, its
address (which the language switch and the alternates point to), and the article's body.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from generator.site.writer import page_address

PLACEHOLDER = "runsite-shell"
"""A path segment no real page has: run keys and comparison keys are timestamps. A tenant or
suite may be named so, and the shell's navigation links to their suite pages, but no name holds
a slash: the shell's own address, with as many of these as its kind has segments, is no link of
theirs."""
TITLE = "RUNSITE-SHELL-TITLE\u2060"
"""Ends in a word joiner, a character no name may hold (``document.values.hidden_character``):
the navigation of a shell shows every tenant and suite, and one named so is not its title."""
BODY = "<h1>RUNSITE-SHELL-BODY</h1>"
"""The shell's article: an ``<h1>`` so that the theme does not add a title of its own."""

PAGE_BODY = "<h1>RUNSITE-PAGE-BODY</h1>"
"""The article of a page in the navigation whose body runsite writes (a suite's): mkdocs
renders the page around it, the body takes its place after (``fill``)."""

KINDS = {"run": 3, "diff": 4}
"""Page kinds with a shell, and how many path segments follow the kind's folder."""
FOLDERS = {"run": "runs", "diff": "diffs"}
WORN = {"run": "run", "diff": "diff", "older": "diff"}
"""The shell each kind of page runsite writes wears. A block of a suite's older runs
(``suites/<tenant>/<suite>/older/<n>/``) is as deep as a comparison: outside the navigation,
the theme's page differs from one address to another only by the depth its links climb, and
the address the shell puts in."""

_MARKDOWN = f"""---
title: {TITLE}
search:
  exclude: true
---

{BODY}
"""


def placeholder_markdown(title: str) -> str:
    """The markdown mkdocs renders around a body runsite writes: its title, and no search entry
    (the page's entry is runsite's own, as for runs)."""
    return f"---\ntitle: {title}\nsearch:\n  exclude: true\n---\n\n{PAGE_BODY}\n"


def fill(page: Path, body: str) -> None:
    """Put ``body`` in the place of ``PAGE_BODY`` in the built ``page``."""
    text = page.read_text(encoding="utf-8")
    if text.count(PAGE_BODY) != 1:
        raise RuntimeError(f"the theme left no single place for the body of {page}")
    page.write_text(text.replace(PAGE_BODY, body), encoding="utf-8")


def placeholder_path(kind: str) -> str:
    """The shell's page path (as the site serves it, a folder) for pages of ``kind``."""
    return "/".join([FOLDERS[kind], *([PLACEHOLDER] * KINDS[kind])]) + "/"


def shell_sources() -> dict[str, str]:
    """The markdown of each kind's shell page, by its path under a language's folder."""
    return {placeholder_path(kind).rstrip("/") + ".md": _MARKDOWN for kind in KINDS}


def files(out: Path, pattern: str) -> list[Path]:
    """The files under ``out`` whose names match ``pattern``, in order. Folders are passed
    over: a tenant or suite named ``x.html`` or ``sitemap.xml`` is a folder of pages."""
    return sorted(path for path in out.rglob(pattern) if path.is_file())


@dataclass(frozen=True)
class Shell:
    """A page of one kind and language as the theme renders it, cut where a page's own parts
    go: ``parts`` alternate fixed text and the name of what goes between (title, address,
    body)."""

    parts: tuple[str, ...]
    digest: str
    """What the shell is, for the build's manifest: a page is rewritten when its shell moves."""

    @cached_property
    def _fixed(self) -> tuple[bytes, ...]:
        """The shell's own text between a page's parts, in UTF-8: encoded once, not a page."""
        return tuple(part.encode() for part in self.parts[::2])

    def wrap(self, title: str, path: str, body: bytes) -> bytes:
        """A whole page in UTF-8: ``body`` (HTML, in UTF-8) inside the shell, titled ``title``,
        at ``path``. Bytes, not text: a body as text took twice its bytes wherever it held a
        character past Latin-1, and a build holds a chunk's bodies at once."""
        values = {
            "title": html.escape(title).encode(),
            "address": page_address(path).encode(),
            "body": body,
        }
        page = [self._fixed[0]]
        for name, fixed in zip(self.parts[1::2], self._fixed[1:], strict=True):
            page += (values[name], fixed)
        return b"".join(page)


def _compact(text: str) -> str:
    """The theme's markup without the indentation and blank lines its templates leave: the
    shell holds no ``<pre>`` or multi-line script, so the page renders the same, smaller."""
    return re.sub(r"\n\s+", "\n", text)


def capture(folder: Path, kind: str) -> Shell:
    """The shell of ``kind`` from the built language folder ``folder``, which it leaves without
    the placeholder page."""
    address = placeholder_path(kind)
    text = _compact((folder / address / "index.html").read_text(encoding="utf-8"))
    deep = "/".join([PLACEHOLDER] * KINDS[kind])
    if deep in text.replace(address, "") or text.count(BODY) != 1:
        raise RuntimeError(f"the theme's {kind} shell has its placeholders where runsite cannot")
    marks = {TITLE: "title", BODY: "body", address: "address"}
    pieces = re.split(f"({'|'.join(map(re.escape, marks))})", text)
    parts = tuple(piece if n % 2 == 0 else marks[piece] for n, piece in enumerate(pieces))
    shutil.rmtree(folder / FOLDERS[kind])
    return Shell(parts, hashlib.sha256(text.encode()).hexdigest())


_SHELL_URL = re.compile(rf"<url>(?:(?!</url>).)*?{PLACEHOLDER}.*?</url>\s*", re.DOTALL)


_LASTMOD = re.compile(r"<lastmod>[^<]*</lastmod>")


def mend_sitemaps(out: Path, epoch: int, site_url: str | None) -> None:
    """Take the shells out of every sitemap the build wrote (and its gzipped copy), and date
    every page at ``epoch``, the archive's newest run. A site without its address
    (``site_url``) gets no sitemap: a sitemap's locations are absolute, and mkdocs would write
    "None" at the start of each."""
    day = datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d")
    for sitemap in files(out, "sitemap.xml"):
        if site_url is None:
            sitemap.unlink()
            sitemap.with_name("sitemap.xml.gz").unlink(missing_ok=True)
            continue
        text = _SHELL_URL.sub("", sitemap.read_text(encoding="utf-8"))
        text = _LASTMOD.sub(f"<lastmod>{day}</lastmod>", text)
        sitemap.write_text(text, encoding="utf-8")
        packed = sitemap.with_name("sitemap.xml.gz")
        if packed.exists():
            with (
                packed.open("wb") as target,
                gzip.GzipFile(
                    fileobj=target, filename="sitemap.xml", mode="wb", mtime=epoch
                ) as stream,
            ):
                stream.write(text.encode("utf-8"))
