"""What runsite changes in what mkdocs wrote: one search index per language (with the entries
of the pages mkdocs does not build), links that name ``index.html`` for a site opened from disk,
language links that work wherever the site is served, and a 404 page in each language."""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from generator.site.labels import LABELS, LOCALES
from generator.site.shell import files

_BASE = re.compile(r'(<script id="__config" type="application/json">\{[^<]*?"base": ")([^"]*)(")')


def split_search(out: Path, default: str, extra: Mapping[str, Sequence[str]]) -> None:
    """One search index per language, so a reader searching the Italian site finds Italian pages.

    The i18n plugin stacks every language's entries into the root index, which every page
    loads from its ``base``. Each other language gets the index of its own pages (locations
    relative to its folder, its own stemmer), and its pages a ``base`` at that folder: the theme
    reads ``base`` only to find the index and to resolve the links of its results. ``extra``
    adds each language's entries for pages mkdocs does not build (runs, cases), as
    ``entries_json`` writes them.
    """
    path = out / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    others = [locale for locale in LOCALES if locale != default]
    for locale in others:
        prefix = f"{locale}/"
        own = [
            entry | {"location": entry["location"][len(prefix) :]}
            for entry in index["docs"]
            if entry["location"].startswith(prefix)
        ]
        target = out / locale / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        config = index["config"] | {"lang": [locale]}
        target.write_text(_index_json(config, own, extra.get(locale, ())), encoding="utf-8")
        for page in files(out / locale, "*.html"):
            text = page.read_text(encoding="utf-8")
            page.write_text(
                _BASE.sub(rf"\g<1>\g<2>/{locale}/\g<3>", text, count=1), encoding="utf-8"
            )
    root = [
        entry
        for entry in index["docs"]
        if not entry["location"].startswith(tuple(f"{o}/" for o in others))
    ]
    config = index["config"] | {"lang": [default]}
    path.write_text(_index_json(config, root, extra.get(default, ())), encoding="utf-8")


_FOLDER_LINK = re.compile(
    r'((?:href|src)=")(?![A-Za-z][A-Za-z0-9+.-]*:|/|#)((?:[^"#?]*/)?\.{0,2}|[^"#?]*/)(#[^"]*)?"'
)


def _index_link(found: re.Match[str]) -> str:
    path = found[2]
    if path in ("", ".", "..") or path.endswith(("/.", "/..")):
        path += "/"
    return f'{found[1]}{path}index.html{found[3] or ""}"'


def for_files(page: str) -> str:
    """A page whose links to folders name their ``index.html``: opened from disk, a folder is
    a listing, not a page."""
    return _FOLDER_LINK.sub(_index_link, page)


_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
_SWITCH = re.compile(r'(<a href=")([^"]*)(" hreflang="([a-z]{2})" class="md-select__link">)')


def _relative_switch(homes: dict[str, str], folder: str, found: re.Match[str]) -> str:
    if not found[2].startswith("/"):
        return found[0]
    return f"{found[1]}{posixpath.relpath(homes[found[4]] or '.', folder)}/{found[3]}"


def language_links(out: Path, default: str, site_url: str | None) -> None:
    """Language links that work wherever the site is served.

    The theme fetches a ``sitemap.xml`` beside every ``<link rel="alternate">`` of a page, and
    only the site's root has one: two failed requests on every page. The header's language
    switch says the same, so those links go. The home pages switch language through absolute
    links (``/``, ``/it/``), which miss a site served under a sub-path: they become relative.
    A 404 page, served at any address, switches to each language's home, as the site's address
    (``site_url``) places it.
    """
    root = urlparse(site_url).path if site_url else "/"
    root = root if root.endswith("/") else root + "/"
    homes = {locale: "" if locale == default else f"{locale}/" for locale in LOCALES}
    for page in files(out, "*.html"):
        text = page.read_text(encoding="utf-8")
        fixed = _ALTERNATE.sub("", text)
        folder = page.parent.relative_to(out).as_posix()
        if page.name == "404.html":
            fixed = _SWITCH.sub(lambda m: f"{m[1]}{root}{homes[m[4]]}{m[3]}", fixed)
        elif page.name == "index.html" and folder in {h.rstrip("/") or "." for h in homes.values()}:
            fixed = _SWITCH.sub(partial(_relative_switch, homes, folder), fixed)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


def entries_json(entries: Sequence[Mapping[str, str]]) -> str:
    """Search entries as the index writes them, for a build to keep and splice in whole."""
    return json.dumps(list(entries), ensure_ascii=False, separators=(",", ":"))


def _index_json(config: dict[str, Any], docs: list[dict[str, Any]], more: Sequence[str]) -> str:
    """The index of ``docs`` and then of the entries of each of ``more`` (``entries_json``'s),
    spliced in as they are: most of an index is its runs' entries, kept from the build before,
    and reading them to write them again cost as much as the rest of a rebuild's pages."""
    index = json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":"))
    spliced = [entries[1:-1] for entries in more if entries != "[]"]
    between = "," if docs and spliced else ""
    return index.removesuffix("]}") + between + ",".join(spliced) + "]}"


_ARTICLE = re.compile(r'(<article class="md-content__inner md-typeset">).*?(</article>)', re.DOTALL)
_TITLE = re.compile(r"<title>[^<]*</title>")
_CANONICAL = re.compile(r'<link rel="canonical" href="[^"]*">\n?')


def not_found_pages(out: Path, default: str, site_url: str | None, name: str) -> None:
    """A page for an address the site has no page at, in each language: ``404.html`` at the
    top and in each other language's folder (a host that serves the nearest one serves the
    reader's language; the top one sends a reader lost in a language's folder to its own).

    Each is its language's home page with another article: a 404 is served at any address, so
    the page reads its links from a ``<base>`` at its language's folder, where the site's
    address (``site_url``) places it, and they stay the home page's relative ones.
    """
    root = urlparse(site_url).path if site_url else "/"
    root = root if root.endswith("/") else root + "/"
    folders = {locale: "" if locale == default else f"{locale}/" for locale in LOCALES}
    others = json.dumps(sorted(folder for folder in folders.values() if folder))
    for locale, folder in folders.items():
        t = {key: html.escape(text) for key, text in LABELS[locale].items()}
        said = (
            f"<h1>{t['missing.title']}</h1>\n<p>{t['missing.said']}</p>\n"
            f'<p><a href="./">{t["missing.home"]}</a></p>\n'
        )
        title = f"<title>{t['missing.title']} - {html.escape(name)}</title>"
        home = (out / folder / "index.html").read_text(encoding="utf-8")
        page = _retold(home, title, said, root + folder)
        head = f'<head>\n<base href="{html.escape(root + folder)}">'
        if not folder:
            head += _LOST.format(root=json.dumps(root), folders=others)
        (out / folder / "404.html").write_text(page.replace("<head>", head, 1), encoding="utf-8")


def _retold(page: str, title: str, article: str, base: str) -> str:
    """``page`` titled ``title`` with ``article`` in place of its own, its theme's ``base`` the
    folder at ``base`` (the theme finds its search index from the page's address, not from
    its ``<base>``), no link of its navigation marked as the page the reader is on, and no
    canonical address (it is no longer the page that address names)."""
    page = _ARTICLE.sub(lambda found: found[1] + article + found[2], page, count=1)
    page = _BASE.sub(lambda found: found[1] + base + found[3], page, count=1)
    page = page.replace(" md-nav__link--active", "")  # the home page is not where the reader is
    return _CANONICAL.sub("", _TITLE.sub(lambda _: title, page, count=1))


_LOST = """
<script>(function () {{
  var root = {root}, here = location.pathname;
  {folders}.forEach(function (folder) {{
    if (here.indexOf(root + folder) === 0) location.replace(root + folder + "404.html");
  }});
}})();</script>"""
"""What the top 404 page does for a reader lost in another language's folder: sends them to
that language's 404 page."""
