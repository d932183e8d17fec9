"""Inspect's own figures, as Inspect gives them: every reducer's per-case value, a folder read as
Inspect lists its logs, and a default tenant for logs that name none."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.document.numbers import at_precision
from generator.importers import read_files
from generator.importers.inspect_ai.scores import value_to_float
from generator.importers.options import Options
from tests._helpers import git
from tests.importers._logs import LOGS, as_json_log

ALL = sorted(LOGS.iterdir())


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_reducers_per_case_value_is_inspects_reduction(path: Path):
    log = as_json_log(path)
    reducers = log["eval"]["config"].get("epochs_reducer") or ["mean"]
    (arrival,) = read_files([path], Options(tenant="acme")).arrivals
    scores = {
        (case.case_id, verdict.assertion): verdict.score
        for case in arrival.reading.run.results
        for verdict in case.verdicts
    }
    compared = 0
    for reduction in log.get("reductions") or ():
        reducer = reduction.get("reducer") or reducers[0]
        name = reduction["scorer"]
        if reducer != reducers[0]:
            name = f"{name}/{reducer}"
        for sample in reduction["samples"]:
            expected = value_to_float(sample["value"])
            found = scores[(str(sample["sample_id"]), name)]
            assert found == (None if expected is None else at_precision(expected))
            compared += 1
    assert compared or not log.get("reductions")


def test_a_log_reduced_several_ways_keeps_each_reducers_check_under_its_results_name():
    (arrival,) = read_files([LOGS / "qa_epochs3_mean-max.eval"], Options(tenant="acme")).arrivals
    run = arrival.reading.run
    assert [v.assertion for v in run.results[0].verdicts] == ["includes", "includes/max"]
    assert [v.assertion for v in run.aggregate] == [
        "includes/mean/accuracy",
        "includes/mean/stderr",
        "includes/max/accuracy",
        "includes/max/stderr",
    ]
    first, second = run.results[0].verdicts
    assert first.assertion_id != second.assertion_id
    assert first.samples == second.samples


def test_an_eval_set_folder_imports_its_logs_and_leaves_inspects_own_files(
    runsite, archive, tmp_path
):
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(LOGS / "refund-agent.eval", folder)
    (folder / "logs.json").write_text(json.dumps({"refund-agent.eval": {"version": 2}}))
    (folder / "eval-set.json").write_text(json.dumps({"eval_set_id": "s1", "tasks": []}))
    (folder / ".eval-set-id").write_text("s1")
    result = runsite("import", "--root", str(archive), "--tenant", "acme", str(folder))
    assert result.exit_code == 0, result.output
    assert len(_runs(archive)) == 1


def _runs(archive: Path) -> list[str]:
    return [p for p in git(archive, "ls-files", "runs").split() if p.endswith(".json")]


def _tenant(archive: Path, tenant: str) -> None:
    config = archive / "runsite.toml"
    text = config.read_text().replace("[inspect]\n", f'[inspect]\ntenant = "{tenant}"\n')
    config.write_text(text)
    git(archive, "commit", "-qam", "a default tenant for imported logs")


def test_the_archive_names_the_tenant_of_a_log_that_names_none(runsite, archive):
    _tenant(archive, "acme")
    result = runsite("import", "--root", str(archive), str(LOGS / "refund-agent.eval"))
    assert result.exit_code == 0, result.output
    (path,) = _runs(archive)
    assert path.startswith("runs/acme/")
    given = runsite(
        "import", "--root", str(archive), "--tenant", "globex", str(LOGS / "refund-agent.json")
    )
    assert given.exit_code == 0, given.output
    assert any(p.startswith("runs/globex/") for p in _runs(archive))


def test_a_default_tenant_that_cannot_name_a_folder_is_refused_naming_the_key(runsite, archive):
    _tenant(archive, "CON")
    result = runsite("import", "--root", str(archive), str(LOGS / "refund-agent.eval"))
    assert result.exit_code == 64
    assert result.stderr.startswith(f"runsite: {archive / 'runsite.toml'}: inspect.tenant: ")
    assert len(result.stderr.splitlines()) == 1
    assert _runs(archive) == []
