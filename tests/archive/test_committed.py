"""The archive is what HEAD holds: a file dropped into runs/, an edit never committed, a symbolic
link out of runs/ or a baseline linked to a system file is neither listed, shown nor published;
and the archive says how its working tree differs from HEAD."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.archive import Archive
from tests._helpers import a_run_at, git, read_only

OUTSIDE = "MARKoutsideQ30"
UNCOMMITTED = "MARKuncommittedQ31"
UNTRACKED = "MARKuntrackedQ32"
SYSTEM = "MARKsystemfileQ33"


def _imported(runsite, root: Path, write_json, *runs: dict[str, object]) -> list[Path]:
    paths = [write_json(run, f"in{n}.json") for n, run in enumerate(runs)]
    result = runsite("import", "--root", str(root), *map(str, paths))
    assert result.exit_code == 0, result.output
    return sorted((root / "runs" / "acme" / "support").glob("*.json"))


def _tamper(root: Path, tmp_path: Path, committed: list[Path]) -> None:
    """Every way the working tree can differ from HEAD, each carrying a marker of its own; the
    baseline is linked to a file outside the archive, as it could be to /etc/passwd."""
    edited = json.loads(committed[0].read_text())
    edited["environment"] = UNCOMMITTED
    committed[0].write_text(json.dumps(edited))
    untracked = a_run_at(30, environment=UNTRACKED)
    key = "2026-12-01T10-00-30-000000-00-00-b2a55669ae7e0169"
    (root / "runs" / "acme" / "support" / f"{key}.json").write_text(json.dumps(untracked))
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(a_run_at(40, suite="linked", environment=OUTSIDE)))
    (root / "runs" / "acme" / "linked").mkdir()
    key = "2026-12-01T10-00-40-000000-00-00-b2a55669ae7e0169"
    (root / "runs" / "acme" / "linked" / f"{key}.json").symlink_to(outside)
    baseline = root / "runs" / "acme" / "support" / "baseline"
    baseline.unlink()
    system = tmp_path / "passwd"
    system.write_text(f"{SYSTEM}\n")
    baseline.symlink_to(system)


@pytest.fixture
def tampered(runsite, archive, write_json, tmp_path) -> Path:
    committed = _imported(runsite, archive, write_json, a_run_at(1), a_run_at(2))
    assert runsite("baseline", "set", "latest", "--root", str(archive)).exit_code == 0
    _tamper(archive, tmp_path, committed)
    return Path(archive)


def test_list_and_show_read_the_runs_head_holds_not_the_working_tree(runsite, tampered):
    listed = json.loads(runsite("list", "--json", "--root", str(tampered)).stdout)
    assert [(e["suite"], e["created_at"][11:19], e["baseline"]) for e in listed] == [
        ("support", "10:00:02", True),
        ("support", "10:00:01", False),
    ]
    shown = runsite("show", "latest~1", "--json", "--root", str(tampered))
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["environment"] == "staging"


def test_a_document_is_read_as_head_holds_it(tampered):
    archive = Archive(tampered)
    runs, baselines = archive.runs()
    assert baselines == {("acme", "support"): runs[0].key}
    assert [archive.document(run).run.environment for run in runs] == ["staging", "staging"]


def test_the_build_publishes_nothing_the_working_tree_adds_or_changes(runsite, tampered):
    result = runsite("build", "--root", str(tampered), "--out", str(tampered / "site"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2 runs, ")
    assert "runs/ differs from HEAD (2 files not committed, 2 changed)" in result.stderr
    site = b"".join(p.read_bytes() for p in (tampered / "site").rglob("*") if p.is_file())
    for marker in (OUTSIDE, UNCOMMITTED, UNTRACKED, SYSTEM):
        assert marker.encode() not in site, marker


def test_a_working_tree_file_is_read_only_where_it_is_the_committed_blob(
    runsite, archive, write_json
):
    """The build reads a document from the working tree where the file there hashes to HEAD's
    blob; an edit of the same size, or a file that is not a regular one (a FIFO, which a plain
    read would wait on forever), is passed over for what HEAD holds."""
    edited, other = _imported(runsite, archive, write_json, a_run_at(1), a_run_at(2))
    edited.write_bytes(edited.read_bytes().replace(b'"staging"', b'"MARKq34"'))
    other.unlink()
    os.mkfifo(other)
    result = runsite("build", "--root", str(archive), "--out", str(archive / "site"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2 runs, ")
    pages = [p.read_bytes() for p in (archive / "site" / "runs").rglob("index.html")]
    assert len(pages) == 2
    assert all(b"staging" in page and b"MARKq34" not in page for page in pages)


def test_the_archive_says_how_its_working_tree_differs_from_head(tampered):
    drift = Archive(tampered).drift()
    support = "runs/acme/support"
    assert drift.added == (
        "runs/acme/linked/2026-12-01T10-00-40-000000-00-00-b2a55669ae7e0169.json",
        f"{support}/2026-12-01T10-00-30-000000-00-00-b2a55669ae7e0169.json",
    )
    assert drift.changed == (
        f"{support}/2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169.json",
        f"{support}/baseline",
    )
    assert drift.removed == ()
    assert str(drift) == (
        "runs/ differs from HEAD (2 files not committed, 2 changed); "
        "what HEAD holds is what is read"
    )


def test_a_clean_working_tree_has_no_drift(runsite, archive, write_json):
    _imported(runsite, archive, write_json, a_run_at(1))
    drift = Archive(archive).drift()
    assert not drift
    (archive / "runs" / "acme" / "support" / "baseline").write_text("nothing\n")
    os.remove(next((archive / "runs" / "acme" / "support").glob("*.json")))
    drift = Archive(archive).drift()
    assert drift.removed == (
        "runs/acme/support/2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169.json",
    )
    assert str(drift) == (
        "runs/ differs from HEAD (1 file not committed, 1 removed); what HEAD holds is what is read"
    )


def test_a_symbolic_link_committed_in_runs_is_refused_by_name(runsite, archive, write_json):
    _imported(runsite, archive, write_json, a_run_at(1))
    baseline = archive / "runs" / "acme" / "support" / "baseline"
    baseline.symlink_to("/etc/hostname")
    git(archive, "add", "runs")
    git(archive, "commit", "-qm", "a link")
    result = runsite("list", "--root", str(archive))
    assert result.exit_code == 64
    assert result.stderr == (
        "runsite: runs/acme/support/baseline: a symbolic link committed in runs/, where runsite "
        "reads only the files it writes; git rm it\n"
    )


def test_what_each_document_says_of_itself_is_remembered_by_blob_and_a_damaged_record_is_none(
    runsite, archive, write_json
):
    _imported(runsite, archive, write_json, a_run_at(1), a_run_at(2))
    first = runsite("list", "--json", "--root", str(archive)).stdout
    remembered = archive / ".git" / "runsite-catalog.json"
    blobs = git(archive, "ls-tree", "-r", "--format=%(objectname)", "HEAD", "runs/acme").split()
    assert sorted(json.loads(remembered.read_text())) == sorted(blobs[:2])
    remembered.write_text('{"' + blobs[0] + '": ["0001-01-01T00:00:00+14:00", 23]}')
    assert runsite("list", "--json", "--root", str(archive)).stdout == first
    remembered.write_bytes(b"\x00not json")
    assert runsite("list", "--json", "--root", str(archive)).stdout == first


def test_an_archive_that_may_only_be_read_is_read_and_a_write_refused_in_one_line(
    runsite, archive, write_json
):
    _imported(runsite, archive, write_json, a_run_at(1), a_run_at(2))
    with read_only(archive) as checkout:
        listed = runsite("list", "--json", "--root", str(checkout))
        shown = runsite("show", "latest", "--json", "--root", str(checkout))
        explained = runsite("explain", "support@latest", "--root", str(checkout))
        refused = runsite("baseline", "set", "latest", "--root", str(checkout))
    assert listed.exit_code == 0, listed.output
    assert [len(json.loads(listed.stdout)), shown.exit_code, explained.exit_code] == [2, 0, 0]
    assert refused.exit_code == 64
    assert refused.stderr.startswith(
        f"runsite: {checkout / '.git'}: the archive cannot be written here ("
    )
    assert len(refused.stderr.splitlines()) == 1, refused.stderr
    assert git(archive, "log", "--format=%s") == "Import 2 runs\nStart a runsite archive\n"


def _stat_data(root: Path, index: Path) -> dict[str, int]:
    """The inode an index records of each file under runs/: what git tells a file unchanged by,
    without reading it."""
    listing = subprocess.run(
        ["git", "ls-files", "--debug", "runs"],
        cwd=root,
        env={**os.environ, "GIT_INDEX_FILE": str(index)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found, path = {}, ""
    for line in listing.splitlines():
        if not line.startswith(" "):
            path = line
        elif line.strip().startswith("dev:"):
            found[path] = int(line.split("ino:")[1])
    return found


def test_a_copied_archive_is_read_for_its_drift_once_and_its_real_index_is_left_alone(
    runsite, archive, write_json, tmp_path
):
    _imported(runsite, archive, write_json, a_run_at(1), a_run_at(2))
    copy = tmp_path / "copy"
    shutil.copytree(archive, copy, symlinks=True)
    real = (copy / ".git" / "index").read_bytes()
    files = {
        p.relative_to(copy).as_posix(): p.stat().st_ino
        for p in (copy / "runs").rglob("*")
        if p.is_file()
    }
    assert _stat_data(copy, copy / ".git" / "index").items().isdisjoint(files.items())

    assert not Archive(copy).drift()
    assert _stat_data(copy, copy / ".git" / "runsite-status.index") == files
    assert (copy / ".git" / "index").read_bytes() == real
    edited = next((copy / "runs" / "acme" / "support").glob("*.json"))
    edited.write_text(edited.read_text() + " ")
    (copy / "runs" / "acme" / "support" / "new.json").write_text("{}")
    drift = Archive(copy).drift()
    assert [drift.added, drift.changed] == [
        ("runs/acme/support/new.json",),
        (edited.relative_to(copy).as_posix(),),
    ]
    assert (copy / ".git" / "index").read_bytes() == real


def test_drift_is_told_after_a_killed_status_left_its_index_damaged_and_locked(
    runsite, archive, write_json
):
    _imported(runsite, archive, write_json, a_run_at(1))
    assert not Archive(archive).drift()
    (archive / ".git" / "runsite-status.index").write_bytes(b"DIRC\x00cut short")
    (archive / ".git" / "runsite-status.index.lock").write_bytes(b"")
    os.remove(next((archive / "runs" / "acme" / "support").glob("*.json")))
    assert Archive(archive).drift().removed == (
        "runs/acme/support/2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169.json",
    )
    head = set(git(archive, "ls-tree", "-r", "--name-only", "HEAD", "runs").split())
    assert set(_stat_data(archive, archive / ".git" / "runsite-status.index")) == head
    assert not (archive / ".git" / "runsite-status.index.lock").exists()
    with read_only(archive) as checkout:
        assert Archive(checkout).drift().removed == (
            "runs/acme/support/2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169.json",
        )
