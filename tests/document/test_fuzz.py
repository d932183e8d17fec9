"""Fuzzing the reader: whatever bytes arrive, it reads a run or refuses in one line, and a run
it reads goes everywhere a run goes (written back, redacted, read back, searched for payload)
without breaking; its quick reading never reads what its careful one refuses. 10,500 generated
documents and names."""

from __future__ import annotations

from datetime import UTC

import pytest
from hypothesis import given, settings

from generator.document.codec import (
    _read_carefully,
    _read_quickly,
    read_redacted,
    read_run,
    redacted_bytes,
    run_bytes,
)
from generator.document.disclosure import NOTHING, Disclosure
from generator.document.model import Run
from generator.document.payload import payload_strings
from generator.document.redact import redact
from generator.document.values import hidden_character, moment_of
from generator.errors import DocumentRefused
from tests._hostile import documents, named_runs, text_of


def _goes_everywhere(run: Run) -> None:
    written = run_bytes(run)
    assert run_bytes(read_run(written).run) == written
    for disclosure in (NOTHING, Disclosure(tool_names=True, run_metadata=["ticket"])):
        redacted = redact(run, disclosure)
        published = redacted_bytes(redacted)
        assert redacted_bytes(read_redacted(published)) == published
        payload_strings(run, disclosure, redacted)
    moment_of(run.created_at).astimezone(UTC)
    assert run.key


def _read_or_refused(data: bytes) -> Run | None:
    try:
        return read_run(data).run
    except DocumentRefused as refused:
        assert "\n" not in str(refused) and "\r" not in str(refused)
        return None


@pytest.mark.slow
@settings(max_examples=5_500, deadline=None)
@given(documents())
def test_any_document_is_read_whole_or_refused_in_one_line(data):
    run = _read_or_refused(data)
    if run is not None:
        _goes_everywhere(run)


@pytest.mark.slow
@settings(max_examples=2_000, deadline=None)
@given(named_runs())
def test_a_name_a_page_shows_is_read_only_without_hidden_characters(doc):
    run = _read_or_refused(text_of(doc))
    if run is not None:
        shown = [run.tenant, run.suite, run.environment, run.results[0].case_id]
        shown.append(run.results[1].verdicts[0].assertion)
        assert [name for name in shown if hidden_character(name)] == []
        _goes_everywhere(run)


@pytest.mark.slow
@settings(max_examples=3_000, deadline=None)
@given(documents())
def test_the_quick_reading_reads_only_what_the_careful_one_reads_the_same(data):
    quick = _read_quickly(data)
    if quick is not None:
        careful = _read_carefully(data)
        assert (quick.run, quick.declared_schema, quick.unknown) == (
            careful.run,
            careful.declared_schema,
            careful.unknown,
        )
