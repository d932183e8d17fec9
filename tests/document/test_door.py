"""The door: a name a page shows carries no invisible or control character, every number means
something a run can hold, every timestamp falls in a year a run can have, and a refusal never
quotes a key the schema does not name. ``validate``, ``import`` and ``run`` meet the same door,
because it is the document model itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests._helpers import a_run, git

HIDDEN = {
    "C0 (a line feed)": "\n",
    "C0 (an escape)": "\x1b",
    "DEL": "\x7f",
    "C1 (NEL)": "\x85",
    "C1 (CSI)": "\x9b",
    "line separator": "\u2028",
    "paragraph separator": "\u2029",
    "right-to-left override": "\u202e",
    "left-to-right isolate": "\u2066",
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "byte order mark": "\ufeff",
    "a tag character": "\U000e0041",
}


def _run_with(where: str, name: str) -> dict[str, Any]:
    """``a_run`` with ``name`` at ``where``, one of the places a page shows a name."""
    run = a_run()
    if where in ("tenant", "suite", "environment", "git_commit"):
        run[where] = name
    elif where == "results[0].case_id":
        run["results"][0]["case_id"] = name
    elif where == "results[0].verdicts[0].assertion":
        run["results"][0]["verdicts"][0]["assertion"] = name
    elif where == "judge_config.identities[0]":
        run["judge_config"] = {"identities": [name]}
    elif where == "target_config.values.model":
        run["target_config"] = {"values": {"model": name, "provider": "local"}}
    elif where == "artifacts":
        run["artifacts"] = {name: {"sha": "8" * 64, "text": "a prompt"}}
    return run


PLACES = [
    "tenant",
    "suite",
    "environment",
    "git_commit",
    "results[0].case_id",
    "results[0].verdicts[0].assertion",
    "judge_config.identities[0]",
    "target_config.values.model",
    "artifacts",
]


@pytest.mark.parametrize("character", list(HIDDEN.values()), ids=list(HIDDEN))
def test_a_suite_name_with_any_class_of_hidden_character_is_refused_by_validate(
    runsite, write_json, character
):
    path = write_json(a_run(suite=f"support{character}x"))
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    code = f"U+{ord(character):04X}"
    assert result.stdout == (
        f"{path}: suite: a name with an invisible or control character ({code})\n"
    )


@pytest.mark.parametrize("where", PLACES)
def test_every_name_a_page_shows_is_refused_with_a_right_to_left_override(
    runsite, write_json, where
):
    path = write_json(_run_with(where, "evil\u202egnp.exe"))
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    line = result.stdout.splitlines()[0]
    assert line.startswith(f"{path}: "), line
    assert line.endswith("a name with an invisible or control character (U+202E)"), line
    assert "evil" not in line
    if where != "artifacts":
        assert f": {where}: " in line, line


@pytest.mark.parametrize("name", ["support agent", "Città", "支持", "café ☕", "a-b_c.d"])
def test_names_in_any_script_with_spaces_and_symbols_still_pass(runsite, write_json, name):
    path = write_json(a_run(suite=name, tenant=name, environment=name))
    assert runsite("validate", str(path)).exit_code == 0


def test_import_refuses_a_c1_suite_name_and_commits_nothing(runsite, archive, write_json):
    path = write_json(a_run(suite="support\x9b31m"))
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("import", "--root", str(archive), str(path))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[0] == (
        f"runsite: {path}: suite: a name with an invisible or control character (U+009B)"
    )
    assert git(archive, "rev-parse", "HEAD") == head


def test_a_redacted_document_read_back_meets_the_same_door(runsite, write_json):
    from generator.document.codec import read_redacted
    from generator.errors import DocumentRefused

    redacted = runsite("redact", str(write_json(a_run())))
    published = json.loads(redacted.stdout)
    published["environment"] = "prod\u2028uction"
    with pytest.raises(DocumentRefused, match="environment: a name with an invisible"):
        read_redacted(json.dumps(published).encode())


def _written(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "run.json"
    path.write_bytes(data)
    return path


SECRET_KEY = "customer_jane_doe_ssn_123456789"
"""A key that is payload itself: no message may quote it."""


def test_import_names_unknown_keys_by_place_never_by_name(runsite, archive, write_json):
    run = a_run()
    run["results"][0][SECRET_KEY] = "x"
    run["metadata"] = {SECRET_KEY: 1}
    path = write_json(run)
    result = runsite("import", "--root", str(archive), str(path))
    assert result.exit_code == 0
    assert SECRET_KEY not in result.stderr
    assert "results[0].#0" in result.stderr


def _secret_where(case: str) -> bytes:
    run = a_run()
    if case == "a config setting of the wrong type":
        run["target_config"] = {"values": {"model": "m", "provider": "p", SECRET_KEY: [1]}}
    elif case == "a key given twice":
        return b'{"metadata": {"%s": 1, "%s": 2}}' % (SECRET_KEY.encode(), SECRET_KEY.encode())
    elif case == "an artifact without its hash":
        run["artifacts"] = {f"{SECRET_KEY}.txt": {"text": "a prompt"}}
    elif case == "a hidden character in an artifact path":
        run["artifacts"] = {f"{SECRET_KEY}\u202e.txt": {"sha": "8" * 64, "text": "a prompt"}}
    return json.dumps(run).encode()


@pytest.mark.parametrize(
    "case, where",
    [
        ("a config setting of the wrong type", "target_config.values.#0: "),
        ("a key given twice", "a key the schema does not declare appears twice in one object"),
        ("an artifact without its hash", "artifacts.#0.sha: missing"),
        ("a hidden character in an artifact path", "artifacts.#0: a name with an invisible"),
    ],
)
def test_a_refusal_names_a_key_the_schema_does_not_declare_by_its_place(
    runsite, tmp_path, case, where
):
    path = _written(tmp_path, _secret_where(case))
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    assert SECRET_KEY not in result.stdout
    assert where in result.stdout, result.stdout


def test_a_redacted_document_with_undisclosed_metadata_is_refused_by_place():
    from generator.document.codec import read_redacted, redacted_bytes
    from generator.document.redact import redact
    from generator.errors import DocumentRefused
    from tests._helpers import a_redacted_run

    published = json.loads(redacted_bytes(redact(a_redacted_run())))
    published["metadata"] = {SECRET_KEY: 1}
    published["results"][0]["verdicts"][0]["metadata"][SECRET_KEY] = "words"
    with pytest.raises(DocumentRefused) as refused:
        read_redacted(json.dumps(published).encode())
    assert str(refused.value) == "metadata.#0: run metadata that the disclosure does not name"
    published["metadata"] = {}
    with pytest.raises(DocumentRefused) as refused:
        read_redacted(json.dumps(published).encode())
    assert str(refused.value) == (
        "results[0].verdicts[0].metadata.#1: a value that is not a number"
    )


def _with_number(where: str, literal: str) -> bytes:
    """``a_run`` as JSON text with the number ``literal`` written at ``where``."""
    run = a_run()
    marker = "NUMBER-GOES-HERE"
    if where == "metadata":
        run["metadata"] = {SECRET_KEY: marker}
    elif where == "usage.target.calls":
        run["usage"]["target"]["calls"] = marker
    elif where == "results[0].responses[0].cost_usd":
        run["results"][0]["responses"][0]["cost_usd"] = marker
    elif where == "results[0].responses[0].latency_ms":
        run["results"][0]["responses"][0]["latency_ms"] = marker
    return json.dumps(run).encode().replace(f'"{marker}"'.encode(), literal.encode())


NUMBERS = {
    "a 5,000-digit integer": ("metadata", "9" * 5_000, "metadata.#0"),
    "an integer past 2^53": ("usage.target.calls", str(2**53), "usage.target.calls"),
    "a float that overflows to infinity": (
        "results[0].responses[0].cost_usd",
        "1e400",
        "results[0].responses[0].cost_usd",
    ),
    "a float past 2^53": (
        "results[0].responses[0].latency_ms",
        "1.5e300",
        "results[0].responses[0].latency_ms",
    ),
    "a negative float that overflows": ("metadata", "-1e999", "metadata.#0"),
}


@pytest.mark.parametrize("case", list(NUMBERS))
def test_a_number_no_run_can_mean_is_refused_in_one_line_naming_its_key(runsite, tmp_path, case):
    where, literal, named = NUMBERS[case]
    path = _written(tmp_path, _with_number(where, literal))
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    assert result.stdout == (
        f"{path}: {named}: a number beyond ±9,007,199,254,740,991, which no run means\n"
    )
    assert result.stderr == ""


@pytest.mark.parametrize("literal", [str(2**53 - 1), "-9007199254740991", "123456.789", "1e-300"])
def test_numbers_up_to_2_to_the_53_still_pass(runsite, tmp_path, literal):
    path = _written(tmp_path, _with_number("metadata", literal))
    assert runsite("validate", str(path)).exit_code == 0


OUT_OF_YEARS = [
    "0001-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-14:00",
    "1969-12-31T23:59:59+00:00",
    "1970-01-01T00:30:00+01:00",
]


@pytest.mark.parametrize("moment", OUT_OF_YEARS)
@pytest.mark.parametrize("key", ["created_at", "promoted_at", "resumed_at"])
def test_a_timestamp_outside_the_years_1970_to_9999_is_refused(runsite, write_json, moment, key):
    path = write_json(a_run(**{key: [moment] if key == "resumed_at" else moment}))
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    where = "resumed_at[0]" if key == "resumed_at" else key
    assert result.stdout == f"{path}: {where}: a timestamp outside the years 1970–9999 (UTC)\n"


@pytest.mark.parametrize("moment", ["1970-01-01T00:00:00+00:00", "9999-12-31T09:59:59-14:00"])
def test_the_first_and_the_last_moments_of_those_years_pass(runsite, write_json, moment):
    assert runsite("validate", str(write_json(a_run(created_at=moment)))).exit_code == 0


def test_import_refuses_a_run_from_year_1_and_later_commands_still_work(
    runsite, archive, write_json
):
    good = write_json(a_run(), "good.json")
    assert runsite("import", "--root", str(archive), str(good)).exit_code == 0
    head = git(archive, "rev-parse", "HEAD")
    bad = write_json(a_run(created_at="0001-01-01T00:00:00+14:00"), "bad.json")
    result = runsite("import", "--root", str(archive), str(bad))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[0] == (
        f"runsite: {bad}: created_at: a timestamp outside the years 1970–9999 (UTC)"
    )
    assert git(archive, "rev-parse", "HEAD") == head
    assert runsite("list", "--root", str(archive)).exit_code == 0


@pytest.mark.parametrize(
    "where, value",
    [
        ("results[0].responses[0].cost_usd", float("inf")),
        ("target_config.values.#0", 10**400),
        ("target_config.values.#0", float("nan")),
    ],
)
def test_a_run_made_in_process_meets_the_same_limits_on_its_numbers(where, value):
    """``runsite run`` builds its document in memory: a target that reports an infinite cost
    or an absurd setting is refused before anything is written, as a file would be."""
    from generator.document.codec import validate
    from generator.document.model import Run
    from generator.errors import DocumentRefused

    run = a_run()
    run["results"][0]["responses"][0]["cost_usd"] = value if "cost" in where else 0.001
    if "values" in where:
        run["target_config"]["values"]["x_reported"] = value
    with pytest.raises(DocumentRefused) as refused:
        validate(Run, run)
    assert (
        str(refused.value) == f"{where}: a number beyond ±9,007,199,254,740,991, which no run means"
    )


def test_a_key_with_a_lone_surrogate_is_refused_by_place_and_a_value_with_one_is_kept(
    runsite, tmp_path
):
    run = a_run()
    run["results"][0]["x_vendor"] = {"ok": 1, "bad\ud800key": 2}
    path = _written(tmp_path, json.dumps(run).encode())
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    assert result.stdout == (
        f"{path}: results[0].#0.#1 (key): a key with a lone surrogate, which is no Unicode text\n"
    )
    run = a_run()
    run["results"][0]["responses"][0]["output"] = "an emoji cut in half: \ud83d"
    assert runsite("validate", str(_written(tmp_path, json.dumps(run).encode()))).exit_code == 0


def test_run_meets_the_same_door_and_archives_nothing(runsite, archive, tmp_path):
    from tests.suite._suites import write_suite

    suite = write_suite(tmp_path / "s", cases=[{"id": "a\u2066b"}, {"id": "b"}])
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("run", str(suite), "--root", str(archive))
    assert result.exit_code == 64
    assert result.stdout == ""
    assert result.stderr == (
        "runsite: results[0].case_id: a name with an invisible or control character (U+2066)\n"
    )
    assert git(archive, "rev-parse", "HEAD") == head


def test_a_config_setting_without_a_name_is_refused(runsite, write_json):
    """Found by fuzzing: its name would have been published as an empty withheld name."""
    values = {"model": "m-1", "provider": "local", "": False}
    path = write_json(a_run(target_config={"values": values}))
    result = runsite("validate", str(path))
    assert result.exit_code == 64
    assert result.stdout == f"{path}: target_config.values.#0: empty\n"
