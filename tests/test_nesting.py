"""Nesting deeper than Python's stack, at every door but the importers' (tests/importers has
theirs): a file runsite reads is refused in one line, exit 64; JSON text inside a run (an
answer, a tool's arguments, a target's reply) is judged or published without a traceback, and
its strings are still payload."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.document.codec import read_run
from generator.document.disclosure import NOTHING
from generator.document.payload import payload_candidates, payload_texts
from tests._helpers import a_run_at
from tests.suite._suites import write_suite

DEEP = 5_000
"""Levels past what the parser reaches."""
HIDDEN = "the planted string at the bottom"


def _deep(levels: int) -> str:
    return "[" * levels + json.dumps(HIDDEN) + "]" * levels


def _a_run_with_deep_texts(second: int, levels: int) -> dict[str, Any]:
    run = a_run_at(second)
    response = run["results"][0]["responses"][0]
    response["output"] = _deep(levels)
    for call in response["tool_calls"]:
        call["arguments"] = _deep(levels)
    for step in response["steps"]:
        if "call" in step:
            step["call"]["arguments"] = _deep(levels)
    return run


@pytest.mark.parametrize("levels", [70, 990, DEEP])
def test_json_text_nested_past_the_stack_keeps_its_strings_as_payload(levels):
    run = read_run(json.dumps(_a_run_with_deep_texts(1, levels)).encode()).run
    assert HIDDEN in payload_texts(run, NOTHING, undeclared=False)
    assert HIDDEN in payload_candidates(run, NOTHING)


def test_a_run_holding_deep_json_text_is_reported_and_built(runsite, archive, write_json, tmp_path):
    for second in (1, 2):
        document = write_json(_a_run_with_deep_texts(second, DEEP), f"run{second}.json")
        result = runsite("import", "--root", str(archive), str(document))
        assert result.exit_code == 0, result.output
    for command in (
        ("report", "latest", "--against", "latest~1", "--out", str(tmp_path / "diff.html")),
        ("report", "latest", "--out", str(tmp_path / "report.html")),
        ("build", "--out", str(tmp_path / "site")),
    ):
        result = runsite(*command, "--root", str(archive))
        assert result.exit_code in (0, 2), (command, result.output)
    pages = [path.read_text(encoding="utf-8") for path in (tmp_path / "site").rglob("*.html")]
    assert pages and not any(HIDDEN in page for page in pages)


def test_a_runsite_toml_nested_too_deeply_is_refused_in_one_line(runsite, archive):
    config = archive / "runsite.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + "\n[inspect.thresholds]\nx = "
        + "[" * DEEP
        + "]" * DEEP,
        encoding="utf-8",
    )
    result = runsite("list", "--root", str(archive))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {config}: nested too deeply to read\n"


def test_a_look_nested_too_deeply_is_refused_in_one_line(runsite, archive, tmp_path):
    look = archive / "mkdocs.yml"
    look.write_text("extra: " + "[" * DEEP + "]" * DEEP + "\n", encoding="utf-8")
    result = runsite("build", "--root", str(archive), "--out", str(tmp_path / "site"))
    assert result.exit_code == 64
    assert result.stderr.splitlines()[-1].startswith(f"runsite: {look}: ")
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("where", ["suite.toml", "cases.json"])
def test_a_suite_nested_too_deeply_is_refused_before_it_runs(runsite, tmp_path: Path, where):
    suite = write_suite(tmp_path / "suite")
    if where == "suite.toml":
        with suite.open("a", encoding="utf-8") as file:
            file.write("\n[extra]\nx = " + "[" * DEEP + "]" * DEEP + "\n")
    else:
        (suite.parent / "cases.json").write_text(
            json.dumps([{"id": "a", "vars": {"v": "DEEP"}}]).replace('"DEEP"', _deep(DEEP)),
            encoding="utf-8",
        )
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 64, result.output
    assert len(result.stderr.splitlines()) == 1
    assert where in result.stderr and "nested" in result.stderr
    assert not (tmp_path / "run.json").exists()


def test_answers_nested_past_the_stack_are_judged_an_error_not_a_crash(runsite, tmp_path: Path):
    suite = write_suite(
        tmp_path / "suite",
        app=f"def answer(case):\n    return {_deep(DEEP)!r}\n",
        assertions=(
            '[[assertions]]\ntype = "is_json"\n'
            '[[assertions]]\ntype = "json_schema"\nschema = {type = "array"}\n'
        ),
    )
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 2, result.output
    document = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    verdicts = [v for case in document["results"] for v in case["verdicts"]]
    assert {v["status"] for v in verdicts} == {"error"}
    assert all("nested deeper than 64 levels" in v["reason"] for v in verdicts)
