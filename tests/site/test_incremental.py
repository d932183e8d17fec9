"""Builds that write only what moved: the same bytes as a full build, the same leak scan, and
the same site however many processes build it."""

from __future__ import annotations

import filecmp
import json
import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import generator.guard.own_pages
import generator.guard.windows
import generator.publish
import generator.publish.records
from generator.guard.windows import Windows
from generator.publish.cache import Known, RunCache
from generator.publish.manifest import Manifest
from tests._helpers import a_run_at, git, leaks_confirmed

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""


def _differences(left: Path, right: Path) -> list[str]:
    def walk(c: filecmp.dircmp[str], at: str) -> list[str]:
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        found = [f"{at}{name}" for name in [*mismatch, *errors, *c.left_only, *c.right_only]]
        return found + [d for name, sub in c.subdirs.items() for d in walk(sub, f"{at}{name}/")]

    return walk(filecmp.dircmp(left, right), "")


def _unlike_a_full_build(runsite: Callable[..., Result], archive: Path, site: Path) -> list[str]:
    """The files in which ``site`` differs from a full build of ``archive`` (built beside it)."""
    full = archive.parent / "full"
    assert _build(runsite, archive, full, "--full").exit_code == 0
    return _differences(site, full)


def _inodes(site: Path) -> dict[str, int]:
    return {
        path.relative_to(site).as_posix(): path.stat().st_ino
        for path in site.rglob("*")
        if path.is_file()
    }


@pytest.fixture
def grown(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
) -> Callable[[int, str], None]:
    """Import into the archive the run measured at ``second`` of suite ``suite``."""

    def grow(second: int, suite: str = "support") -> None:
        path = write_json(a_run_at(second, suite=suite), f"run-{suite}-{second}.json")
        result = runsite("import", "--root", str(archive), str(path))
        assert result.exit_code == 0, result.output

    return grow


@pytest.fixture(params=["automaton", "arrays", "keys from the processes"])
def kept_sieve(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each way a build sieves the pages it keeps for the arrived runs' heads: with an automaton
    while they are few, with the sieve's arrays past ``AUTOMATON_FORMS`` (the bound the check's
    own process is handed by the build); and with the heads of runs the build's processes
    read, as it takes them past ``EARLY`` arrived runs, not before they read."""
    if request.param == "arrays":
        monkeypatch.setattr(generator.guard.own_pages, "AUTOMATON_FORMS", 0)
    if request.param == "keys from the processes":
        monkeypatch.setattr(generator.publish, "EARLY", 0)


def _build(runsite: Callable[..., Result], archive: Path, out: Path, *extra: str) -> Result:
    return runsite("build", "--root", str(archive), "--out", str(out), *extra)


def test_one_more_run_writes_its_pages_its_suite_its_cases_and_home_as_a_full_build_would(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    for second in (1, 2, 3):
        grown(second)
    grown(4, "billing")
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    before = _inodes(site)
    grown(5)
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert "(4 written, " in result.stdout
    after = _inodes(site)
    changed = {file for file, inode in after.items() if before.get(file) != inode}
    new_key = next(
        p.parent.name for p in (site / "runs/acme/support").glob("*10-00-05*/index.html")
    )
    pages = {
        f"{language}{page}"
        for language in ("", "it/")
        for page in (
            f"runs/acme/support/{new_key}/index.html",
            "suites/acme/support/index.html",
            "cases/acme/support/index.html",
            "index.html",
            "search/search_index.json",
        )
    }
    comparisons = {file for file in changed if file.startswith(("diffs/", "it/diffs/"))}
    assert len(comparisons) == 2 and all(new_key in file for file in comparisons)
    # The manifest's parts anew: the block of support's runs and the site's other files; not
    # the part of billing's block, which stays as it was.
    parts = {file for file in changed if file.startswith(".runsite-parts/")}
    assert len(parts) == 2 and len([f for f in after if f.startswith(".runsite-parts/")]) == 3
    others = changed - pages - comparisons - parts
    assert ".runsite-site" in others <= {".runsite-site", "sitemap.xml", "sitemap.xml.gz"}
    assert pages <= changed
    assert _unlike_a_full_build(runsite, archive, site) == []


def test_a_site_whose_manifest_is_one_file_is_rebuilt_as_a_full_build_would_build_it(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    """A site built before the manifest had parts: its one file lists every file, each with
    its digest, and each page's body. The next build takes the site for runsite's, keeps its
    pages, and leaves the manifest in parts."""
    for second in (1, 2, 3):
        grown(second)
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    manifest = Manifest.read(site)
    assert manifest is not None
    whole = {
        "bodies": dict(manifest.bodies),
        "captured": manifest.captured,
        "files": dict(manifest.files),
        "runs": sorted(manifest.runs),
        "shells": manifest.shells,
    }
    (site / ".runsite-site").write_text(json.dumps(whole, sort_keys=True, separators=(",", ":")))
    shutil.rmtree(site / ".runsite-parts")
    shutil.rmtree(archive / ".runsite")
    before = _inodes(site)
    grown(4)
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert "(4 written, " in result.stdout
    kept = [file for file, inode in _inodes(site).items() if before.get(file) == inode]
    assert len([file for file in kept if file.startswith(("runs/", "it/runs/"))]) == 6
    assert _unlike_a_full_build(runsite, archive, site) == []


@pytest.mark.parametrize("undone", ["removed", "altered"])
def test_a_part_of_the_manifest_undone_by_hand_is_refused_naming_it_and_nothing_moves(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None], undone: str
):
    """Which files of the folder are runsite's is then not known: the build says which part,
    and leaves the folder as it is, rebuilding or not."""
    for second in (1, 2):
        grown(second)
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    manifest = Manifest.read(site)
    assert manifest is not None
    part = site / ".runsite-parts" / manifest.parts["rest"]
    if undone == "removed":
        part.unlink()
    else:
        part.write_text(part.read_text().replace('"files":{', '"files":{"index.htm":"0",'))
    before = {file: path.read_bytes() for file, path in _files(site).items()}
    grown(3)
    for extra in ((), ("--full",)):
        result = _build(runsite, archive, site, *extra)
        assert (result.exit_code, result.stderr) == (
            64,
            f"runsite: {part}: gone or altered, so which files of {site} are runsite's is "
            "not known; give --out an empty or new folder\n",
        )
        assert {file: path.read_bytes() for file, path in _files(site).items()} == before


def test_a_fresh_clone_given_back_the_last_site_and_cache_writes_only_the_new_runs_pages(
    archive: Path,
    runsite: Callable[..., Result],
    grown: Callable[..., None],
    write_json: Callable[[Any, str], Path],
):
    """A CI job publishes from a fresh, shallow checkout, with the last build's site and
    ``.runsite/`` restored from its cache at other paths and with new mtimes: what the build
    kept must not depend on either."""
    for second in (1, 2, 3):
        grown(second)
    published = archive.parent / "published"
    assert _build(runsite, archive, published).exit_code == 0
    job = archive.parent / "job"
    subprocess.run(["git", "clone", "-q", "--depth", "1", archive.as_uri(), str(job)], check=True)
    site = job.parent / "restored"
    shutil.copytree(published, site, copy_function=shutil.copy)
    shutil.copytree(archive / ".runsite", job / ".runsite", copy_function=shutil.copy)
    arrived = write_json(a_run_at(4), "arrived.json")
    assert runsite("import", "--root", str(job), str(arrived)).exit_code == 0
    result = _build(runsite, job, site)
    assert result.exit_code == 0, result.output
    assert "(4 written, " in result.stdout
    assert _unlike_a_full_build(runsite, job, site) == []


def test_the_site_is_the_same_bytes_built_by_one_process_or_two(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    for second in range(1, 6):
        grown(second, "support" if second % 2 else "billing")
    one, two = archive.parent / "one", archive.parent / "two"
    assert _build(runsite, archive, one, "--jobs", "1").exit_code == 0
    assert _build(runsite, archive, two, "--jobs", "2").exit_code == 0
    assert _differences(one, two) == []


def test_a_new_runs_payload_on_a_kept_page_fails_the_incremental_build_as_it_fails_a_full_one(
    archive: Path,
    runsite: Callable[..., Result],
    grown: Callable[..., None],
    write_json: Callable[[Any, str], Path],
    kept_sieve: None,
):
    secret = "Mrs Jane Doe of 4 Privet Drive"
    (archive / "mkdocs.yml").write_text(f"copyright: {json.dumps(secret)}\n", encoding="utf-8")
    grown(1)
    grown(2, "billing")
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    published = {file: path.read_bytes() for file, path in _files(site).items()}
    run = a_run_at(3, suite="billing")
    run["results"][0]["responses"][0]["output"] = secret
    result = runsite("import", "--root", str(archive), str(write_json(run, "secret.json")))
    assert result.exit_code == 0, result.output
    incremental = _build(runsite, archive, site)
    assert incremental.exit_code == 64
    assert "carries the payload of results[0].responses[0].output" in incremental.stderr
    assert {file: path.read_bytes() for file, path in _files(site).items()} == published
    full = _build(runsite, archive, site, "--full")
    assert full.exit_code == 64
    assert "carries the payload of results[0].responses[0].output" in full.stderr


def _windows(archive: Path, site: Path) -> tuple[Path, Windows | None]:
    """Where the filter of the windows of ``site``'s pages is recorded, and the filter, if it
    covers the site as it is."""
    (record,) = archive.glob(".runsite/cache/*/sites/*.windows")
    manifest = Manifest.read(site)
    assert manifest is not None
    return record, RunCache(archive, record.parent.parent.name).site(site).windows(manifest.digest)


def _undo(record: Path, windows: str) -> None:
    """Leave the filter recorded at ``record`` in the state ``windows`` says."""
    if windows == "missing":
        record.unlink()
    elif windows == "not a record":
        record.write_bytes(b"not a record")
    elif windows == "cut short":
        (bits,) = record.parent.glob(f"{record.stem}-*.bits")
        bits.write_bytes(bits.read_bytes()[:100])
    elif windows == "of another site":
        _, name, size, later = pickle.loads(record.read_bytes())
        record.write_bytes(pickle.dumps(("0" * 64, name, size, later)))


SECRETS = ["Mrs Jane Doe's model", "a -> b and more text", "<b>Jane Doe</b> of 4 Privet Drive"]


@pytest.mark.parametrize(
    ("windows", "secret"),
    [("in use", secret) for secret in SECRETS]
    + [
        (state, SECRETS[0]) for state in ["missing", "not a record", "cut short", "of another site"]
    ],
)
def test_a_kept_run_page_showing_a_new_runs_payload_fails_the_incremental_build(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    windows: str,
    secret: str,
):
    """The filter of the kept pages' windows rules out no run whose payload a kept page carries
    (markup in it or not), and one gone, unreadable, cut short or covering another site is not
    taken: every kept page is read then, and a filter made of them. A clean build after the
    refused one adds its pages to the filter it found in use, or to the one its check made;
    either way the site has one that covers it, and a full build's bytes."""
    old = a_run_at(1)
    old["target_config"]["values"]["model"] = secret
    billing = write_json(a_run_at(2, suite="billing"), "billing.json")
    for path in (write_json(old, "old.json"), billing):
        assert runsite("import", "--root", str(archive), str(path)).exit_code == 0
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    record, covering = _windows(archive, site)
    assert covering is not None
    _undo(record, windows)
    published = {file: path.read_bytes() for file, path in _files(site).items()}
    new = a_run_at(3, suite="billing")
    new["results"][0]["responses"][0]["output"] = secret
    assert (
        runsite("import", "--root", str(archive), str(write_json(new, "new.json"))).exit_code == 0
    )
    incremental = _build(runsite, archive, site)
    assert incremental.exit_code == 64
    assert f"{site}/it/runs/acme/support/" in incremental.stderr
    assert "carries the payload of results[0].responses[0].output" in incremental.stderr
    assert {file: path.read_bytes() for file, path in _files(site).items()} == published
    git(archive, "reset", "--quiet", "--hard", "HEAD~1")
    grown = a_run_at(4, suite="billing")
    assert (
        runsite("import", "--root", str(archive), str(write_json(grown, "4.json"))).exit_code == 0
    )
    assert _build(runsite, archive, site).exit_code == 0
    after = _windows(archive, site)[1]
    assert after is not None
    assert (after == covering) == (windows == "in use")
    assert list(record.parent.glob(f"{record.stem}-*.bits")) == [after.path]
    assert _unlike_a_full_build(runsite, archive, site) == []


def test_a_page_whose_windows_a_rebuild_kept_apart_from_the_filter_is_sieved_for_new_runs(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    monkeypatch: pytest.MonkeyPatch,
):
    """A rebuild keeps the bits of the pages it wrote in a file beside the filter while they
    are few (``windows.APART``, lowered here so that a small site's are): the next rebuild's
    check takes them with the filter's, and finds the new run's payload on such a page."""
    monkeypatch.setattr(generator.guard.windows, "APART", 1)
    for path in (
        write_json(a_run_at(1), "1.json"),
        write_json(a_run_at(2, suite="billing"), "2.json"),
    ):
        assert runsite("import", "--root", str(archive), str(path)).exit_code == 0
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    showing = a_run_at(3)
    showing["target_config"]["values"]["model"] = SECRETS[0]
    assert (
        runsite("import", "--root", str(archive), str(write_json(showing, "3.json"))).exit_code == 0
    )
    assert _build(runsite, archive, site).exit_code == 0
    covering = _windows(archive, site)[1]
    assert covering is not None and covering.later
    new = a_run_at(4, suite="billing")
    new["results"][0]["responses"][0]["output"] = SECRETS[0]
    assert runsite("import", "--root", str(archive), str(write_json(new, "4.json"))).exit_code == 0
    found = leaks_confirmed(monkeypatch)
    assert _build(runsite, archive, site).exit_code == 64
    key = next(p.parent.name for p in (site / "runs/acme/support").glob("*10-00-03*/index.html"))
    pages = {f"{folder}runs/acme/support/{key}/index.html" for folder in ("", "it/")}
    assert pages <= {leak.file for leak in found}


def test_a_rebuild_adds_the_pages_it_writes_to_the_filter_of_the_pages_windows(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    """A rebuild sets the bits of the pages it wrote in the file of the filter it found, which
    then covers the site built; the other files of filters of the site go."""
    grown(1)
    grown(2, "billing")
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    record, first = _windows(archive, site)
    assert first is not None
    before = first.path.read_bytes()
    stray = record.parent / f"{record.stem}-0123456789abcdef.bits"
    stray.write_bytes(b"left by a build refused")
    grown(3)
    assert _build(runsite, archive, site).exit_code == 0
    added = _windows(archive, site)[1]
    assert added == first
    after = added.path.read_bytes()
    assert after != before
    assert all(a & b == b for a, b in zip(after, before, strict=True))
    assert list(record.parent.glob(f"{record.stem}-*.bits")) == [added.path]


def test_a_new_runs_payload_that_only_begins_like_a_kept_page_passes_as_in_a_full_build(
    archive: Path,
    runsite: Callable[..., Result],
    grown: Callable[..., None],
    write_json: Callable[[Any, str], Path],
    kept_sieve: None,
):
    """Every English page's header says "Initializing search": an answer that begins with the
    same 16 bytes makes each kept page a candidate, which the exact scan then lets go."""
    grown(1)
    grown(2, "billing")
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    run = a_run_at(3, suite="billing")
    run["results"][0]["responses"][0]["output"] = "Initializing search engines, please wait"
    assert (
        runsite("import", "--root", str(archive), str(write_json(run, "new.json"))).exit_code == 0
    )
    incremental = _build(runsite, archive, site)
    assert incremental.exit_code == 0, incremental.output
    assert _unlike_a_full_build(runsite, archive, site) == []


@pytest.mark.parametrize("whose", ["a run the kept sieve holds", "a run arrived since", "lost"])
def test_an_earlier_runs_payload_put_on_every_page_fails_a_build_that_maps_the_kept_sieve(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    monkeypatch: pytest.MonkeyPatch,
    whose: str,
):
    """A build takes the sieve the last full one kept, with a sieve of the runs it lacks (their
    keys from the cache, or from the runs where the cache lost them as the build began): a page
    written now that carries the payload of any of them is refused."""
    secrets = {"a run the kept sieve holds": "Mrs Jane Doe of 4 Privet Drive"}
    secrets["a run arrived since"] = secrets["lost"] = "Mr John Roe of 9 Elm Street"
    site = archive / "site"
    for n, secret in enumerate(secrets.values(), 1):
        run = a_run_at(n, suite="billing" if n == 2 else "support")
        run["results"][0]["responses"][0]["output"] = secret
        result = runsite("import", "--root", str(archive), str(write_json(run, f"{n}.json")))
        assert result.exit_code == 0, result.output
        assert _build(runsite, archive, site).exit_code == 0
    (archive / "mkdocs.yml").write_text(
        f"copyright: {json.dumps(secrets[whose])}\n", encoding="utf-8"
    )
    published = {file: path.read_bytes() for file, path in _files(site).items()}
    if whose == "lost":
        known = RunCache.known

        def known_then_lost(cache: RunCache) -> Known:
            found = known(cache)
            for keys in cache.folder.glob("*.keys"):
                keys.unlink()
            return found

        monkeypatch.setattr(RunCache, "known", known_then_lost)
    result = _build(runsite, archive, site)
    assert result.exit_code == 64
    assert "carries the payload of results[0].responses[0].output" in result.stderr
    assert {file: path.read_bytes() for file, path in _files(site).items()} == published
    (record,) = archive.glob(".runsite/cache/*/sieve")
    assert len(pickle.loads(record.read_bytes())[1]) == 1  # the first build's sieve, still


def test_a_kept_sieve_cut_short_is_made_anew_and_the_build_gives_a_full_builds_bytes(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    grown(1)
    grown(2, "billing")
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    (first,) = archive.glob(".runsite/cache/*/sieve-*/shard-*/first.npy")
    first.write_bytes(first.read_bytes()[:100])
    grown(3)
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert not first.exists()  # the sieve made anew is kept in its place
    assert _unlike_a_full_build(runsite, archive, site) == []


def _files(site: Path) -> dict[str, Path]:
    return {p.relative_to(site).as_posix(): p for p in site.rglob("*") if p.is_file()}


@pytest.mark.parametrize("undone", ["removed", "edited", "made a folder"])
def test_a_kept_page_undone_by_hand_makes_the_next_build_a_full_one(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None], undone: str
):
    """A page of the last build that is gone, or not what that build wrote, is not kept: the
    build writes everything again, as a full build would, instead of failing."""
    for second in (1, 2, 3):
        grown(second)
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    page = next((site / "runs/acme/support").glob("*10-00-01*/index.html"))
    if undone == "removed":
        page.unlink()
    elif undone == "edited":
        page.write_text("<p>edited by hand</p>", encoding="utf-8")
    else:
        page.unlink()
        page.mkdir()
    grown(4)
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert _unlike_a_full_build(runsite, archive, site) == []


def test_a_kept_page_edited_with_its_length_and_modify_time_kept_is_not_kept(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    """A page two builds left in place (the second signs it, unread since), then edited to
    bytes of the same length with its modify time set back: the next build still finds it is
    not what the last one wrote, and gives a full build's bytes."""
    for second in (1, 2, 3):
        grown(second)
    site = archive / "site"
    for _ in range(2):
        assert _build(runsite, archive, site).exit_code == 0
    page = next((site / "runs/acme/support").glob("*10-00-01*/index.html"))
    before = page.stat()
    page.write_bytes(page.read_bytes().replace(b"<p>", b"<i>", 1))
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (page.stat().st_ino, page.stat().st_size) == (before.st_ino, before.st_size)
    grown(4)
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert _unlike_a_full_build(runsite, archive, site) == []


@pytest.mark.parametrize("since", [1, 10**9], ids=["beside", "whole"])
def test_a_page_a_rebuild_placed_then_edited_with_its_length_and_times_kept_is_not_kept(
    archive: Path,
    runsite: Callable[..., Result],
    grown: Callable[..., None],
    monkeypatch: pytest.MonkeyPatch,
    since: int,
):
    """A rebuild keeps the signatures of the files it placed beside those kept before, or
    writes them all again: either way, a page it placed, edited since to bytes of its length
    with its modify time set back, is found not to be what it wrote."""
    monkeypatch.setattr(generator.publish.records, "SINCE", since)
    for second in (1, 2):
        grown(second)
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    for second in (3, 4):
        grown(second)
        assert _build(runsite, archive, site).exit_code == 0
    signatures = next((archive / ".runsite").rglob("sites/*.delta"), None)
    assert (signatures is not None) == (since == 1)
    page = next((site / "runs/acme/support").glob("*10-00-03*/index.html"))
    before = page.stat()
    page.write_bytes(page.read_bytes().replace(b"<p>", b"<i>", 1))
    os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    grown(5)
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert _unlike_a_full_build(runsite, archive, site) == []


def test_a_file_altered_by_hand_that_the_build_makes_again_as_before_is_put_back(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    """The home page and a stylesheet, edited by hand: the next build makes both in the bytes
    the last one did, and puts them back, though nothing moved in the archive."""
    for second in (1, 2):
        grown(second)
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    stylesheet = next((site / "assets" / "stylesheets").glob("*.css"))
    for edited in (site / "index.html", stylesheet):
        edited.write_bytes(edited.read_bytes().replace(b"<", b"<!-- edited --><", 1))
    result = _build(runsite, archive, site)
    assert result.exit_code == 0, result.output
    assert "(0 written, " in result.stdout
    assert _unlike_a_full_build(runsite, archive, site) == []


def test_a_new_targets_run_writes_the_boards_again_and_gives_a_full_builds_bytes(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    """A board is kept like a suite's page: written again when its suite's history moved (a new
    target joins it), kept when another suite's did, and the same bytes as a full build."""

    def arrive(second: int, model: str, suite: str = "support") -> None:
        document = a_run_at(
            second, suite=suite, target_config={"values": {"provider": "local", "model": model}}
        )
        path = write_json(document, f"run-{suite}-{second}.json")
        assert runsite("import", "--root", str(archive), str(path)).exit_code == 0

    arrive(1, "big")
    arrive(2, "small")
    arrive(3, "big", "billing")
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    boards = {f"{language}boards/acme/support/index.html" for language in ("", "it/")}
    assert all((site / board).exists() for board in boards)
    assert not (site / "boards/acme/billing").exists()
    before = _inodes(site)
    arrive(4, "mid")
    assert _build(runsite, archive, site).exit_code == 0
    changed = {file for file, inode in _inodes(site).items() if before.get(file) != inode}
    assert boards <= changed
    assert "local/mid" in (site / "boards/acme/support/index.html").read_text()
    assert _unlike_a_full_build(runsite, archive, site) == []
    before = _inodes(site)
    arrive(5, "small", "billing")
    assert _build(runsite, archive, site).exit_code == 0
    changed = {file for file, inode in _inodes(site).items() if before.get(file) != inode}
    assert not boards & changed
    assert (site / "boards/acme/billing/index.html").exists()
    assert _unlike_a_full_build(runsite, archive, site) == []


def test_a_run_committed_under_a_key_its_created_at_does_not_say_is_refused_naming_it(
    archive: Path, runsite: Callable[..., Result], grown: Callable[..., None]
):
    """A run's key is made of its ``created_at``, and a build orders a suite's runs by the
    moments their keys say: a document whose ``created_at`` is another moment (edited, and
    committed by hand) refuses the build, naming its file and the key, and nothing is
    published."""
    grown(1)
    grown(2)
    site = archive / "site"
    assert _build(runsite, archive, site).exit_code == 0
    published = {file: path.read_bytes() for file, path in _files(site).items()}
    (path,) = (archive / "runs/acme/support").glob("*10-00-02*.json")
    run = json.loads(path.read_text(encoding="utf-8"))
    run["created_at"] = run["created_at"].replace("10:00:02", "09:59:59")
    path.write_text(json.dumps(run), encoding="utf-8")
    git(archive, "commit", "--quiet", "--all", "--message", "created_at edited")
    refused = _build(runsite, archive, site)
    assert refused.exit_code == 64, refused.stderr
    assert refused.stderr.count("\n") == 1
    assert f"runs/acme/support/{path.name}" in refused.stderr and "created_at" in refused.stderr
    assert {file: path.read_bytes() for file, path in _files(site).items()} == published


def test_a_broken_document_refuses_a_build_of_two_processes_naming_it(
    archive: Path, grown: Callable[..., None]
):
    """A refusal raised where a process reads the runs reaches the build whole: pickled as its
    message alone, it could not be made again there, and the build waited for ever."""
    for second in range(1, 4):
        grown(second, "support")
        grown(second, "billing")
    broken = next(archive.glob("runs/**/billing/*.json"))
    document = json.loads(broken.read_text(encoding="utf-8"))
    document["created_at"] = "yesterday"
    broken.write_text(json.dumps(document), encoding="utf-8")
    git(archive, "commit", "-qam", "A run edited by hand")
    out = archive.parent / "site"
    command = ["build", "--root", str(archive), "--out", str(out), "--jobs", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "generator", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    relative = broken.relative_to(archive).as_posix()
    assert done.returncode == 64, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"runsite: {relative}: created_at: not an ISO-8601 timestamp"
    ]
    assert not out.exists()
