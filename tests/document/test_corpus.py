"""Every real document of the shared corpus reads, migrates to 23, and writes stable bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.document.codec import read_run, run_bytes
from generator.document.model import SCHEMA
from tests.conftest import CORPUS

DOCUMENTS = sorted(CORPUS.glob("digline*/*.json"))


def test_the_corpus_holds_what_the_issue_counts():
    assert len(list(CORPUS.glob("digline/*.json"))) == 47
    assert len(list(CORPUS.glob("digline-local/*.json"))) == 4


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_corpus_document_reads_and_writes_the_same_bytes_twice(path: Path):
    reading = read_run(path.read_bytes())
    original = json.loads(path.read_bytes())
    assert reading.declared_schema == original["schema_version"]
    assert reading.run.schema_version == SCHEMA
    assert reading.unknown == ()
    written = run_bytes(reading.run)
    assert run_bytes(read_run(written).run) == written
    assert len(reading.run.results) == len(original["results"])


def test_a_schema_21_document_is_rewritten_as_digline_wrote_it_but_for_its_schema():
    path = CORPUS / "digline/classifier__expense-triage__pypi-0.34.0.json"
    original = path.read_bytes()
    written = run_bytes(read_run(original).run)
    assert written == original.replace(b'"schema_version": 21', b'"schema_version": 23')


def test_the_corpus_spans_the_schemas_runsite_must_read():
    schemas = {json.loads(p.read_bytes())["schema_version"] for p in DOCUMENTS}
    assert schemas == set(range(7, 22))
