"""Builders of run documents for tests: a valid schema-23 document, and one with a marker
planted in every payload field, so a boundary test finds any field nobody thought of; a way to
ask git what it holds; and a command run as a process of its own, with the most memory it
held."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from generator.document.codec import read_run
from generator.document.record import key_of
from generator.document.redact import redact
from generator.document.redacted import RedactedRun, RedactedVerdict
from generator.files import read_document

MARKERS = {
    "output": "MARKoutputQ1",
    "input": "MARKinputQ2",
    "reason": "MARKreasonQ3",
    "aggregate_reason": "MARKaggreasonQ4",
    "suspended_reason": "MARKsuspendedQ5",
    "tool_name": "MARKtoolnameQ6",
    "other_tool_name": "MARKtoolname2Q7",
    "arguments": "MARKargumentsQ8",
    "result": "MARKresultQ9",
    "artifact_text": "MARKartifactQ10",
    "run_metadata_value": "MARKrunmetaQ11",
    "run_metadata_key": "MARKrunmetakeyQ12",
    "score_metadata": "MARKscoremetaQ13",
    "base_url": "MARKbaseurlQ14",
    "fingerprint": "MARKfingerprintQ15",
    "conversation_output": "MARKconversationQ16",
    "unknown_key_value": "MARKunknownQ17",
    "config_value": "MARKconfigvalueQ18",
}


def a_verdict(**overrides: Any) -> dict[str, Any]:
    verdict = {
        "assertion": "contains",
        "assertion_id": "d697b44c72db127b",
        "metadata": {},
        "reason": "found the signature",
        "score": 1.0,
        "status": "pass",
        "threshold": 1.0,
        "tolerance": 0.0,
    }
    verdict.update(overrides)
    return verdict


def a_trajectory_response(
    tool: str, other_tool: str, arguments: str, result: str
) -> dict[str, Any]:
    """Three model calls: one asks for two tools, one for a third call, one answers."""
    first = {"tool": tool, "arguments": arguments, "result": result}
    second = {
        "tool": other_tool,
        "arguments": arguments,
        "result_absence": "not_recorded",
        "status": "error",
    }
    third = {"tool": tool, "arguments": arguments, "result": result}
    return {
        "cost_usd": 0.0012,
        "finish": "end_turn",
        "input": "a question",
        "kind": "text",
        "latency_ms": 812.5,
        "output": "an answer",
        "steps": [
            {"index": 0, "actor": "model", "finish": "tool_use"},
            {"index": 1, "actor": "tool", "call": first},
            {"index": 2, "actor": "tool", "call": second},
            {"index": 3, "actor": "model", "finish": "tool_use"},
            {"index": 4, "actor": "tool", "call": third},
            {"index": 5, "actor": "model", "finish": "end_turn"},
        ],
        "tool_calls": [first, second, third],
        "tools": [tool, other_tool, tool],
        "usage": {"input_tokens": 1200, "output_tokens": 85},
    }


def a_run(**overrides: Any) -> dict[str, Any]:
    """A valid schema-23 run document: two measured cases (one with a trajectory), one set aside."""
    response = a_trajectory_response(
        "lookup_order", "refund", '{"order":"A1"}', '{"status":"shipped"}'
    )
    run: dict[str, Any] = {
        "aggregate": [
            a_verdict(
                assertion="accuracy",
                assertion_id="b00de39e2f9bb72b",
                metadata={"considered": 2, "true_positive": 1},
                reason="accuracy 1.0",
            )
        ],
        "artifacts": {"prompts/system.txt": {"sha": "8" * 64, "text": "You are a support agent."}},
        "config_hash": "b2a55669ae7e0169",
        "created_at": "2026-11-29T22:43:20.961326+00:00",
        "environment": "staging",
        "git_commit": "e8492dd7707fbf801b92e771662384455478f9fb",
        "judge_config": {"identities": ["local/judge"]},
        "metadata": {"ticket": "OPS-1"},
        "projected": False,
        "redacted": False,
        "results": [
            {
                "case_id": "refund-late-order",
                "responses": [response],
                "suspended": False,
                "verdicts": [
                    a_verdict(
                        samples=[1.0, 0.5, 1.0],
                        sample_min=0.5,
                        sample_max=1.0,
                        score=0.833333,
                        threshold=0.8,
                        metadata={"agreement": 1.0, "unit": "ratio"},
                    ),
                    a_verdict(
                        assertion="tools_called",
                        assertion_id="0123456789abcdef",
                        metadata={"called": 3},
                    ),
                ],
            },
            {
                "case_id": "plain",
                "suspended": False,
                "verdicts": [a_verdict(score=0.0, status="fail")],
            },
            {
                "case_id": "set-aside",
                "suspended": True,
                "suspended_reason": "flaky upstream",
                "verdicts": [],
            },
        ],
        "schema_version": 23,
        "suite": "support",
        "target_config": {"values": {"model": "m-1", "provider": "local", "temperature": 0.2}},
        "tenant": "acme",
        "usage": {
            "judge": {"calls": 0, "counted": 0, "spent_usd": 0.0},
            "target": {
                "calls": 3,
                "counted": 3,
                "spent_usd": 0.0036,
                "tokens": {"input_tokens": 3600, "output_tokens": 255},
            },
        },
    }
    run.update(overrides)
    return run


def a_redacted_run(**overrides: Any) -> RedactedRun:
    """``a_run`` with overrides, read through the codec and redacted, as the reading sees it."""
    return redact(read_run(json.dumps(a_run(**overrides)).encode()).run)


def a_redacted_verdict(**overrides: Any) -> RedactedVerdict:
    """``a_verdict`` with overrides, as a redacted run carries it (no reason)."""
    verdict = a_verdict(**overrides)
    del verdict["reason"]
    return RedactedVerdict.model_validate(verdict)


def a_corpus_run(path: Path) -> RedactedRun:
    """A corpus document, read, migrated and redacted with nothing disclosed."""
    return redact(read_document(path).run)


def a_planted_run() -> dict[str, Any]:
    """``a_run`` with a distinct marker in every field that is payload."""
    m = MARKERS
    run = a_run()
    measured = run["results"][0]
    measured["responses"] = [
        a_trajectory_response(
            m["tool_name"], m["other_tool_name"], f'{{"q":"{m["arguments"]}"}}', m["result"]
        )
        | {"output": m["output"], "input": m["input"]},
        {"kind": "conversation", "output": m["conversation_output"], "tool_calls": []},
    ]
    for verdict in measured["verdicts"]:
        verdict["reason"] = m["reason"]
        verdict["metadata"]["unit"] = m["score_metadata"]
        verdict["metadata"]["names"] = [m["score_metadata"]]
    run["aggregate"][0]["reason"] = m["aggregate_reason"]
    run["results"][2]["suspended_reason"] = m["suspended_reason"]
    run["artifacts"]["prompts/system.txt"]["text"] = m["artifact_text"]
    run["metadata"] = {"ticket": m["run_metadata_value"], m["run_metadata_key"]: 1}
    run["target_config"]["values"] |= {
        "base_url": m["base_url"],
        "fingerprint": m["fingerprint"],
        "system_prompt": m["config_value"],
    }
    run["results"][0]["x_vendor_note"] = m["unknown_key_value"]
    return copy.deepcopy(run)


def a_run_at(second: int, **overrides: Any) -> dict[str, Any]:
    """``a_run`` measured at another second of one minute: a run of its own, with its own key."""
    return a_run(
        created_at=f"2026-12-01T10:{second // 60:02d}:{second % 60:02d}.000000+00:00", **overrides
    )


def git(root: Any, *args: str) -> str:
    """What git prints for ``args`` in the repository at ``root``."""
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def archived_past_the_door(archive: Path, runs: list[dict[str, Any]]) -> None:
    """Commit ``runs`` at their places in ``archive`` as an older runsite may have let them in:
    with names the door now refuses (markup, ``CON``, two that differ only in case)."""
    for run in runs:
        place = archive / "runs" / run["tenant"] / run["suite"]
        place.mkdir(parents=True, exist_ok=True)
        key = key_of(run["created_at"], run["config_hash"])
        (place / f"{key}.json").write_text(json.dumps(run), encoding="utf-8")
    git(archive, "add", "runs")
    git(archive, "commit", "--quiet", "--message", "Runs an older runsite archived")


def archive_state(root: Path) -> tuple[str, str, str]:
    """What an archive holds: HEAD, its tree, and how the working tree differs from it."""
    return (
        git(root, "rev-parse", "HEAD"),
        git(root, "ls-tree", "-r", "HEAD"),
        git(root, "status", "--porcelain", "--untracked-files=all"),
    )


@dataclass(frozen=True)
class Measured:
    """A command's exit status, what it wrote to stderr, and its peak memory."""

    code: int
    stderr: str
    peak_mb: float
    """The largest resident set of the command's own process, in MiB."""


_MEMORY_CAP = 3 << 30
"""The address space a measured command may take: a regression fails its test with a
MemoryError instead of taking the machine the tests share."""

_LAUNCHER = """
import os, resource, sys
peak, cap, command = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(command[0], command)
_, status, usage = os.wait4(pid, 0)
os.write(peak, str(usage.ru_maxrss).encode())
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs a command as a child of its own small process and writes the child's peak, in KiB, to the file descriptor it is given.
A child forked from the tests' process would start from their resident set, which the
kernel counts into its peak: a pytest worker of 300 MB made every import look that large."""


def measured(*args: str) -> Measured:
    """``runsite ARGS`` as a user runs it, in a process of its own, and its own peak memory:
    ``wait4`` reports the child it reaps alone, where ``RUSAGE_CHILDREN`` would report the
    largest of every child the tests have reaped."""
    command = [sys.executable, "-m", "generator", *args]
    peak_read, peak_write = os.pipe()
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(peak_write), str(_MEMORY_CAP), *command],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            pass_fds=(peak_write,),
        )
        os.close(peak_write)
        with os.fdopen(peak_read, "rb") as peak:
            peak_kb = int(peak.read() or 0)
        process.wait()
        stderr.seek(0)
        return Measured(process.returncode, stderr.read().decode(), peak_kb / 1024)


@contextmanager
def mounted(place: Path, *mounts: list[str]) -> Iterator[Path]:
    """``place`` with each of ``mounts`` (a ``mount`` command's arguments but the place) done
    on it in turn, undone after; the test is skipped where they cannot be done (only root
    mounts, as CI runs)."""
    place.mkdir()
    done = 0
    try:
        for options in mounts:
            command = ["mount", *options, str(place)]
            if os.geteuid() != 0 or subprocess.run(command, capture_output=True).returncode:
                pytest.skip("mounting a file system for the test needs root")
            done += 1
        yield place
    finally:
        if done:
            subprocess.run(["umount", "--lazy", str(place)], check=True)


@contextmanager
def read_only(archive: Path) -> Iterator[Path]:
    """The archive (and its repository) as a checkout that may only be read: mounted read-only
    where the tests run as root (as CI does; root writes through any mode), else with every
    write permission in it taken away."""
    if os.geteuid() != 0:
        subprocess.run(["chmod", "-R", "a-w", str(archive)], check=True)
        try:
            yield archive
        finally:
            subprocess.run(["chmod", "-R", "u+w", str(archive)], check=True)
        return
    source = str(archive)
    bind, read_only = ["--bind", source], ["-o", "remount,ro,bind", source]
    with mounted(archive.parent / "read-only", bind, read_only) as place:
        yield place


def leaks_confirmed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The leaks the builds confirm from now on (``guard.scan.Leak``, each file and run the
    build's exact search found), gathered as they are confirmed: a refused build names only
    the first."""
    import generator.publish
    from generator.publish.confirm import confirm

    found: list[Any] = []

    def confirmed(*args: Any) -> Any:
        leaks = confirm(*args)
        found.extend(leaks)
        return leaks

    monkeypatch.setattr(generator.publish, "confirm", confirmed)
    return found
