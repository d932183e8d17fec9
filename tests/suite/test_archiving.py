"""A run that runsite makes lands in the archive in one commit, and a replay finds its stored
run there by reference."""

from __future__ import annotations

import json
from pathlib import Path

from tests._helpers import git
from tests.suite._suites import write_suite

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_run_is_archived_in_one_commit_and_listed(runsite, archive):
    before = git(archive, "rev-list", "--count", "HEAD")
    result = runsite("run", str(EXAMPLES / "classifier" / "suite.toml"), "--root", str(archive))
    assert result.exit_code == 0, result.output
    key = result.stdout.strip()
    assert int(git(archive, "rev-list", "--count", "HEAD")) == int(before) + 1
    assert f"runs/northwind/expense-triage/{key}.json" in git(
        archive, "show", "--name-only", "--format=", "HEAD"
    )
    listed = json.loads(runsite("list", "--json", "--root", str(archive)).stdout)
    assert [(entry["key"], entry["schema_version"]) for entry in listed] == [(key, 23)]
    assert git(archive, "status", "--porcelain") == ""


def test_a_replay_finds_its_run_by_reference_and_is_archived_beside_it(runsite, archive, tmp_path):
    suite = write_suite(tmp_path / "s", suite_extra="record_responses = true")
    first = runsite("run", str(suite), "--root", str(archive))
    assert first.exit_code == 0, first.output
    replayed = runsite("replay", str(suite), "--run", "probe@latest", "--root", str(archive))
    assert replayed.exit_code == 0, replayed.output
    listed = json.loads(runsite("list", "--json", "--root", str(archive)).stdout)
    assert {entry["key"] for entry in listed} == {first.stdout.strip(), replayed.stdout.strip()}
    stored = archive / "runs" / "acme" / "probe" / f"{replayed.stdout.strip()}.json"
    assert json.loads(stored.read_bytes())["rejudged_from"] == first.stdout.strip()


def test_a_run_outside_any_archive_is_refused_before_anything_is_written(
    runsite, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    result = runsite("run", str(write_suite(tmp_path / "s")))
    assert result.exit_code == 64
    assert "no runsite.toml here or in any folder above" in result.stderr
