"""The site's address, recorded where the build and the report read it: ``site_url`` in the
archive's ``mkdocs.yml``.

The build needs it (a site served under a path, as GitHub Pages serves a project's, links its
language roots and writes its sitemap from it), and ``report --format markdown`` links a run's
page with it; so it is recorded before the build, committed to the archive, and every later
build and report, on this machine or in CI, finds it there.
"""

from __future__ import annotations

import json

import yaml

from generator.archive import Archive
from generator.archive.head import blob_id
from generator.deploy.content import PublishRefused
from generator.publish.manifest import regular_bytes
from generator.site.look import ADDRESS, read_look

LOOK = "mkdocs.yml"


def address(url: str) -> str:
    """``url``, refused where it is not an address a site is served at."""
    if not ADDRESS.fullmatch(url):
        raise PublishRefused("--url: not an http(s) address of where the site is served")
    return url


def record_address(archive: Archive, url: str) -> bool:
    """Record ``url`` as ``mkdocs.yml``'s ``site_url``, in one commit of that file alone;
    False where it says so already. A ``site_url`` naming another address is refused, and so is
    a ``mkdocs.yml`` that differs from HEAD's: the commit would carry edits nobody made it for."""
    path = archive.layout.root / LOOK
    recorded = read_look(path).site_url
    if recorded == address(url):
        return False
    if recorded is not None:
        raise PublishRefused(
            f"{path}: site_url: another address than --url; change it there, or leave --url out"
        )
    store = archive.store
    with store.locked():
        name = store.path(path)
        data = regular_bytes(path)
        committed = store.tracked(name).get(name)
        if (None if data is None else blob_id(data)) != committed:
            raise PublishRefused(
                f"{path}: differs from what HEAD holds; commit it, then publish --url again"
            )
        text = (data or b"").decode("utf-8")
        if text and not text.endswith("\n"):
            text += "\n"
        text += f"site_url: {json.dumps(url)}\n"
        loaded = yaml.safe_load(text)
        if not isinstance(loaded, dict) or loaded.get("site_url") != url:
            raise PublishRefused(f"{path}: site_url: cannot be added at its end; add it by hand")
        store.commit({name: text.encode()}, "Record where the site is published (site_url)\n")
    return True
