"""The baseline: each suite's reference run, a committed pointer that list marks."""

from __future__ import annotations

import json

from tests._helpers import a_run_at, git


def _import_three(runsite, archive, write_json):
    paths = [str(write_json(a_run_at(second), f"run{second}.json")) for second in (1, 2, 3)]
    assert runsite("import", "--root", str(archive), *paths).exit_code == 0


def _marked(runsite, archive):
    listed = json.loads(runsite("list", "--json", "--root", str(archive)).stdout)
    return [entry["key"][17:19] for entry in listed if entry["baseline"]]


def test_setting_a_baseline_commits_it_and_list_marks_that_run(runsite, archive, write_json):
    _import_three(runsite, archive, write_json)
    result = runsite("baseline", "set", "support@latest~1", "--root", str(archive))
    assert result.exit_code == 0, result.output
    key = "2026-12-01T10-00-02-000000-00-00-b2a55669ae7e0169"
    assert result.stdout == f"baseline of acme/support set: {key}\n"
    assert (
        git(archive, "log", "-1", "--format=%s") == f"Set the baseline of acme/support to {key}\n"
    )
    assert _marked(runsite, archive) == ["02"]
    assert runsite("list", "--root", str(archive)).stdout.splitlines()[1].startswith("* ")
    shown = runsite("baseline", "show", "--root", str(archive))
    assert shown.stdout == f"acme/support  {key}\n"


def test_setting_the_same_baseline_again_makes_no_commit(runsite, archive, write_json):
    _import_three(runsite, archive, write_json)
    runsite("baseline", "set", "latest", "--root", str(archive))
    head = git(archive, "rev-parse", "HEAD")
    again = runsite("baseline", "set", "latest", "--root", str(archive))
    assert again.exit_code == 0
    assert again.stdout.startswith("baseline of acme/support was already: ")
    assert git(archive, "rev-parse", "HEAD") == head


def test_clearing_a_baseline_commits_and_leaves_no_run_marked(runsite, archive, write_json):
    _import_three(runsite, archive, write_json)
    runsite("baseline", "set", "latest", "--root", str(archive))
    result = runsite("baseline", "clear", "support", "--root", str(archive))
    assert result.exit_code == 0, result.output
    assert result.stdout == "acme/support: baseline cleared\n"
    assert git(archive, "log", "-1", "--format=%s") == "Clear the baseline of acme/support\n"
    assert _marked(runsite, archive) == []
    assert git(archive, "status", "--porcelain") == ""
    shown = runsite("baseline", "show", "support", "--root", str(archive))
    assert shown.stdout == "acme/support  (no baseline set)\n"
    every = runsite("baseline", "show", "--root", str(archive))
    assert every.stdout == "acme/support  (no baseline set)\n"


def test_baseline_show_in_an_archive_without_runs_says_no_baseline_is_set(runsite, archive):
    shown = runsite("baseline", "show", "--root", str(archive))
    assert shown.exit_code == 0
    assert shown.stdout == "no baseline set: the archive holds no run yet\n"


def test_clearing_a_suite_without_a_baseline_changes_nothing(runsite, archive, write_json):
    _import_three(runsite, archive, write_json)
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("baseline", "clear", "acme/support", "--root", str(archive))
    assert result.exit_code == 0
    assert result.stdout == "acme/support: had no baseline\n"
    assert git(archive, "rev-parse", "HEAD") == head
