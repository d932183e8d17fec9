"""A file that is not a promptfoo eval runsite reads is refused in one line naming the file and
the key, exit 64, nothing archived: JSON that is not promptfoo's, a results format runsite does
not know, a file cut short, and an eval whose tenant or suite nothing names."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests._helpers import archive_state, git
from tests.conftest import CORPUS

RUN1 = CORPUS / "promptfoo" / "run1"
NOTHING = "runsite: nothing archived"


def _eval() -> dict[str, Any]:
    found: dict[str, Any] = json.loads((RUN1 / "eval.json").read_text(encoding="utf-8"))
    return found


def _refused(runsite, archive: Path, path: Path, problem: str, *flags: str) -> None:
    before = archive_state(archive)
    done = runsite("import", "--root", str(archive), *flags, str(path))
    assert done.exit_code == 64
    assert done.stderr.splitlines() == [f"runsite: {path}: {problem}", NOTHING]
    assert archive_state(archive) == before


def _changed(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    found = _eval()
    change(found)
    return found


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda e: e["results"].update(version=2),
            "results.version: promptfoo's results format 2; runsite reads format 3",
        ),
        (lambda e: e["results"].pop("version"), "results.version: missing"),
        (lambda e: e.pop("results"), "results.version: missing"),
        (
            lambda e: e["results"]["results"][0].pop("testIdx"),
            "results.results[0].testIdx: missing",
        ),
        (
            lambda e: e["results"]["results"][3].update(promptIdx=9),
            "results.results[3].promptIdx: not one of the eval's 4 prompts × providers",
        ),
        (
            lambda e: e["results"].update(timestamp="yesterday"),
            "results.timestamp: not an ISO-8601 timestamp",
        ),
        (
            lambda e: e["config"].pop("description"),
            "config.description: missing, and --suite names no suite",
        ),
    ],
    ids=["version", "no-version", "no-results", "no-test", "no-column", "no-time", "no-suite"],
)
def test_an_eval_of_an_unknown_shape_is_refused_by_its_key(
    runsite, archive, write_json, change, problem
):
    path = write_json(_changed(change), "eval.json")
    _refused(runsite, archive, path, problem, "--tenant", "acme")


def test_json_that_is_not_promptfoos_is_refused(runsite, archive, write_json):
    path = write_json({"results": {"version": 3}, "evalId": "e"}, "other.json")
    _refused(
        runsite, archive, path, "schema_version: absent: not a run document, nor an Inspect AI log",
        "--tenant", "acme",
    )  # fmt: skip


@pytest.mark.parametrize("name", ["eval.json", "eval.jsonl"])
def test_a_file_cut_short_is_refused(runsite, archive, tmp_path, name):
    data = (RUN1 / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(data[: len(data) // 2])
    before = archive_state(archive)
    done = runsite("import", "--root", str(archive), "--tenant", "acme", "--suite", "s", str(path))
    assert done.exit_code == 64
    (line, nothing) = done.stderr.splitlines()
    assert line.startswith(f"runsite: {path}: ") and "not valid JSON at line" in line
    assert nothing == NOTHING
    assert archive_state(archive) == before


def test_an_eval_is_refused_unless_a_tenant_is_named_and_runsite_toml_can_name_it(runsite, archive):
    _refused(
        runsite,
        archive,
        RUN1 / "eval.json",
        "neither --tenant nor runsite.toml's [promptfoo] tenant names the runs' tenant",
    )
    config = archive / "runsite.toml"
    config.write_text(config.read_text(encoding="utf-8") + '\n[promptfoo]\ntenant = "acme"\n')
    done = runsite("import", "--root", str(archive), str(RUN1 / "eval.json"))
    assert done.exit_code == 0, done.output
    assert (
        sorted(p.parent.name for p in (archive / "runs" / "acme").rglob("*.json"))
        == ["PF fixture C - iteration"] * 4
    )


def test_rows_alone_name_no_suite_so_one_must_be_given(runsite, archive):
    _refused(
        runsite,
        archive,
        RUN1 / "eval.jsonl",
        "a .jsonl names no suite: --suite names it",
        "--tenant",
        "acme",
    )


@pytest.mark.parametrize("name", ["eval.json", "eval.jsonl"])
def test_more_rows_than_limits_samples_are_refused_and_raising_it_lets_them_in(
    runsite, archive, name
):
    config = archive / "runsite.toml"
    plain = config.read_text(encoding="utf-8")
    config.write_text(plain + "\n[limits]\nsamples = 10\n", encoding="utf-8")
    git(archive, "commit", "-qam", "ten rows")
    where = "results.results" if name == "eval.json" else "line 11"
    problem = f"{where}: more than 10 rows, the limit of [limits] samples in runsite.toml"
    _refused(runsite, archive, RUN1 / name, problem, "--tenant", "acme", "--suite", "s")
    config.write_text(plain + "\n[limits]\nsamples = 24\n", encoding="utf-8")
    git(archive, "commit", "-qam", "24 rows")
    done = runsite(
        "import", "--root", str(archive), "--tenant", "acme", "--suite", "s", str(RUN1 / name)
    )
    assert done.exit_code == 0, done.output
