"""The processes a build works in: forked with what they share (``Context``), each task's
result handed back in order, and a build that ends at once, in one line, when one of them is
killed at its work.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence, Sized
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from multiprocessing.pool import Pool
from pathlib import Path
from typing import TypeVar, cast

from generator.document.disclosure import Disclosure
from generator.errors import ProcessEnded
from generator.guard.sieve import Sieves
from generator.publish.cache import RunCache
from generator.publish.heap import give_back_freed, heap_settled
from generator.publish.plan import Pages
from generator.site.shell import Shell


@dataclass
class Context:
    """What every process of a build shares, set before the processes start."""

    git_dir: Path
    disclosure: Disclosure
    cache: RunCache
    staging: Path
    for_files: bool = False
    """Whether the pages' links name ``index.html`` (a site opened from disk)."""
    pages: Pages | None = None
    """How the build plans the pages of a run it writes, and which it writes."""
    shells: Mapping[tuple[str, str], Shell] | None = None
    sieve: Sieves | None = None
    windows: int | None = None
    """The size (in bits) of the filter of the windows of the pages the build writes, where it
    keeps one (``guard.windows``)."""


_context: Context | None = None


def shared_context() -> Context:
    """The context of the build whose work this process does (``run_in_processes``)."""
    assert _context is not None, "a build's work runs inside run_in_processes"
    return _context


T = TypeVar("T")
R = TypeVar("R")


def forks(jobs: int, tasks: Sized) -> bool:
    """Whether ``run_in_processes`` does ``tasks`` in processes of their own, given ``jobs``."""
    return jobs > 1 and len(tasks) > 1


def run_in_processes(
    context: Context, work: Callable[[T], R], tasks: Sequence[T], jobs: int
) -> Iterator[R]:
    """``work`` over ``tasks`` in ``jobs`` processes forked with ``context`` (in this process
    when one job is asked for), results in the order the tasks were given.

    Python's cycle collector is off while they work, and collects what each task made once it
    ends: a task's runs and pages are millions of short-lived objects that free themselves, and
    the collector, left on, scanned the document being read over and over, a sixth of a build's
    CPU. What the processes start with is frozen first, so that no collection scans it (nor
    touches its pages, which the processes then keep sharing), and what outlives a task (the
    languages' figures, the templates) is scanned once, after the task that made it."""
    global _context
    _context = context
    collecting = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        if not forks(jobs, tasks):
            yield from map(partial(_collected, work), tasks)
            return
        with _forked(min(jobs, len(tasks))) as watched:
            results = watched.pool.imap(partial(_collected, work), tasks)
            for _ in tasks:
                yield watched.wait(results.next)
    finally:
        _context = None
        gc.unfreeze()
        if collecting:
            gc.enable()


WATCH = 1.0
"""Seconds a build waits on its processes between looks at whether they are all alive."""


class _Watched:
    """A pool, and its processes as they were when it started: a pool forks another in the
    place of one that ended, and waits for ever on the work the one that ended had taken."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self._started = self._alive()

    def _alive(self) -> set[int | None]:
        return {process.pid for process in self.pool._pool}  # type: ignore[attr-defined]

    def wait(self, result: Callable[[float], R]) -> R:
        """What ``result`` gives once it is there (it raises ``multiprocessing.TimeoutError``
        until then), or ``ProcessEnded`` as soon as a process the pool started with is gone."""
        while True:
            try:
                return result(WATCH)
            except multiprocessing.TimeoutError:
                if self._alive() != self._started:
                    raise ProcessEnded("a process of the build") from None


@contextmanager
def _forked(count: int) -> Iterator[_Watched]:
    """A pool of ``count`` processes forked from this one, its heap's free pages handed back
    first, watched."""
    give_back_freed()
    with get_context("fork").Pool(count, _worker_started) as pool:
        yield _Watched(pool)


_alone: Callable[[], object] | None = None


def in_a_process(work: Callable[[], R]) -> R:
    """``work()`` in a process forked from this one, and its result (pickled) handed back:
    what it reads and makes, and lets go of, then leaves no holes in this process's heap,
    which the processes forked from it afterwards would share and hold to its end."""
    global _alone
    _alone = work
    try:
        with _forked(1) as watched:
            return cast(R, watched.wait(watched.pool.apply_async(_call_alone).get))
    finally:
        _alone = None


def apart(jobs: int, work: Callable[[], R]) -> R:
    """``work()``: in a process of its own (``in_a_process``) for a build that works in more
    than one (``jobs``), else in this one."""
    return in_a_process(work) if jobs > 1 else work()


def _call_alone() -> object:
    assert _alone is not None, "called by in_a_process"
    return _alone()


def _worker_started() -> None:
    """What each of a build's worker processes does first."""
    _leave_signals()
    heap_settled()


def _leave_signals() -> None:
    """A worker leaves stopping to the build: Ctrl-C reaches every process of the group, and
    the build stops its workers (and says so once) instead of each printing its traceback; and
    the pool's ``terminate`` ends a worker at once, not through a handler it inherited
    (``serve`` turns SIGTERM into an interrupt, which in a worker printed a traceback too)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _collected(work: Callable[[T], R], task: T) -> R:
    """``work(task)``, and then the cycles among what it made collected, and the C heap's free
    pages handed back."""
    result = work(task)
    gc.collect(0)
    give_back_freed()
    return result
