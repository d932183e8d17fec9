"""A SIGKILL at any point of an import, and imports racing each other, lose nothing.

Real processes against a real repository: ``RUNSITE_CRASH_AT`` makes an import kill itself
with SIGKILL at a named point of its commit, and the next command must find the archive either
as before or with the whole batch committed, then finish cleanly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from tests._helpers import a_run_at, git
from tests.conftest import GIT_ENVIRONMENT

CRASH_POINTS = ["blobs", "journal", "ref", "partial", "file", "index"]
"""Every point in ``GitStore.commit``: before and after the branch moves, mid-tree, at the end."""


def _runsite(root, *args, crash_at=None):
    env = {**os.environ, **GIT_ENVIRONMENT}
    env.pop("RUNSITE_CRASH_AT", None)
    if crash_at:
        env["RUNSITE_CRASH_AT"] = crash_at
    return subprocess.Popen(
        [sys.executable, "-m", "generator", *args, "--root", str(root)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _done(process):
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def _documents(tmp_path, seconds, folder="incoming"):
    where = tmp_path / folder
    where.mkdir()
    for second in seconds:
        (where / f"run{second}.json").write_text(json.dumps(a_run_at(second)), encoding="utf-8")
    return where


def _keys(root):
    return sorted(path.stem for path in (root / "runs").glob("*/*/*.json"))


def _clean(root):
    assert git(root, "status", "--porcelain", "--untracked-files=all", "--ignored") == ""
    fsck = subprocess.run(
        ["git", "fsck", "--strict", "--no-dangling"], cwd=root, capture_output=True, text=True
    )
    assert (fsck.returncode, fsck.stdout, fsck.stderr) == (0, "", "")
    assert not (root / ".git" / "index.lock").exists()


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_an_import_killed_at_any_point_is_completed_by_the_next_one(tmp_path, archive, point):
    incoming = _documents(tmp_path, range(1, 7))
    before = git(archive, "rev-parse", "HEAD").strip()

    code, _, _ = _done(_runsite(archive, "import", str(incoming), crash_at=point))
    assert code == -signal.SIGKILL
    head = git(archive, "rev-parse", "HEAD").strip()
    committed = head != before
    assert committed == (point in ("ref", "partial", "file", "index"))
    if point == "partial":
        assert len(list((archive / "runs").rglob(".*.json.partial"))) == 1
    if committed:
        assert git(archive, "rev-list", "--count", f"{before}..HEAD") == "1\n"
        assert len(git(archive, "ls-tree", "-r", "--name-only", "HEAD", "runs/acme")) > 0

    code, out, err = _done(_runsite(archive, "import", str(incoming)))
    assert (code, err) == (0, "")
    arrived = 0 if committed else 6
    assert out.splitlines()[-1] == f"{arrived} archived, {6 - arrived} already there"
    assert git(archive, "rev-list", "--count", f"{before}..HEAD") == "1\n"
    assert len(_keys(archive)) == 6
    _clean(archive)


def test_a_kill_after_the_branch_moved_is_repaired_by_any_next_command(tmp_path, archive):
    incoming = _documents(tmp_path, range(1, 4))
    _done(_runsite(archive, "import", str(incoming), crash_at="ref"))
    assert _keys(archive) == []

    code, out, _ = _done(_runsite(archive, "list"))
    assert code == 0
    assert len(out.splitlines()) == 3
    assert len(_keys(archive)) == 3
    _clean(archive)


def test_an_index_lock_left_by_a_killed_refresh_does_not_block_the_next_command(tmp_path, archive):
    incoming = _documents(tmp_path, range(1, 4))
    _done(_runsite(archive, "import", str(incoming), crash_at="ref"))
    (archive / ".git" / "index.lock").write_bytes(b"")

    code, _, err = _done(_runsite(archive, "import", str(_documents(tmp_path, [9], "more"))))
    assert (code, err) == (0, "")
    assert len(_keys(archive)) == 4
    _clean(archive)


def test_four_imports_started_at_once_archive_everything(tmp_path, archive):
    batches = [_documents(tmp_path, range(n * 10, n * 10 + 8), f"batch{n}") for n in range(4)]
    before = git(archive, "rev-parse", "HEAD").strip()

    processes = [_runsite(archive, "import", str(batch)) for batch in batches]
    results = [_done(process) for process in processes]

    assert [(code, err) for code, _, err in results] == [(0, "")] * 4
    assert [out.splitlines()[-1] for _, out, _ in results] == ["8 archived, 0 already there"] * 4
    assert git(archive, "rev-list", "--count", f"{before}..HEAD") == "4\n"
    assert len(_keys(archive)) == 32
    _clean(archive)
