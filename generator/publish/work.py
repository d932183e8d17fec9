"""The work of a build that runs in parallel: reading runs and writing their pages' bodies (then
``wrapping`` puts the bodies in their shells and sieves every file written), in the processes of
``processes``.

A process reads the runs of one stretch of one suite in order, so each run is read once and
held only while the pages that show it are written (a comparison holds the previous run, and
the suite's reference). What leaves a process is small: each run's summary and sieve keys, what
the check of the kept pages needs of the runs that arrived since the last build
(``windows.arrival``), and the bits the pages it wraps set of the filter of their windows. Every
page's bytes depend on its inputs alone, so they do not depend on how the work was divided or
how many processes did it.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from generator.account.significance import warm
from generator.document.codec import Decoded, read_run
from generator.document.disclosure import Disclosure
from generator.document.payload import payload_texts, unshown
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.errors import DocumentRefused
from generator.guard.sieve import payload_keys
from generator.guard.windows import Arrival, arrival
from generator.publish.cache import Learnt
from generator.publish.plan import PageJob, Plan
from generator.publish.processes import Context, forks, run_in_processes, shared_context
from generator.publish.source import Blobs, Listed
from generator.publish.staging import Stage, staged_body
from generator.site.labels import LOCALES
from generator.site.pages import ComparisonPage, Site, comparison
from generator.site.summary import summarise
from generator.site.templates import environment
from generator.site.writer import diff_path, diff_role


@dataclass(frozen=True)
class Chunk:
    """Consecutive runs of one suite, and what to do with them."""

    runs: tuple[Listed, ...]
    previous: Listed | None
    """The run before the first one, which its comparison page reads."""
    reference: Listed | None
    read: frozenset[str]
    """Blob ids of the runs to learn (summarise, and key their payload): those the cache lacks
    and those that arrived."""
    pages: frozenset[str]
    """Blob ids of the runs whose pages to write (``Context.pages`` plans them)."""
    arrived: frozenset[str]
    """Blob ids of the runs whose ``windows.arrival`` the build wants back (all of them in
    ``read``)."""
    judge: frozenset[str] = frozenset()
    """Blob ids of the runs whose count of checks worse than the reference is not known."""


CHUNK = 32
"""Runs of one suite a process reads in one go: one extra run read per chunk (the previous
run of its first), and work small enough to spread evenly."""


def chunks(
    plan: Plan, wanted: set[str], read: set[str], arrived: set[str], judge: set[str]
) -> list[Chunk]:
    """The reading work: each suite's runs in stretches of ``CHUNK`` (``wanted``: the blob ids
    of the runs whose pages to write)."""
    chunks = []
    for suite, runs in plan.suites.items():
        for start in range(0, len(runs), CHUNK):
            stretch = runs[start : start + CHUNK]
            if not any(r.blob in read or r.blob in wanted or r.blob in judge for r in stretch):
                continue
            chunks.append(
                Chunk(
                    runs=tuple(stretch),
                    previous=runs[start - 1] if start else None,
                    reference=plan.references.get(suite),
                    read=frozenset(r.blob for r in stretch if r.blob in read),
                    pages=frozenset(r.blob for r in stretch if r.blob in wanted),
                    arrived=frozenset(r.blob for r in stretch if r.blob in arrived),
                    judge=frozenset(r.blob for r in stretch if r.blob in judge),
                )
            )
    return chunks


@dataclass(frozen=True)
class Read:
    """What a chunk learnt: when each run it read was measured (its summary's ``created_at``),
    the cache's file of their payload keys, beside the pack of their summaries (None when it
    read none), the ``windows.arrival`` of the runs asked for, and the file its pages' bodies
    wait in for their shells (None when it wrote none)."""

    runs: dict[str, str]
    keys: Path | None
    own: dict[str, Arrival]
    bodies: Path | None
    worse: dict[str, int]
    """For each run of ``Chunk.judge``, its checks worse than the reference."""


_blobs: Blobs | None = None
_sites: list[Site] | None = None


def _shared() -> tuple[Context, Blobs, list[Site]]:
    global _blobs, _sites
    context = shared_context()
    if _blobs is None:
        _blobs = Blobs(context.git_dir)
    if _sites is None:
        _sites = [Site(environment(context.cache.templates), locale) for locale in LOCALES]
    return context, _blobs, _sites


def read_run_of(
    listed: Listed, blobs: Blobs, disclosure: Disclosure
) -> tuple[Decoded, RedactedRun]:
    """A committed run's reading, and the run's redaction; a refusal names its file."""
    try:
        reading = read_run(blobs.document(listed))
    except DocumentRefused as refused:
        raise refused.located(listed.path) from None
    run = reading.run
    if run.key != listed.key or (run.tenant, run.suite) != listed.suite_of:
        raise DocumentRefused(
            "created_at", "the run's tenant, suite and key do not match its place in runs/"
        ).located(listed.path)
    return reading, redact(run, disclosure)


def read_chunks(context: Context, chunks: Sequence[Chunk], jobs: int) -> Iterator[Read]:
    """``read_chunk`` over ``chunks`` in ``jobs`` processes. Where several processes write
    pages, each would import ``scipy.special`` (a tenth of a second, some 30 MB) for the
    quantiles of its pages' intervals and tests: this process imports it once before it forks,
    and they share it."""
    global _blobs
    try:
        if not forks(jobs, chunks):
            yield from run_in_processes(context, read_chunk, chunks, jobs)
            return
        if any(chunk.pages for chunk in chunks):
            warm()
        yield from run_in_processes(context, _read_kept, _kept(context.staging, chunks), jobs)
    finally:
        if _blobs is not None:  # read in this process
            _blobs.close()
            _blobs = None


def read_all(
    context: Context, chunks: Sequence[Chunk], jobs: int, tick: Callable[[], None]
) -> tuple[dict[str, str], dict[str, Arrival], list[Path], dict[str, int]]:
    """Read the chunks in ``jobs`` processes, the cache told what each learnt as it comes:
    when each run read was measured (its summary and keys the cache holds), the
    ``windows.arrival`` of the arrived runs asked for, the files of bodies written, and the
    checks worse than the reference of the runs asked for. ``tick`` once a run."""
    learnt: dict[str, str] = {}
    own: dict[str, Arrival] = {}
    bodies: list[Path] = []
    worse: dict[str, int] = {}
    for chunk, result in zip(chunks, read_chunks(context, chunks, jobs), strict=True):
        learnt.update(result.runs)
        if result.keys is not None:
            context.cache.learnt(result.runs, result.keys)
        own.update(result.own)
        if result.bodies:
            bodies.append(result.bodies)
        worse.update(result.worse)
        for _ in range(len(chunk.runs)):  # not the runs themselves (``_kept``)
            tick()
    return learnt, own, bodies, worse


CHUNKS = "chunks"
"""The file of the build's staging folder the chunks are kept in for the processes that read
them (``_kept``)."""


def _kept(staging: Path, chunks: Sequence[Chunk]) -> list[tuple[int, int]]:
    """The chunks pickled one after the other into a file of ``staging``, each as where it
    begins there and its bytes, before the processes fork: pickled as the processes take them,
    the chunks' runs and pages (shared with the processes since the fork) had their reference
    counts written, and each page of memory that held them was copied, and the build's own
    memory grew by 31 MB over the reading of 10,000 runs; pickled beforehand and held, they
    were 12 MB there."""
    places = []
    with (staging / CHUNKS).open("wb") as kept:
        for chunk in chunks:
            data = pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL)
            places.append((kept.tell(), len(data)))
            kept.write(data)
    return places


def _read_kept(place: tuple[int, int]) -> Read:
    """``read_chunk`` of the chunk kept at ``place`` (``_kept``)."""
    start, size = place
    with (shared_context().staging / CHUNKS).open("rb") as kept:
        kept.seek(start)
        chunk: Chunk = pickle.loads(kept.read(size))
    return read_chunk(chunk)


def read_chunk(chunk: Chunk) -> Read:
    """Read the chunk's runs in order, keep what the cache lacks, write the bodies asked for."""
    context, blobs, sites = _shared()
    held: dict[str, RedactedRun] = {}
    learnt: dict[str, Learnt] = {}
    own: dict[str, Arrival] = {}
    bodies = Stage(context.staging)
    worse: dict[str, int] = {}
    pages = context.pages

    def redacted(listed: Listed) -> RedactedRun:
        if listed.blob not in held:
            reading, redacted = read_run_of(listed, blobs, context.disclosure)
            run = reading.run
            if listed.blob in chunk.read:  # not the cached runs it only shows or compares with
                texts = payload_texts(run, context.disclosure, bool(reading.unknown))
                learnt[listed.blob] = (summarise(redacted), payload_keys(texts))
                if listed.blob in chunk.arrived:
                    own[listed.blob] = arrival(unshown(texts, redacted))
            held[listed.blob] = redacted
        return held[listed.blob]

    try:
        previous = chunk.previous
        for listed in chunk.runs:
            jobs = (
                pages.of(listed, previous, chunk.reference)
                if pages is not None and listed.blob in chunk.pages
                else ()
            )
            if listed.blob in chunk.read or jobs or listed.blob in chunk.judge:
                run = redacted(listed)
                compared: dict[str, ComparisonPage] = {}
                against = partial(_against, compared, run)
                reference = redacted(chunk.reference) if chunk.reference else None
                count = None
                if reference is not None and reference.key != run.key:
                    count = against(reference).worse
                    if listed.blob in chunk.judge:
                        worse[listed.blob] = count
                for job in jobs:
                    site = sites[LOCALES.index(job.locale)]
                    other = _compared(job, run, previous, chunk.reference, redacted)
                    if other is None:
                        before = previous.key if previous else None
                        body = site.run(run, before, _key(chunk.reference), count)
                    else:
                        role = diff_role(other.key, _key(previous), _key(chunk.reference))
                        body = site.diff(run, other, against(other), role)
                    bodies.add(staged_body(job, body))
            keep = {listed.blob} | ({chunk.reference.blob} if chunk.reference else set())
            for blob in [b for b in held if b not in keep]:
                del held[blob]
            previous = listed
    finally:
        bodies_at = bodies.close()
    judged = {(b, chunk.reference.blob): n for b, n in worse.items()} if chunk.reference else {}
    keys = context.cache.keep(learnt, judged, {listed.blob: listed.size for listed in chunk.runs})
    created = {blob: summary.created_at for blob, (summary, _) in learnt.items()}
    return Read(created, keys if learnt else None, own, bodies_at, worse)


def _against(
    compared: dict[str, ComparisonPage], run: RedactedRun, other: RedactedRun
) -> ComparisonPage:
    """``run`` against ``other``, made once for all the pages that show it."""
    if other.key not in compared:
        compared[other.key] = comparison(run, other)
    return compared[other.key]


def _key(listed: Listed | None) -> str | None:
    return listed.key if listed else None


def _compared(
    job: PageJob,
    run: RedactedRun,
    previous: Listed | None,
    reference: Listed | None,
    redacted: Callable[[Listed], RedactedRun],
) -> RedactedRun | None:
    """The run ``job`` compares ``run`` with: None for the run's own page."""
    if job.kind == "run":
        return None
    for other in (previous, reference):
        if other and job.path == diff_path(run.tenant, run.suite, run.key, other.key):
            return redacted(other)
    raise AssertionError(f"no run for {job.path}")
