"""The command line as a user meets it: output lines, exit codes, and the JSON it prints."""

from __future__ import annotations

import json
from importlib.metadata import version

from generator.document.codec import read_redacted
from tests._helpers import MARKERS, a_planted_run, a_run
from tests.conftest import CORPUS


def test_version_names_the_installed_distribution(runsite):
    result = runsite("--version")
    assert result.exit_code == 0
    assert result.stdout == f"runsite {version('runsite')}\n"


def test_validate_prints_one_line_per_corpus_document_and_exits_0(runsite):
    result = runsite("validate", str(CORPUS / "digline"), str(CORPUS / "digline-local"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 51
    assert (
        f"{CORPUS / 'digline/classifier__expense-triage__d0e01e4.json'}: schema 7 → 23, 20 cases"
        in lines
    )


def test_validate_warns_on_stderr_where_unknown_keys_are_never_what_they_are_called(
    runsite, write_json
):
    path = write_json(
        a_run(
            x_vendor=1,
            results=[
                {"case_id": "a", "suspended": False, "verdicts": [], "customer_jane_doe_ssn": 2}
            ],
        )
    )
    result = runsite("validate", str(path))
    assert result.exit_code == 0
    assert result.stderr == (
        f"runsite: {path}: kept but never published, unknown keys (#N: the Nth key of its "
        "object the schema does not declare, from 0): #0, results[0].#0\n"
    )


def test_validate_of_a_missing_path_is_refused(runsite, tmp_path):
    result = runsite("validate", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {tmp_path / 'nowhere.json'}: no such file or folder\n"


def test_import_of_a_path_that_is_neither_file_nor_folder_is_refused_by_what_it_is(
    runsite, archive
):
    result = runsite("import", "--root", str(archive), "/dev/null")
    assert (result.exit_code, result.stderr) == (
        64,
        "runsite: /dev/null: neither a file nor a folder (a device, a pipe); import files\n",
    )


def test_redact_prints_canonical_json_of_the_redacted_run(runsite, write_json):
    result = runsite("redact", str(write_json(a_planted_run())))
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes.endswith(b"}\n")
    redacted = read_redacted(result.stdout_bytes)
    assert redacted.disclosure.tool_names is False
    assert not any(marker in result.stdout for marker in MARKERS.values())


def test_redact_with_disclosed_tool_names_shows_them_and_nothing_else(runsite, write_json):
    result = runsite("redact", "--disclose-tool-names", str(write_json(a_planted_run())))
    assert result.exit_code == 0
    shown = {field for field, marker in MARKERS.items() if marker in result.stdout}
    assert shown == {"tool_name", "other_tool_name"}


def test_redact_of_its_own_output_gives_the_same_bytes(runsite, write_json):
    once = runsite("redact", str(write_json(a_planted_run())))
    twice = runsite("redact", str(write_json(json.loads(once.stdout), "redacted.json")))
    assert twice.exit_code == 0
    assert twice.stdout_bytes == once.stdout_bytes


def test_the_schema_of_the_redacted_run_has_no_payload_key_anywhere(runsite):
    result = runsite("schema", "--redacted")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    definitions = [schema, *schema["$defs"].values()]
    properties = {key for definition in definitions for key in definition.get("properties", {})}
    assert {"steps", "tools", "finish", "disclosure"} <= properties
    assert properties.isdisjoint(
        {"output", "input", "reason", "suspended_reason", "arguments", "result", "call"}
    )


def test_the_schema_of_the_run_document_includes_the_recorded_trajectory(runsite):
    schema = json.loads(runsite("schema").stdout)
    response = schema["$defs"]["RecordedResponse"]["properties"]
    assert {"finish", "tools", "steps", "tool_calls"} <= set(response)
    assert schema["properties"]["schema_version"]["const"] == 23


def test_the_schema_describes_a_field_by_its_docstring_inherited_ones_too(runsite):
    definitions = json.loads(runsite("schema").stdout)["$defs"]
    calls = definitions["RecordedResponse"]["properties"]["tool_calls"]["description"]
    assert calls.startswith("Absent: the target said nothing about tools.")
    # SystemConfig inherits its fields, and their docstrings, from ConfigParts.
    withheld = definitions["SystemConfig"]["properties"]["withheld"]["description"]
    assert withheld == "Names of settings whose values were removed at a boundary."


def test_a_usage_error_exits_64_not_2_which_means_not_judged(runsite):
    result = runsite("redact")
    assert result.exit_code == 64
    assert result.stderr.startswith("runsite: Missing argument")
