"""Work a build does in a process of its own (``publish.work.in_a_process``): what it makes, and
what it refuses, reach the build as if it had done the work itself."""

from __future__ import annotations

import os

import pytest

from generator.errors import DocumentRefused
from generator.publish.work import in_a_process


def _refused() -> None:
    raise DocumentRefused("created_at", "not an ISO-8601 timestamp", "runs/acme/a.json")


def test_work_done_apart_hands_its_result_back_from_another_process():
    assert in_a_process(os.getpid) != os.getpid()
    assert in_a_process(lambda: {("en", "run"): "made"}) == {("en", "run"): "made"}


def test_a_refusal_raised_apart_is_the_same_refusal_here():
    with pytest.raises(DocumentRefused) as refused:
        in_a_process(_refused)
    assert str(refused.value) == "runs/acme/a.json: created_at: not an ISO-8601 timestamp"
