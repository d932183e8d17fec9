"""Tenants and suites named as the site's own files and folders build: each page at the address
its names make, every link on every page landing on a page, the site's own files its own. So
does an archive holding names the door now refuses, archived by an older runsite."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import Result

from generator.document.record import key_of
from generator.site.shell import files
from tests._helpers import a_run_at, archived_past_the_door

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""

SITE_NAMES = [
    "index.html",
    "404.html",
    "x.HTML",
    "sitemap.xml",
    "sitemap.xml.gz",
    "README",
    "readme.md",
    "index",
    "Index.md",
    "search",
    "search_index.json",
    "assets",
    "it",
    "runs",
    "suites",
    "diffs",
    "javascripts",
    "runsite-shell",
    "RUNSITE-SHELL-TITLE",
    "PLACEHOLDER_ADDRESS",
]
"""Names of files and folders a built site holds, of mkdocs' index pages, and of the marks a
shell is cut at."""

OLDER = [("legacy", "Support"), ("legacy", "support"), ("legacy", "CON"), ("a:b", "c.")]
"""Names an older runsite let in: they collide on a case-insensitive file system, or Windows
cannot hold them. They stay in the archive, and on the site as before."""

Runsite = Callable[..., Result]


def _runs() -> list[dict[str, Any]]:
    named = [("acme", name) for name in SITE_NAMES] + [(name, "support") for name in SITE_NAMES]
    return [
        a_run_at(second, tenant=tenant, suite=suite) for tenant, suite in named for second in (1, 2)
    ]


def _broken_links(site: Path) -> list[str]:
    """Every link of every page that names a page or file of the site and finds none."""
    broken = []
    for page in files(site, "*.html"):
        for link in re.findall(r'href="([^"#?]*)', page.read_text(encoding="utf-8")):
            if not link or link.startswith(("/", "http:", "https:", "mailto:")):
                continue
            target = page.parent / unquote(link)
            if not (target.is_file() or (target / "index.html").is_file()):
                broken.append(f"{page.relative_to(site)}: {link}")
    return broken


def test_names_of_the_sites_own_files_build_each_page_at_its_address_with_every_link_landing(
    runsite: Runsite, archive: Path, write_json: Callable[[Any, str], Path]
) -> None:
    runs = _runs()
    paths = [write_json(run, f"{n}.json") for n, run in enumerate(runs)]
    imported = runsite("import", "--root", str(archive), *map(str, paths))
    assert imported.exit_code == 0, imported.output
    older = [a_run_at(1, tenant=tenant, suite=suite) for tenant, suite in OLDER]
    archived_past_the_door(archive, older)
    runs += older
    (archive / "mkdocs.yml").write_text("site_url: https://evals.example/\n", encoding="utf-8")
    site = archive / "site"
    built = runsite("build", "--root", str(archive), "--out", str(site))
    assert built.exit_code == 0, built.output
    for folder in (site, site / "it"):
        for run in runs:
            tenant, suite = run["tenant"], run["suite"]
            key = key_of(run["created_at"], run["config_hash"])
            assert (folder / "suites" / tenant / suite / "index.html").is_file(), (tenant, suite)
            assert (folder / "runs" / tenant / suite / key / "index.html").is_file()
    assert _broken_links(site) == []
    for own in ("404.html", "sitemap.xml", "sitemap.xml.gz", "search/search_index.json"):
        assert (site / own).is_file(), own
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert "https://evals.example/suites/acme/index/" in sitemap
    assert "runsite-shell/runsite-shell/runsite-shell" not in sitemap
    shell_marks = re.compile(r"RUNSITE-SHELL-TITLE\u2060|RUNSITE-SHELL-BODY|RUNSITE-PAGE-BODY")
    nav = '<a href="../../../../suites/RUNSITE-SHELL-TITLE/support/" class="md-nav__link">'
    run_page = next((site / "runs" / "RUNSITE-SHELL-TITLE" / "support").glob("*/index.html"))
    text = run_page.read_text(encoding="utf-8")
    assert not shell_marks.search(text)
    assert f'{nav}\n<span class="md-ellipsis">\nRUNSITE-SHELL-TITLE · support\n' in text


def test_names_of_the_sites_own_files_build_for_opening_from_disk(
    runsite: Runsite, archive: Path, write_json: Callable[[Any, str], Path], tmp_path: Path
) -> None:
    paths = [write_json(run, f"{n}.json") for n, run in enumerate(_runs())]
    assert runsite("import", "--root", str(archive), *map(str, paths)).exit_code == 0
    site = tmp_path / "files"
    built = runsite("build", "--root", str(archive), "--for-files", "--out", str(site))
    assert built.exit_code == 0, built.output
    page = site / "suites" / "acme" / "index.html" / "index.html"
    assert 'href="../../../index.html"' in page.read_text(encoding="utf-8")
    shutil.rmtree(site)
