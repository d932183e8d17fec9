"""``runsite publish``: the site the build wrote and scanned, committed to a branch as
``ghp-import`` would, one commit a publish that changes it, and nothing when its build is
refused."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from generator.deploy import PublishRefused, site_files
from tests._helpers import MARKERS, a_planted_run, a_run_at, git

pytestmark = pytest.mark.slow
"""Each test builds a site, some of them three times."""

REPOSITORY = Path(__file__).resolve().parents[2]


def _bare(tmp_path: Path, archive: Path) -> Path:
    """A bare repository on disk, the archive's remote ``pages``."""
    bare = tmp_path / "pages.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True)
    git(archive, "remote", "add", "pages", str(bare))
    return bare


def _commits(repository: Path, branch: str = "gh-pages") -> list[str]:
    return git(repository, "rev-list", branch).split()


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(folder).parts
    }


def _import(runsite: Callable[..., Result], archive: Path, *paths: Path) -> None:
    result = runsite("import", "--root", str(archive), *map(str, paths))
    assert result.exit_code == 0, result.output


def test_the_demo_site_goes_to_a_bare_repository_once_per_change_with_the_builds_bytes(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    tmp_path: Path,
):
    _import(runsite, archive, REPOSITORY / "runs")
    bare = _bare(tmp_path, archive)
    first = runsite("publish", "--root", str(archive), "--remote", "pages")
    assert first.exit_code == 0, first.output
    assert "pages/gh-pages: " in first.stdout and " files added (" in first.stdout
    assert len(_commits(bare)) == 1
    again = runsite("publish", "--root", str(archive), "--remote", "pages")
    assert again.exit_code == 0, again.output
    assert "the site has not changed; nothing was committed" in again.stdout
    assert len(_commits(bare)) == 1
    _import(runsite, archive, write_json(a_run_at(7), "new.json"))
    grown = runsite("publish", "--root", str(archive), "--remote", "pages")
    assert grown.exit_code == 0, grown.output
    history = _commits(bare)
    assert len(history) == 2
    assert git(bare, "rev-parse", "gh-pages^").strip() == history[1]
    checkout = tmp_path / "checkout"
    subprocess.run(
        ["git", "clone", "--quiet", "--branch", "gh-pages", str(bare), str(checkout)], check=True
    )
    built = {  # but the build's manifest, for the next build: it stays home
        name: data
        for name, data in _files(archive / "site").items()
        if name != ".runsite-site" and not name.startswith(".runsite-parts/")
    }
    assert _files(checkout) == {**built, ".nojekyll": b""}


def test_a_site_whose_build_the_leak_scan_refuses_publishes_nothing(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    tmp_path: Path,
):
    _import(runsite, archive, write_json(a_planted_run(), "planted.json"))
    bare = _bare(tmp_path, archive)
    (archive / "mkdocs.yml").write_text(f"copyright: {MARKERS['output']}\n", encoding="utf-8")
    for where in (["--remote", "pages"], []):
        result = runsite("publish", "--root", str(archive), *where)
        assert result.exit_code == 64
        assert "carries the payload of results[0].responses[0].output" in result.stderr
        assert result.stderr.count("\n") == 1
    assert git(bare, "for-each-ref") == ""
    assert git(archive, "branch", "--list", "gh-pages") == ""


def test_the_archives_own_branch_keeps_its_history_a_cname_and_a_dry_run_commits_nothing(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _import(runsite, archive, write_json(a_run_at(1), "one.json"))
    first = runsite("publish", "--root", str(archive), "--cname", "Evals.Example.com")
    assert first.exit_code == 0, first.output
    assert git(archive, "show", "gh-pages:CNAME") == "evals.example.com\n"
    assert git(archive, "show", "gh-pages:.nojekyll") == ""
    _import(runsite, archive, write_json(a_run_at(2), "two.json"))
    dry = runsite("publish", "--root", str(archive), "--cname", "evals.example.com", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "gh-pages: would have " in dry.stdout and "nothing was published" in dry.stdout
    assert len(_commits(archive)) == 1
    second = runsite("publish", "--root", str(archive), "--cname", "evals.example.com")
    assert second.exit_code == 0, second.output
    assert len(_commits(archive)) == 2
    assert git(archive, "status", "--porcelain") == ""  # the site and its lock are ignored


def test_the_address_publish_records_links_the_run_page_in_the_markdown_report(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _import(runsite, archive, write_json(a_run_at(1), "one.json"))
    url = "https://acme.github.io/evals/"
    result = runsite("publish", "--root", str(archive), "--url", url)
    assert result.exit_code == 0, result.output
    assert git(archive, "show", "HEAD:mkdocs.yml") == f"site_url: {json.dumps(url)}\n"
    summary = runsite("report", "latest", "--root", str(archive), "--format", "markdown")
    assert f"](<{url}runs/acme/support/" in summary.stdout
    other = runsite("publish", "--root", str(archive), "--url", "https://elsewhere.example/")
    assert other.exit_code == 64
    assert other.stderr == (
        f"runsite: {archive / 'mkdocs.yml'}: site_url: another address than --url; "
        "change it there, or leave --url out\n"
    )


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--branch", "main"], "--branch main: the archive's own branch"),
        (["--branch", "a..b"], "--branch a..b: not a name git takes for a branch"),
        (["--remote", "nowhere"], "--remote nowhere: no such remote in "),
        (["--cname", "not a domain"], "--cname: not a domain name"),
        (["--url", "ftp://x/"], "--url: not an http(s) address"),
    ],
)
def test_a_publish_asked_wrongly_is_refused_in_one_line_before_anything_is_built(
    archive: Path, runsite: Callable[..., Result], options: list[str], said: str
):
    git(archive, "branch", "--move", "main")
    result = runsite("publish", "--root", str(archive), *options)
    assert result.exit_code == 64
    assert result.stderr.startswith("runsite: ") and said in result.stderr
    assert result.stderr.count("\n") == 1
    assert not (archive / "site").exists()
    assert git(archive, "branch", "--list", "gh-pages") == ""


def test_a_page_changed_after_its_build_is_not_published(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _import(runsite, archive, write_json(a_run_at(1), "one.json"))
    assert runsite("build", "--root", str(archive)).exit_code == 0
    page = archive / "site" / "index.html"
    page.write_bytes(page.read_bytes() + b"<!-- added by hand -->")
    with pytest.raises(PublishRefused, match=r"index\.html: not what the build wrote and scanned"):
        site_files(archive / "site", None)
