"""Importing: the corpus arrives once in one commit, original bytes kept, and a bad batch
leaves the archive exactly as it was."""

from __future__ import annotations

import json
import shutil
from datetime import datetime

import pytest

from tests._helpers import a_run, a_run_at, git
from tests.conftest import CORPUS

DIGLINE = CORPUS / "digline"
LOCAL = CORPUS / "digline-local"
RUN1 = LOCAL / "run1-baseline-candidate__2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json"
PROMOTED = LOCAL / "baseline-support__promoted-from-run1.json"
DISTINCT_CORPUS_RUNS = 24
"""The corpus's 47 files hold 24 runs: the rest are the same baselines written by later
digline releases at newer schemas (same key, same measurement)."""


def _commits(root):
    return git(root, "rev-list", "--count", "HEAD").strip()


def _listed(runsite, root):
    result = runsite("list", "--json", "--root", str(root))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_importing_the_digline_corpus_archives_each_run_once_in_one_commit(runsite, archive):
    result = runsite("import", "--root", str(archive), str(DIGLINE))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"{DISTINCT_CORPUS_RUNS} archived, 23 already there"
    assert _commits(archive) == "2"
    assert len(list((archive / "runs").glob("*/*/*.json"))) == DISTINCT_CORPUS_RUNS
    assert git(archive, "status", "--porcelain") == ""


def test_the_import_commit_message_lists_every_run_that_arrived(runsite, archive):
    runsite("import", "--root", str(archive), str(DIGLINE))
    message = git(archive, "log", "-1", "--format=%B")
    assert message.startswith(f"Import {DISTINCT_CORPUS_RUNS} runs\n\n")
    arrived = [line for line in message.splitlines() if line.startswith("runs/")]
    assert sorted(arrived) == sorted(e["path"] for e in _listed(runsite, archive))


def test_importing_the_corpus_again_archives_nothing_and_makes_no_commit(runsite, archive):
    runsite("import", "--root", str(archive), str(DIGLINE))
    head = git(archive, "rev-parse", "HEAD")
    again = runsite("import", "--root", str(archive), str(DIGLINE))
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[-1] == "0 archived, 47 already there"
    assert git(archive, "rev-parse", "HEAD") == head


def test_list_json_gives_every_corpus_run_newest_first(runsite, archive):
    runsite("import", "--root", str(archive), str(DIGLINE))
    entries = _listed(runsite, archive)
    assert len(entries) == DISTINCT_CORPUS_RUNS
    moments = [datetime.fromisoformat(e["created_at"]) for e in entries]
    assert moments == sorted(moments, reverse=True)
    assert set(entries[0]) >= {
        "key",
        "tenant",
        "suite",
        "created_at",
        "schema_version",
        "path",
        "baseline",
    }
    assert entries[0]["baseline"] is False


def test_list_orders_by_the_instant_not_by_the_text_of_the_timestamp(runsite, archive, write_json):
    # 10:30 at +02:00 is 08:30 UTC: earlier than 09:00 UTC, though its text sorts later.
    east = write_json(a_run(created_at="2026-12-01T10:30:00.000000+02:00"), "east.json")
    utc = write_json(a_run(created_at="2026-12-01T09:00:00.000000+00:00"), "utc.json")
    runsite("import", "--root", str(archive), str(east), str(utc))
    stamps = [e["created_at"] for e in _listed(runsite, archive)]
    assert stamps == ["2026-12-01T09:00:00.000000+00:00", "2026-12-01T10:30:00.000000+02:00"]


def test_an_archived_run_keeps_the_original_bytes_of_its_document(runsite, archive):
    runsite("import", "--root", str(archive), str(RUN1))
    (archived,) = (archive / "runs").glob("acme/support/*.json")
    assert archived.read_bytes() == RUN1.read_bytes()
    assert archived.name == "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json"


def test_one_bad_document_refuses_the_batch_naming_every_bad_file(runsite, archive, write_json):
    good = write_json(a_run_at(1), "good.json")
    bad = write_json(a_run_at(2, schema_version="23"), "bad.json")
    worse = write_json(a_run_at(3, results=None), "worse.json")
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("import", "--root", str(archive), str(good), str(bad), str(worse))
    assert result.exit_code == 64
    assert result.stderr.splitlines() == [
        f"runsite: {bad}: schema_version: a JSON string, not an integer",
        f"runsite: {worse}: results: a JSON null, not an array",
        "runsite: nothing archived; --skip-invalid archives the 1 valid",
    ]
    assert result.stdout == ""
    assert git(archive, "rev-parse", "HEAD") == head
    assert list((archive / "runs").glob("*/*/*.json")) == []


def test_skip_invalid_archives_the_valid_documents_and_exits_64(runsite, archive, write_json):
    good = write_json(a_run_at(1), "good.json")
    bad = write_json(a_run_at(2, schema_version="23"), "bad.json")
    result = runsite("import", "--skip-invalid", "--root", str(archive), str(good), str(bad))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {bad}: schema_version: a JSON string, not an integer\n"
    assert result.stdout.splitlines()[-1] == "1 archived, 0 already there, 1 skipped"
    assert _commits(archive) == "2"


def test_two_different_runs_with_one_key_in_a_batch_are_refused_by_name(
    runsite, archive, write_json
):
    first = write_json(a_run(), "first.json")
    second = write_json(a_run(environment="production"), "second.json")
    result = runsite("import", "--root", str(archive), str(first), str(second))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[0] == (
        f"runsite: {second}: key: {first} is a different run with this key"
    )
    assert _commits(archive) == "1"


def test_a_different_run_under_an_archived_key_is_refused_and_the_archived_one_kept(
    runsite, archive, write_json
):
    first = write_json(a_run(), "first.json")
    runsite("import", "--root", str(archive), str(first))
    second = write_json(a_run(environment="production"), "second.json")
    result = runsite("import", "--root", str(archive), str(second))
    assert result.exit_code == 64
    place = "runs/acme/support/2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json"
    assert result.stderr.splitlines()[0] == (
        f"runsite: {second}: key: {place} is a different run archived with this key"
    )
    assert (archive / place).read_bytes() == first.read_bytes()


def test_the_same_run_written_at_an_older_schema_is_already_there(runsite, archive):
    newer = DIGLINE / "prompt-first__replies__pypi-0.34.0.json"
    older = DIGLINE / "prompt-first__replies__pypi-0.25.0.json"
    runsite("import", "--root", str(archive), str(newer))
    result = runsite("import", "--root", str(archive), str(older))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "0 archived, 1 already there"


@pytest.mark.parametrize(
    "name", ["../x", "a/b", "/etc", "", ".", "..", ".hidden", "a\x00b", "a\\b"]
)
@pytest.mark.parametrize("key", ["tenant", "suite"])
def test_a_tenant_or_suite_that_is_no_safe_folder_name_is_refused(
    runsite, archive, write_json, name, key
):
    path = write_json(a_run(**{key: name}))
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("import", "--root", str(archive), str(path))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[0].startswith(f"runsite: {path}: {key}: ")
    assert git(archive, "rev-parse", "HEAD") == head
    assert git(archive, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_digline_store_arrives_with_its_baseline_as_the_suites_reference(
    runsite, archive, tmp_path
):
    store = tmp_path / "project" / ".digline" / "acme"
    (store / "runs" / "support").mkdir(parents=True)
    (store / "baselines").mkdir()
    shutil.copy(RUN1, store / "runs" / "support" / RUN1.name.split("__")[1])
    shutil.copy(PROMOTED, store / "baselines" / "support.json")
    (store / "register").mkdir()
    (store / "register" / "notes.json").write_text("not a run document")
    result = runsite("import", "--root", str(archive), str(tmp_path / "project"))
    assert result.exit_code == 0, result.output
    key = "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169"
    assert result.stdout.splitlines() == [
        f"archived runs/acme/support/{key}.json",
        f"already there runs/acme/support/{key}.json, brought again by "
        f"{store / 'baselines' / 'support.json'}",
        f"baseline of acme/support: {key}",
        "1 archived, 1 already there",
    ]
    assert (archive / "runs" / "acme" / "support" / f"{key}.json").read_bytes() == RUN1.read_bytes()
    (entry,) = _listed(runsite, archive)
    assert entry["baseline"] is True
    assert _commits(archive) == "2"


def test_a_quiet_import_prints_no_progress_bar_when_stderr_is_not_a_terminal(runsite, archive):
    result = runsite("import", "--root", str(archive), str(DIGLINE))
    assert result.exit_code == 0
    assert result.stderr == ""


def test_a_file_no_importer_reads_is_refused_by_name(runsite, archive, tmp_path):
    log = tmp_path / "task.jsonl"
    log.write_bytes(b"{}")
    result = runsite("import", "--root", str(archive), str(log))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[0] == (
        f"runsite: {log}: not a format runsite imports (a digline .json, an Inspect .eval or "
        ".json, promptfoo's .json or .jsonl)"
    )


def test_a_run_brought_several_times_is_named_once_with_the_files_that_brought_it_again(
    runsite, archive, write_json
):
    files = [write_json(a_run_at(1), f"{name}.json") for name in ("a", "b", "c")]
    result = runsite("import", "--root", str(archive), *map(str, files))
    assert result.exit_code == 0, result.output
    key = "2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169"
    assert result.stdout.splitlines() == [
        f"archived runs/acme/support/{key}.json",
        f"already there runs/acme/support/{key}.json, brought again by {files[1]}, {files[2]}",
        "1 archived, 2 already there",
    ]


def test_skip_invalid_is_offered_only_where_some_documents_were_valid(runsite, archive, write_json):
    bad = write_json(a_run_at(2, schema_version="23"), "bad.json")
    result = runsite("import", "--root", str(archive), str(bad))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[-1] == "runsite: nothing archived"


def test_a_json_object_without_schema_version_is_not_a_run_document(runsite, archive, write_json):
    hello = write_json({"hello": 1}, "hello.json")
    result = runsite("import", "--root", str(archive), str(hello))
    assert result.exit_code == 64
    assert result.stderr.splitlines() == [
        f"runsite: {hello}: schema_version: absent: not a run document, nor an Inspect AI log",
        "runsite: nothing archived",
    ]
