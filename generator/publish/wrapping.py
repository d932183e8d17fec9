"""The second half of a build's parallel work: each chunk's bodies put in their shells and
written, and every file written sieved for every run's payload keys, in the processes of
``processes.run_in_processes``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from generator.guard.kept import content_digest
from generator.guard.windows import Batch, Pieces
from generator.publish.processes import Context, run_in_processes, shared_context
from generator.publish.staging import staged_bodies
from generator.site.rewrite import for_files
from generator.site.shell import WORN


class Written(NamedTuple):
    """A file a build wrote or kept, its content digest, and the runs the sieve let through.
    (A tuple, its runs most often ``NONE``: a build holds one for each of 40,000 pages at
    10,000 runs, which as frozen dataclasses, each with its own empty set, took 32 MB.)"""

    file: str
    digest: str
    runs: frozenset[int]


NONE: frozenset[int] = frozenset()


def wrap_all(
    context: Context, bodies: Sequence[Path], jobs: int, tick: Callable[[], None]
) -> tuple[list[Written], list[Batch]]:
    """``wrap`` each file of bodies in ``jobs`` processes: the pages written, and the bits they
    set of a filter of their windows of ``context.windows`` bits (none where it is None).
    ``tick`` once a page."""
    written: list[Written] = []
    batches: list[Batch] = []
    for batch, windows in run_in_processes(context, wrap, bodies, jobs):
        written += batch
        batches += [windows] if windows is not None else []
        for _ in batch:
            tick()
    return written, batches


def wrap(source: Path) -> tuple[list[Written], Batch | None]:
    """Put each body of a chunk in its shell, write the page, and sieve it: what was written,
    and the bits the pages set of the filter of their windows (where the build keeps one)."""
    context = shared_context()
    assert context.shells is not None and context.sieve is not None
    written = []
    made = {context.staging}  # the folders known to be there
    pieces = Pieces()
    for job, title, body in staged_bodies(source):
        if context.for_files:
            body = for_files(body.decode()).encode()
        data = context.shells[(job.locale, WORN[job.kind])].wrap(title, job.path, body)
        del body
        target = context.staging / "site" / job.file
        if target.parent not in made:
            _make(target.parent, made)
        target.write_bytes(data)
        written.append(
            Written(job.file, content_digest(data), frozenset(context.sieve.runs_in(data)) or NONE)
        )
        if context.windows is not None:
            pieces.add(data)
    if context.windows is None:
        return written, None
    return written, pieces.keep(context.windows, context.staging / "windows")


def _make(folder: Path, made: set[Path]) -> None:
    """Make ``folder`` and those above it that ``made`` lacks, and add them to it. Each from the
    top down: a comparison's page is the first in its folder's parent (``diffs/…/<run>/``), and
    ``mkdir(parents=True)`` first failed on it, raised, made the parent and tried again (3
    system calls and an exception for one folder, 8,100 calls for 4,000 pages at 1,000 runs)."""
    if folder.parent not in made:
        _make(folder.parent, made)
    folder.mkdir(exist_ok=True)
    made.add(folder)
