"""Without git on PATH, every command that needs the archive's repository says so in one line,
exit 64, and never with a traceback; a command that reads a document alone still works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._helpers import a_run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MISSING = (
    "runsite: git: not found on PATH; runsite keeps the archive in a git repository, "
    "so it needs git\n"
)


def _without_git(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``runsite ARGS`` in a process whose PATH holds no git."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT")}
    environment["PATH"] = str(empty)
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        check=False,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["init", "evals"],
        ["list", "--root", "{archive}"],
        ["import", "--root", "{archive}", "{run}"],
        ["show", "latest", "--root", "{archive}"],
        ["build", "--root", "{archive}"],
        ["run", str(EXAMPLES / "classifier" / "suite.toml"), "--no-archive", "--out", "x.json"],
    ],
    ids=lambda command: command[0],
)
def test_every_command_that_needs_git_says_so_in_one_line(archive, tmp_path, command):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(a_run()))
    args = [part.format(archive=archive, run=run) for part in command]
    done = _without_git(tmp_path, *args)
    assert (done.returncode, done.stderr) == (64, MISSING)
    assert done.stdout == ""


def test_validate_reads_documents_without_git(tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(a_run()))
    done = _without_git(tmp_path, "validate", str(run))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{run}: schema 23 → 23, 3 cases\n"
