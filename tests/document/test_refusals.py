"""Every way a user can hand runsite a bad document ends in one line naming the file and the
key, exit 64, and never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests._helpers import a_run, a_verdict


def _json(**overrides: object) -> bytes:
    return json.dumps(a_run(**overrides)).encode()


def _with_status(status: str) -> bytes:
    run = a_run()
    run["results"][1]["verdicts"][0]["status"] = status
    return json.dumps(run).encode()


def _redacted_with_a_reason() -> bytes:
    run = a_run(redacted=True)
    for case in run["results"]:
        case.pop("suspended_reason", None)
        case.pop("responses", None)
        for verdict in case["verdicts"]:
            verdict.pop("reason")
    run["aggregate"][0].pop("reason")
    run["results"][1]["verdicts"][0]["reason"] = "the model said something"
    return json.dumps(run).encode()


def _without(key: str) -> bytes:
    run = a_run()
    del run[key]
    return json.dumps(run).encode()


def _interval_contradicting_samples() -> bytes:
    run = a_run()
    run["results"][0]["verdicts"][0]["sample_min"] = 0.4
    return json.dumps(run).encode()


def _nested_metadata(depth: int) -> bytes:
    run = a_run()
    run["metadata"] = {"deep": json.loads("[" * depth + "]" * depth)}
    return json.dumps(run).encode()


BAD: dict[str, tuple[Callable[[], bytes], str]] = {
    "truncated JSON": (
        lambda: _json()[:300],
        "not valid JSON at line 1, column 269: unterminated string",
    ),
    "JSON cut after a comma": (
        lambda: b'{"tenant": "a",',
        "not valid JSON at line 1, column 16: expecting",
    ),
    "an empty file": (lambda: b"", "an empty file"),
    "a file of blanks": (lambda: b"  \n\t", "an empty file"),
    "a JSON array": (lambda: b"[" + _json() + b"]", "a JSON array, not an object"),
    "bytes that are not UTF-8": (
        lambda: _json().replace(b"staging", b"stag\xffing"),
        "not UTF-8 text",
    ),
    "schema 2": (lambda: _json(schema_version=2), "schema_version: schema 2 cannot be migrated"),
    "no schema_version": (
        lambda: _without("schema_version"),
        "schema_version: absent: not a run document, nor an Inspect AI log",
    ),
    "schema 99": (lambda: _json(schema_version=99), "schema_version: schema 99 is newer"),
    "a schema given as a string": (
        lambda: _json(schema_version="21"),
        "schema_version: a JSON string, not an integer",
    ),
    "a schema given as true": (
        lambda: _json(schema_version=True),
        "schema_version: a JSON boolean",
    ),
    "an unknown status": (
        lambda: _with_status("maybe"),
        "results[1].verdicts[0].status: not one of",
    ),
    "results as an object": (lambda: _json(results={}), "results: a JSON object, not an array"),
    "a redacted document that carries a reason": (
        _redacted_with_a_reason,
        "results[1].verdicts[0].reason: present in a redacted document",
    ),
    "an explicit null where refused": (lambda: _json(usage=None), "usage: null"),
    "a missing tenant": (lambda: _without("tenant"), "tenant: missing"),
    "an interval that contradicts its samples": (
        _interval_contradicting_samples,
        "results[0].verdicts[0].sample_min: not the smallest of the samples",
    ),
    "100,000 nested brackets": (lambda: b"[" * 100_000 + b"]" * 100_000, "nested deeper than"),
    "100,000 nested objects": (
        lambda: b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "nested deeper than",
    ),
    "metadata nested 200 deep": (lambda: _nested_metadata(200), "nested deeper than 64 levels"),
    "NaN as a score": (
        lambda: _json().replace(b'"score": 0.0', b'"score": NaN'),
        "NaN is not a JSON",
    ),
    "a key given twice": (
        lambda: b'{"tenant": "a", "tenant": "b"}',
        "the key 'tenant' appears twice",
    ),
    "a pass below its threshold": (
        lambda: _json(aggregate=[a_verdict(score=0.799999, threshold=0.8)]),
        "aggregate[0].status: 'pass' with a score below the threshold",
    ),
    "a score above 1 on no scale of its own": (
        lambda: _json(aggregate=[a_verdict(score=2.2, threshold=0.0)]),
        "aggregate[0].score: above 1",
    ),
    "a sample below 0 on no scale of its own": (
        lambda: _json(aggregate=[a_verdict(samples=[-1.0, 1.0], sample_min=-1.0, sample_max=1.0)]),
        "aggregate[0].sample_min: negative",
    ),
    "a measurement not on a scale of its own": (
        lambda: _json(aggregate=[a_verdict(score=0.5, status="measured", threshold=0.0)]),
        "aggregate[0].status: 'measured' is only for a verdict on its own scale (own_scale)",
    ),
    "a measurement with no score": (
        lambda: _json(aggregate=[a_verdict(score=None, status="measured", own_scale=True)]),
        "aggregate[0].score: null, but the status is 'measured'",
    ),
    "own_scale written false": (
        lambda: _json(aggregate=[a_verdict(own_scale=False)]),
        "aggregate[0].own_scale: written only as true",
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_document_is_refused_with_one_line_naming_file_and_key(name, runsite, tmp_path: Path):
    make, expected = BAD[name]
    path = tmp_path / "bad.json"
    path.write_bytes(make())

    result = runsite("redact", str(path))

    assert result.exit_code == 64, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"runsite: {path}: {expected}"), lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", list(BAD))
def test_validate_reports_the_same_refusal_on_its_line_and_exits_64(name, runsite, tmp_path: Path):
    make, expected = BAD[name]
    good = tmp_path / "good.json"
    good.write_bytes(_json())
    bad = tmp_path / "bad.json"
    bad.write_bytes(make())

    result = runsite("validate", str(bad), str(good))

    assert result.exit_code == 64
    assert result.stdout.splitlines() == [
        result.stdout.splitlines()[0],
        f"{good}: schema 23 → 23, 3 cases",
    ]
    assert result.stdout.splitlines()[0].startswith(f"{bad}: {expected}")


def test_the_refusal_never_quotes_the_offending_value(runsite, write_json):
    run = a_run()
    run["results"][0]["verdicts"][0]["status"] = "SECRET-PAYLOAD-VALUE"
    run["environment"] = 12345
    result = runsite("redact", str(write_json(run)))
    assert result.exit_code == 64
    assert "SECRET-PAYLOAD-VALUE" not in result.stderr
