"""The migration chain: what each writing step writes, and the versions it refuses."""

from __future__ import annotations

import json

import pytest

from generator.document.codec import read_run
from generator.document.migrate import STEPS, upgrade
from generator.document.model import SCHEMA
from generator.errors import DocumentRefused
from tests._helpers import a_run, a_verdict
from tests.conftest import CORPUS


def test_every_version_from_5_to_the_current_one_has_a_step():
    assert sorted(STEPS) == list(range(5, SCHEMA + 1))


def test_schema_8_samples_are_derived_from_the_scores_in_metadata():
    path = CORPUS / "digline/brief__fixtures-run-2026-09-01T12-29-17__via-digline-sdist.json"
    original = json.loads(path.read_bytes())
    run = read_run(path.read_bytes()).run
    for before, after in zip(original["results"], run.results, strict=True):
        for old, new in zip(before["verdicts"], after.verdicts, strict=True):
            scores = old["metadata"].get("scores")
            if scores:
                assert (new.samples, new.sample_min, new.sample_max) == (
                    scores,
                    min(scores),
                    max(scores),
                )
            else:
                assert new.samples is None


def test_schema_16_calibration_takes_the_identity_of_the_case_s_single_check():
    doc = a_run(schema_version=16)
    del doc["projected"]
    doc["results"][1]["calibration"] = {"check": "contains", "low": 0.0, "high": 0.5}
    run = read_run(json.dumps(doc).encode()).run
    assert run.results[1].calibration is not None
    assert run.results[1].calibration.assertion_id == "d697b44c72db127b"
    assert run.projected is False


def test_schema_16_calibration_with_no_single_owner_is_refused_naming_the_case():
    doc = a_run(schema_version=16)
    doc["results"][0]["calibration"] = {"check": "llm_rubric", "low": 0.0, "high": 0.5}
    with pytest.raises(DocumentRefused) as caught:
        read_run(json.dumps(doc).encode())
    assert str(caught.value).startswith(
        "results[0].calibration: schema 16 cannot be migrated to 17"
    )


def test_steps_that_write_nothing_leave_the_document_as_it_was():
    doc = a_run(schema_version=18)
    upgraded = upgrade(doc, 18)
    assert upgraded == doc | {"schema_version": SCHEMA}
    assert doc["schema_version"] == 18, "the input is not mutated"


def test_the_oldest_schemas_get_their_structural_keys():
    doc = a_run(schema_version=4)
    for key in ("aggregate", "artifacts", "target_config", "judge_config", "projected"):
        del doc[key]
    for case in doc["results"]:
        del case["suspended"]
    doc["results"] = doc["results"][:2]
    run = read_run(json.dumps(doc).encode()).run
    assert (run.aggregate, run.artifacts, run.projected) == ([], {}, False)
    assert [c.suspended for c in run.results] == [False, False]


@pytest.mark.parametrize(
    ("schema", "why"),
    [
        (0, "predates every schema"),
        (1, "assertion_id on every verdict"),
        (2, "tenant and redacted"),
        (3, "environment on the run"),
        (-4, "predates every schema"),
    ],
)
def test_schemas_before_4_are_refused_saying_what_cannot_be_supplied(schema, why):
    with pytest.raises(DocumentRefused) as caught:
        read_run(json.dumps(a_run(schema_version=schema)).encode())
    assert caught.value.where == "schema_version"
    assert why in caught.value.problem


@pytest.mark.parametrize("schema", [24, 99])
def test_a_newer_schema_is_refused_with_the_way_out(schema):
    with pytest.raises(
        DocumentRefused, match=f"schema {schema} is newer than this runsite reads .*upgrade runsite"
    ):
        read_run(json.dumps(a_run(schema_version=schema)).encode())


def test_a_verdict_with_scores_and_no_samples_migrates_only_from_before_9():
    doc = a_run(schema_version=9)
    doc["aggregate"] = [a_verdict(metadata={"scores": [1.0, 1.0]})]
    assert read_run(json.dumps(doc).encode()).run.aggregate[0].samples is None
