"""Work a build does in processes of its own (``publish.processes``): what it makes, and what it
refuses, reach the build as if it had done the work itself, and a process killed at its work
ends the build at once."""

from __future__ import annotations

import os
import signal
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest

from generator.errors import DocumentRefused, ProcessEnded
from generator.publish.processes import Context, in_a_process, run_in_processes


def _refused() -> None:
    raise DocumentRefused("created_at", "not an ISO-8601 timestamp", "runs/acme/a.json")


def test_work_done_apart_hands_its_result_back_from_another_process():
    assert in_a_process(os.getpid) != os.getpid()
    assert in_a_process(lambda: {("en", "run"): "made"}) == {("en", "run"): "made"}


def test_a_refusal_raised_apart_is_the_same_refusal_here():
    with pytest.raises(DocumentRefused) as refused:
        in_a_process(_refused)
    assert str(refused.value) == "runs/acme/a.json: created_at: not an ISO-8601 timestamp"


def _killed(n: int = 0) -> int:
    """Work whose process is killed at it, as the system kills one when short of memory."""
    if n == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_process_killed_at_its_work_ends_the_build_with_one_line_not_a_wait():
    context = Context(Path(), cast(Any, None), cast(Any, None), Path())
    with pytest.raises(ProcessEnded, match=r"^a process of the build ended before its work"):
        list(run_in_processes(context, _killed, [0, 1, 2, 3], 2))
    with pytest.raises(ProcessEnded):
        in_a_process(partial(_killed, 1))
    assert list(run_in_processes(context, _killed, [0, 2, 3], 2)) == [0, 2, 3]
