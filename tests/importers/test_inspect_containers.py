"""Both of Inspect's containers, whatever wrote them: zstd or deflate members, a log with its
header or only its journal, attachments inlined; and every log runsite cannot read is refused in
one line, with nothing archived."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.importers import detect, digline, inspect_ai, read_files
from generator.importers.options import Options
from tests._helpers import a_run, git
from tests.importers._logs import (
    DEFLATED,
    LOGS,
    as_json_log,
    members,
    packed,
    write_eval,
    write_zip,
)

ACME = Options(tenant="acme")
AGENT = LOGS / "refund-agent.eval"


def _read(path: Path) -> Any:
    batch = read_files([path], ACME)
    assert not batch.refused, [str(r) for r in batch.refused]
    return batch.arrivals[0]


def _refusal(path: Path) -> str:
    batch = read_files([path], ACME)
    assert batch.arrivals == []
    (refused,) = batch.refused
    return str(refused)


def _without(*names: str) -> dict[str, Any]:
    return {k: v for k, v in members(AGENT).items() if k not in names}


@pytest.mark.parametrize(
    ("name", "claimed"),
    [
        ("logs/run.eval", True),
        ("logs/inspect.json", True),
        ("exports/digline.json", False),
        ("logs/notes.txt", False),
    ],
)
def test_an_inspect_log_is_known_by_its_name_or_its_first_bytes(tmp_path, name, claimed):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    text = {"inspect.json": '{\n  "version": 2,\n  "status": "success"}'}.get(path.name, "{}")
    path.write_text(json.dumps(a_run()) if path.name == "digline.json" else text)
    assert inspect_ai.claims(path) is claimed
    assert detect(path) is (inspect_ai if claimed else digline if path.suffix == ".json" else None)


def test_deflated_members_read_as_the_zstd_ones_do(tmp_path):
    deflated = write_eval(tmp_path / "deflated.eval", members(AGENT), method=DEFLATED)
    assert _read(deflated).data == _read(AGENT).data


def test_a_zip64_directory_reads_as_a_plain_one_does(tmp_path):
    entries = [packed(name, value) for name, value in members(AGENT).items()]
    wide = write_zip(tmp_path / "zip64.eval", entries, zip64=True)
    assert _read(wide).data == _read(AGENT).data


def test_a_json_log_and_an_eval_log_of_one_eval_are_one_run(tmp_path):
    log = as_json_log(LOGS / "refund-agent.json")
    samples, reductions = log.pop("samples"), log.pop("reductions")
    parts = {"header.json": log, "reductions.json": reductions} | {
        f"samples/{s['id']}_epoch_{s['epoch']}.json": s for s in samples
    }
    converted = write_eval(tmp_path / "converted.eval", parts)
    assert _read(converted).data == _read(LOGS / "refund-agent.json").data


def test_an_eval_that_never_finished_is_read_from_its_journal(tmp_path):
    crashed = write_eval(
        tmp_path / "crashed.eval", _without("header.json", "summaries.json", "reductions.json")
    )
    run, whole = _read(crashed).reading.run, _read(AGENT).reading.run
    assert run.metadata["inspect"]["status"] == "started"
    assert run.aggregate == []
    assert run.usage.target.every_call_seen is True
    assert run.config_hash == whole.config_hash
    assert [c.verdicts for c in run.results] == [c.verdicts for c in whole.results]


def test_a_case_whose_sample_was_never_written_is_an_error_and_its_calls_unseen(tmp_path):
    partial = write_eval(
        tmp_path / "partial.eval", _without("header.json", "samples/r3_epoch_1.json")
    )
    run = _read(partial).reading.run
    r3 = run.results[2]
    assert [v.status for v in r3.verdicts] == ["error"] * 3
    assert all(v.reason == "no sample was recorded" for v in r3.verdicts)
    assert r3.responses is None
    assert run.usage.target.every_call_seen is False


def test_a_tool_events_attachments_are_inlined_before_anything_is_read(tmp_path):
    parts = members(AGENT)
    sample = parts["samples/r1_epoch_1.json"]
    tool = next(e for e in sample["events"] if e["event"] == "tool")
    sample["attachments"]["0123456789abcdef0123456789abcdef"] = "a result over 100 characters"
    tool["result"] = "attachment://0123456789abcdef0123456789abcdef"
    run = _read(write_eval(tmp_path / "attached.eval", parts)).reading.run
    (response,) = run.results[0].responses
    assert response.tool_calls[0].result == "a result over 100 characters"


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda p: p.write_text("not a zip"), "not a zip archive, which an .eval log is"),
        (
            lambda p: write_eval(p, {"notes.json": {}}),
            "not an Inspect log: a zip with neither header.json nor _journal/start.json",
        ),
        (
            lambda p: p.write_bytes(AGENT.read_bytes()[: AGENT.stat().st_size // 2]),
            "not a zip archive, which an .eval log is",
        ),
        (
            lambda p: write_eval(p, members(AGENT), cut="samples/r2_epoch_1.json"),
            "samples/r2_epoch_1.json: truncated or damaged: it does not decompress to what it held",
        ),
        (
            lambda p: write_eval(p, _without() | {"header.json": _with_version(3)}),
            "header.json: version: Inspect's log format 3; runsite reads format 2",
        ),
        (
            lambda p: write_eval(p, _without() | {"header.json": _with_version("2")}),
            "header.json: version: a JSON string, not an integer",
        ),
        (
            lambda p: write_eval(p, _without() | {"header.json": _header(created="yesterday")}),
            "header.json: eval.created: not an ISO-8601 timestamp",
        ),
        (
            lambda p: write_eval(p, _without() | {"samples/r1_epoch_1.json": []}),
            "samples/r1_epoch_1.json: a JSON array, not an object",
        ),
        (
            lambda p: write_eval(p, _without() | {"samples/r1_epoch_1.json": _epoch(4)}),
            "samples/r1_epoch_1.json: epoch: not one of the eval's 1 epochs",
        ),
    ],
    ids=[
        "text",
        "other-zip",
        "cut-file",
        "cut-member",
        "newer-version",
        "version-string",
        "bad-created",
        "sample-array",
        "epoch-beyond",
    ],
)
def test_an_eval_log_runsite_cannot_read_is_refused_in_one_line_and_nothing_archived(
    runsite, archive, tmp_path, make, problem
):
    path = tmp_path / "bad.eval"
    make(path)
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("import", "--root", str(archive), "--tenant", "acme", str(path))
    assert result.exit_code == 64
    assert result.stderr.splitlines() == [
        f"runsite: {path}: {problem}",
        "runsite: nothing archived",
    ]
    assert git(archive, "rev-parse", "HEAD") == head


def _header(**eval_changes: Any) -> dict[str, Any]:
    header: dict[str, Any] = members(AGENT)["header.json"]
    header["eval"] |= eval_changes
    return header


def _epoch(epoch: int) -> dict[str, Any]:
    sample: dict[str, Any] = members(AGENT)["samples/r1_epoch_1.json"]
    return sample | {"epoch": epoch}


def _with_version(version: Any) -> dict[str, Any]:
    return _header() | {"version": version}


def test_a_json_log_of_an_unknown_version_or_shape_is_refused_by_key(tmp_path, write_json):
    log = as_json_log(LOGS / "refund-agent.json")
    newer = write_json(log | {"version": 1}, "older.json")
    assert _refusal(newer) == f"{newer}: version: Inspect's log format 1; runsite reads format 2"
    events = log["samples"][1]["events"]
    model = next(n for n, e in enumerate(events) if e["event"] == "model")
    events[model]["output"] = {"usage": {"input_tokens": "many"}}
    broken = write_json(log, "broken.json")
    assert _refusal(broken) == (
        f"{broken}: samples[1].events[{model}].output.usage.input_tokens: "
        "a JSON string, not an integer"
    )


def test_one_bad_log_refuses_the_batch_and_the_archive_is_untouched(runsite, archive, tmp_path):
    bad = tmp_path / "bad.eval"
    bad.write_text("not a zip")
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("import", "--root", str(archive), "--tenant", "acme", str(AGENT), str(bad))
    assert result.exit_code == 64
    assert result.stderr.splitlines() == [
        f"runsite: {bad}: not a zip archive, which an .eval log is",
        "runsite: nothing archived; --skip-invalid archives the 1 valid",
    ]
    assert git(archive, "rev-parse", "HEAD") == head
    assert list((archive / "runs").rglob("*.json")) == []


def test_a_digline_document_that_contradicts_the_tenant_given_is_refused(write_json):
    document = write_json(a_run(), "digline.json")
    assert read_files([document], Options(tenant="acme")).refused == []
    (refused,) = read_files([document], Options(tenant="northwind", suite="support")).refused
    assert str(refused) == (
        f"{document}: tenant: not the --tenant given; a digline document keeps its own"
    )
