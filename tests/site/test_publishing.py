"""Putting a site in place: builds to one folder take turns, no staging folder outlives a
build, and runsite never touches a folder it did not make."""

from __future__ import annotations

import errno
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

import generator.publish.cache
from generator.account.board import Contender
from generator.account.tally import Counts, Tally
from generator.guard.sieve import payload_keys
from generator.guard.signatures import read_signed, recorded
from generator.publish.cache import Learnt, RunCache
from generator.publish.plan import page_job
from generator.publish.processes import in_a_process
from generator.site.summary import RunSummary
from tests._helpers import a_run_at, mounted, read_only

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""


def _archive_with_runs(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
) -> Path:
    for second in (1, 2):
        path = write_json(a_run_at(second), f"{second}.json")
        assert runsite("import", "--root", str(archive), str(path)).exit_code == 0
    return archive


def _files(folder: Path) -> list[tuple[Path, bytes]]:
    """Each file under ``folder`` with its bytes, in order."""
    return [
        (p.relative_to(folder), p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()
    ]


def test_builds_to_one_folder_at_once_all_succeed_one_after_the_other(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    git_environment: Any,
):
    _archive_with_runs(archive, runsite, write_json)
    out = archive.parent / "public"
    command = [
        sys.executable,
        "-m",
        "generator",
        "build",
        "--root",
        str(archive),
        "--out",
        str(out),
    ]
    builds = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ)
        for _ in range(4)
    ]
    results = [(build.wait(), build.stderr.read() if build.stderr else b"") for build in builds]
    assert [code for code, _ in results] == [0, 0, 0, 0], results
    assert (out / "index.html").is_file()
    assert not list(archive.parent.glob(".runsite-public-*"))


def test_a_killed_builds_staging_is_removed_and_a_users_folder_beside_the_site_kept(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _archive_with_runs(archive, runsite, write_json)
    out = archive.parent / "public"
    leftover = archive.parent / ".runsite-public-k2x9_q7w"  # as tempfile named it in earlier builds
    (leftover / "site").mkdir(parents=True)
    (leftover / "site" / "index.html").write_text("half a site")
    mine = archive.parent / ".public.old"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    assert runsite("build", "--root", str(archive), "--out", str(out)).exit_code == 0
    assert runsite("build", "--root", str(archive), "--out", str(out), "--full").exit_code == 0
    assert not leftover.exists()
    assert (mine / "notes.txt").read_text() == "keep me"
    assert (out / "index.html").is_file()


def test_a_build_leaves_alone_the_staging_of_a_site_whose_name_starts_like_its_own(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    """``public-x``'s build stages in ``.runsite-public-x-…``, which a build of ``public``
    beside it took for its own leftover and removed, under its own lock, mid-build."""
    _archive_with_runs(archive, runsite, write_json)
    other = archive.parent / ".runsite-public-x-0123456789abcdef"
    (other / "site").mkdir(parents=True)
    public = archive.parent / "public"
    assert runsite("build", "--root", str(archive), "--out", str(public)).exit_code == 0
    assert (public / "index.html").is_file()
    assert sorted(archive.parent.glob(".runsite-public*")) == [other]
    assert (other / "site").is_dir()


def test_ctrl_c_stops_a_build_in_one_line_exit_130_and_leaves_the_previous_site(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _archive_with_runs(archive, runsite, write_json)
    out = archive.parent / "public"
    assert runsite("build", "--root", str(archive), "--out", str(out)).exit_code == 0
    before = _files(out)
    command = ["build", "--root", str(archive), "--out", str(out), "--full"]
    build = subprocess.Popen(
        [sys.executable, "-m", "generator", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        # Ctrl-C as a terminal sends it, even where the tests run with SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Interrupted once it is building: its staging folder is there, mkdocs still to run.
    while build.poll() is None and not list(archive.parent.glob(".runsite-public-*")):
        time.sleep(0.005)
    build.send_signal(signal.SIGINT)
    said = build.communicate(timeout=60)[1].decode()
    assert (build.returncode, said.strip()) == (130, "runsite: interrupted")
    assert _files(out) == before
    assert not list(archive.parent.glob(".runsite-public-*"))


def test_a_build_for_files_leaves_the_web_builds_cache_alone(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    """Two builds of one archive, one for the web and one for files (as ``make -j`` would run
    them), each keep what they learnt: neither removes the other's cache while it may be
    writing to it (it used to, and the build writing to it failed with an internal error)."""
    _archive_with_runs(archive, runsite, write_json)
    web, files = archive.parent / "web", archive.parent / "files"
    assert runsite("build", "--root", str(archive), "--out", str(web)).exit_code == 0
    assert (
        runsite("build", "--root", str(archive), "--out", str(files), "--for-files").exit_code == 0
    )
    kept = sorted(p for p in (archive / ".runsite" / "cache").iterdir() if p.is_dir())
    assert len(kept) == 2
    assert all(any(folder.glob("*.pack")) for folder in kept)


def test_a_cache_removed_while_a_build_writes_to_it_is_made_again_out_of_git(tmp_path: Path):
    """Losing the cache costs only time, even in the middle of a build (``git clean -fdx``)."""
    cache = RunCache(tmp_path, "digest")
    shutil.rmtree(tmp_path / ".runsite")
    cache.keep_text("acme.support.en", "inputs", "<p>the suite</p>")
    assert cache.text("acme.support.en", "inputs") == "<p>the suite</p>"
    assert (tmp_path / ".runsite" / ".gitignore").read_text() == "*\n"


def _learnt(key: str) -> Learnt:
    tally = Tally(Counts(1, 0, 0), 1, 0)
    contender = Contender(
        "acme",
        "support",
        key,
        "2026-06-01T00:00:00+00:00",
        "c",
        "",
        "",
        (),
        tally,
        (),
        (),
        None,
        "unknown",
        None,
    )
    summary = RunSummary(contender, None, (), "")
    return summary, payload_keys([f"the payload of run {key}"])


def test_the_cache_knows_what_each_build_kept_and_merges_its_packs_past_packs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Each build's processes add a pack; past ``PACKS`` the next build merges them into one,
    and a pack that cannot be read (cut short, or not a pack at all) costs only its runs."""
    monkeypatch.setattr(generator.publish.cache, "PACKS", 3)
    cache = RunCache(tmp_path, "digest")
    for n in range(3):
        cache.keep(
            {f"blob{n}": _learnt(f"run{n}")}, {(f"blob{n}", "reference"): n}, {f"blob{n}": n}
        )
    (cache.folder / "0000.pack").write_bytes(b"not a pack")
    assert cache.crowded is False
    known = cache.known()
    assert cache.crowded
    cache.merge(known)
    created, worse, sizes = cache.known()
    assert not cache.crowded
    assert sorted(created) == ["blob0", "blob1", "blob2"]
    assert created["blob1"] == _learnt("run1")[0].created_at
    assert cache.summaries(["blob1"]) == {"blob1": _learnt("run1")[0]}
    assert (cache.keys(["blob1"])["blob1"] == _learnt("run1")[1]).all()
    assert worse == {
        ("blob0", "reference"): 0,
        ("blob1", "reference"): 1,
        ("blob2", "reference"): 2,
    }
    assert sizes == {"blob0": 0, "blob1": 1, "blob2": 2}
    assert len(list(cache.folder.glob("*.pack"))) == 1
    again = RunCache(tmp_path, "digest")
    assert again.known() == (created, worse, sizes)
    assert again.summaries(["blob0", "blob2"]) == {
        "blob0": _learnt("run0")[0],
        "blob2": _learnt("run2")[0],
    }
    assert (again.keys(["blob2"])["blob2"] == _learnt("run2")[1]).all()


def test_packs_merged_by_another_process_are_the_ones_this_one_then_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A build that works in processes merges the packs in one of its own
    (``processes.in_a_process``), then knows the runs from the merged packs."""
    monkeypatch.setattr(generator.publish.cache, "PACKS", 2)
    cache = RunCache(tmp_path, "digest")
    for n in range(3):
        cache.keep({f"blob{n}": _learnt(f"run{n}")}, {}, {f"blob{n}": n})
    known = cache.known()
    in_a_process(partial(cache.merge, known))
    assert cache.known() == known
    assert not cache.crowded
    assert len(list(cache.folder.glob("*.pack"))) == 1
    assert cache.summaries(["blob2"]) == {"blob2": _learnt("run2")[0]}


def test_a_page_job_gives_the_path_it_was_made_of():
    """A page's path is not held but made again of its file, in every language's folder."""
    for folder in ("", "it/"):
        for path in ("runs/acme/s/k.md", "diffs/acme/s/k/o.md", "suites/acme/s/older/0.md"):
            job = page_job("it", folder, "run", path, "digest")
            assert (job.path, job.file) == (path, f"{folder}{path[:-3]}/index.html")


def test_merged_packs_hold_a_shard_of_runs_each_and_full_ones_stay_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A merge never holds more keys than a shard's: the small packs become packs of ``SHARD``
    runs, and a pack already that full is left alone, so an archive of many runs is never
    merged whole."""
    monkeypatch.setattr(generator.publish.cache, "PACKS", 3)
    monkeypatch.setattr(generator.publish.cache, "SHARD", 2)
    cache = RunCache(tmp_path, "digest")
    full = cache.keep({f"blob{n}": _learnt(f"run{n}") for n in (8, 9)}, {}, {})
    for n in range(3):
        cache.keep({f"blob{n}": _learnt(f"run{n}")}, {}, {})
    cache.merge(cache.known())
    created, _, _ = cache.known()
    assert sorted(created) == ["blob0", "blob1", "blob2", "blob8", "blob9"]
    assert full is not None and full.is_file()
    sizes = sorted(len(pickle.loads(p.read_bytes())) for p in cache.folder.glob("*.keys"))
    assert sizes == [1, 2, 2]
    again = RunCache(tmp_path, "digest")
    assert again.known().created == created
    for blob in created:
        assert again.summaries([blob]) == {blob: _learnt(f"run{blob[4:]}")[0]}
        assert (again.keys([blob])[blob] == _learnt(f"run{blob[4:]}")[1]).all()


def test_a_pack_whose_keys_are_lost_costs_only_its_runs(tmp_path: Path):
    """A run the cache knows is one whose keys it still holds: the build reads the others."""
    cache = RunCache(tmp_path, "digest")
    cache.keep({"blob0": _learnt("run0")}, {}, {})
    cache.keep({"blob1": _learnt("run1")}, {}, {})
    lost = next(path for path in cache.folder.glob("*.keys") if b"blob0" in path.read_bytes())
    lost.unlink()
    assert sorted(RunCache(tmp_path, "digest").known().created) == ["blob1"]


def test_a_pack_cut_short_in_its_summaries_still_gives_its_runs_moments_and_sizes(
    tmp_path: Path,
):
    """A pack's head (when each run was measured, its size) is read without its summaries:
    cut short after the head, the cache still knows the runs, and gives no summary of theirs,
    which the build then makes again from the runs (``again.summaries_of``)."""
    cache = RunCache(tmp_path, "digest")
    keys = cache.keep({"blob0": _learnt("run0")}, {}, {"blob0": 380_000})
    assert keys is not None
    pack = keys.with_suffix(".pack")
    with pack.open("rb") as packed:
        pickle.load(packed)
        head = packed.tell()
    pack.write_bytes(pack.read_bytes()[: head + 10])
    again = RunCache(tmp_path, "digest")
    known = again.known()
    assert known.created == {"blob0": _learnt("run0")[0].created_at}
    assert known.sizes == {"blob0": 380_000}
    assert again.summaries(["blob0"]) == {}


def test_signatures_kept_beside_the_others_are_written_whole_past_one_in_eight_files(
    tmp_path: Path,
):
    """A build's signatures go beside those kept until they come to one for every ``SINCE``
    files of the site; then all are written in one file, but those of files the site no
    longer has. What a check reads is the same either way (``kept.recorded``)."""
    cache = RunCache(tmp_path, "digest")
    out = tmp_path / "site"
    files = [f"runs/{n}/index.html" for n in range(16)]
    signed = {file: bytes([n]) * 72 for n, file in enumerate(files)}
    records = cache.site(out)
    records.keep_signatures(signed, files)
    path = records.signatures
    assert not path.with_suffix(".delta").exists()
    assert recorded(path) == signed
    newer = {files[0]: b"e" * 72}
    records.keep_signatures(newer, files)
    assert read_signed(path.with_suffix(".delta")) == newer
    assert recorded(path) == signed | newer
    gone = files[1:4]
    after = [file for file in files if file not in gone]
    more = {file: bytes([100 + n]) * 72 for n, file in enumerate(files[4:6])}
    records.keep_signatures(more, after)  # three signatures since, against 13 files
    assert not path.with_suffix(".delta").exists()
    assert recorded(path) == {file: (signed | newer | more)[file] for file in after}


def test_an_out_inside_a_file_is_refused_in_one_line(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _archive_with_runs(archive, runsite, write_json)
    (archive.parent / "notes.txt").write_text("not a folder")
    out = archive.parent / "notes.txt" / "public"
    result = runsite("build", "--root", str(archive), "--out", str(out))
    assert (result.exit_code, result.stderr) == (
        64,
        f"runsite: {archive.parent / 'notes.txt'}: not a folder, so --out {out} cannot be "
        "inside it\n",
    )


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of 1 MiB of its own."""
    with mounted(tmp_path / "small", ["-t", "tmpfs", "-o", "size=1m", "tmpfs"]) as place:
        yield place


def test_a_full_disk_is_said_in_one_line_exit_74_and_publishes_nothing(
    archive: Path,
    runsite: Callable[..., Result],
    write_json: Callable[[Any, str], Path],
    small_disk: Path,
):
    _archive_with_runs(archive, runsite, write_json)
    result = runsite("build", "--root", str(archive), "--out", str(small_disk / "public"))
    assert (result.exit_code, result.stderr) == (
        74,
        "runsite: no space left on the device; make room and run it again\n",
    )
    assert [p.name for p in small_disk.iterdir()] == [".public.runsite-lock"]


def test_a_build_leaves_no_file_open(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    """Each chunk of runs staged its pages' bodies in a file it never closed: one descriptor a
    chunk, which a worker of a large enough archive runs out of."""
    _archive_with_runs(archive, runsite, write_json)
    out = archive.parent / "public"
    assert runsite("build", "--root", str(archive), "--out", str(out)).exit_code == 0
    folder = Path(f"/proc/{os.getpid()}/fd")
    opened = [target for fd in folder.iterdir() if (target := _target(fd)) is not None]
    assert not [t for t in opened if t.startswith(str(archive.parent))], opened


def _target(descriptor: Path) -> str | None:
    try:
        return os.readlink(descriptor)
    except OSError:  # the descriptor that listed the folder, closed since
        return None


def test_an_archive_the_build_may_only_read_is_built_the_same_without_a_cache(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    _archive_with_runs(archive, runsite, write_json)
    shutil.rmtree(archive / ".runsite", ignore_errors=True)
    written = archive.parent / "written"
    with read_only(archive) as checkout:
        result = runsite("build", "--root", str(checkout), "--out", str(written))
    assert result.exit_code == 0, result.output
    reason = os.strerror(errno.EROFS if os.geteuid() == 0 else errno.EACCES)
    assert result.stderr.splitlines()[-1] == (
        f"runsite: {checkout / '.runsite'}: {reason}, "
        "so nothing is kept for the next build, which will read every run again"
    )
    kept = archive.parent / "kept"
    assert runsite("build", "--root", str(archive), "--out", str(kept)).exit_code == 0
    assert _files(kept) == _files(written)
