"""Inspect's values become scores as Inspect converts them, a value with no number is said as
such, and the thresholds come from the archive's ``[inspect]`` table."""

from __future__ import annotations

import math
from typing import Any

import pytest

from generator.document.values import BEYOND_PROBLEM
from generator.importers import read_files
from generator.importers.inspect_ai.scores import categorical, value_to_float
from generator.importers.options import Options
from tests.importers._logs import LOGS, as_json_log


@pytest.mark.parametrize(
    ("value", "number"),
    [
        ("C", 1.0),
        ("I", 0.0),
        ("P", 0.5),
        ("N", 0.0),
        (True, 1.0),
        (False, 0.0),
        (3, 3.0),
        (0.25, 0.25),
        ("yes", 1.0),
        ("False", 0.0),
        ("0.75", 0.75),
        ("a free answer", 0.0),
        ({"a": 1}, None),
        ([1, 0], None),
        (None, None),
        (math.nan, None),
    ],
)
def test_a_value_becomes_the_number_inspect_reads_in_it(value, number):
    assert value_to_float(value) == number


def test_letters_and_booleans_are_categorical_and_numbers_are_not():
    assert categorical(["C", "I", True, "P"])
    assert not categorical(["C", 1])
    assert not categorical([])


def _imported(log: dict[str, Any], write_json) -> Any:
    batch = read_files([write_json(log, "log.json")], Options(tenant="acme"))
    assert not batch.refused, [str(r) for r in batch.refused]
    return batch.arrivals[0].reading.run


def test_a_value_with_no_number_leaves_its_epoch_unscored(write_json):
    log = as_json_log(LOGS / "refund-agent.json")
    log["samples"][0]["scores"]["includes"]["value"] = {"found": 1}
    verdict = _imported(log, write_json).results[0].verdicts[0]
    assert (verdict.status, verdict.score) == ("error", None)
    assert verdict.reason.endswith("a JSON object with no number")


def test_the_archives_inspect_thresholds_are_read_and_a_bad_one_refused(runsite, archive):
    config = archive / "runsite.toml"
    text = config.read_text(encoding="utf-8")
    assert "[inspect]\ncategorical = 1.0\n" in text
    config.write_text(text + "[inspect.thresholds]\ntool_error_count = 0.5\n", encoding="utf-8")
    log = str(LOGS / "refund-agent.eval")
    result = runsite("import", "--root", str(archive), "--tenant", "acme", log)
    assert result.exit_code == 0, result.output
    listed = runsite("redact", next(iter((archive / "runs").rglob("*.json"))).as_posix())
    assert '"threshold": 0.5' in listed.stdout
    for bad, problem in [("nan", BEYOND_PROBLEM), ('"high"', "a TOML string, not a number")]:
        config.write_text(text + f"[inspect.thresholds]\nincludes = {bad}\n", encoding="utf-8")
        refused = runsite("import", "--root", str(archive), "--tenant", "acme", log)
        assert refused.exit_code == 64
        assert refused.stderr == f"runsite: {config}: inspect.thresholds.includes: {problem}\n"
