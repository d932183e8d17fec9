"""The work of a build that runs in parallel: reading runs and writing their pages' bodies, then
wrapping bodies in their shells and sieving every file written.

A process reads the runs of one stretch of one suite in order, so each run is read once and
held only while the pages that show it are written (a comparison holds the previous run, and
the suite's reference). What leaves a process is small: each run's summary, and the payload
strings of the runs that arrived since the last build. Every page's bytes depend on its inputs
alone, so they do not depend on how the work was divided or how many processes did it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import TypeVar

from generator.document.codec import read_run
from generator.document.payload import payload_strings
from generator.document.redact import redact
from generator.document.redacted import Disclosure, RedactedRun
from generator.errors import DocumentRefused
from generator.publish.cache import RunCache
from generator.publish.plan import PageJob, content_digest
from generator.publish.source import Blobs, Listed
from generator.site.build import environment
from generator.site.labels import LOCALES
from generator.site.pages import Body, Site, comparison, diff_path
from generator.site.scan import Sought
from generator.site.shell import Shell
from generator.site.sieve import Sieve, payload_keys
from generator.site.summary import RunSummary, summarise


@dataclass(frozen=True)
class Chunk:
    """Consecutive runs of one suite, and what to do with them."""

    runs: tuple[Listed, ...]
    previous: Listed | None
    """The run before the first one, which its comparison page reads."""
    reference: Listed | None
    read: frozenset[str]
    """Blob ids of the runs to read: not yet summarised, or shown on a page to write."""
    jobs: Mapping[str, tuple[PageJob, ...]]
    """The pages to write, by the blob id of the run they belong to."""
    arrived: frozenset[str]
    """Blob ids of the runs whose payload strings the build wants back."""


@dataclass(frozen=True)
class Read:
    """What a chunk learnt: summaries of the runs read, and payload strings asked for."""

    summaries: dict[str, RunSummary]
    payload: dict[str, dict[str, str]]
    bodies: int


@dataclass
class Context:
    """What every process of a build shares, set before the processes start."""

    git_dir: Path
    disclosure: Disclosure
    cache: RunCache
    staging: Path
    shells: Mapping[tuple[str, str], Shell] | None = None
    sieve: Sieve | None = None
    exact: Sought | None = None
    """The payload of the runs that arrived, for the files a build keeps."""
    kept: Mapping[str, str] | None = None
    """The content digest of each file the build keeps, as the last build wrote it."""


_context: Context | None = None
_blobs: Blobs | None = None
_sites: list[Site] | None = None


def _shared() -> tuple[Context, Blobs, list[Site]]:
    global _blobs, _sites
    assert _context is not None, "a build's work runs inside run_in_processes"
    if _blobs is None:
        _blobs = Blobs(_context.git_dir)
    if _sites is None:
        _sites = [Site(environment(), locale) for locale in LOCALES]
    return _context, _blobs, _sites


T = TypeVar("T")
R = TypeVar("R")


def run_in_processes(
    context: Context, work: Callable[[T], R], tasks: Sequence[T], jobs: int
) -> Iterator[R]:
    """``work`` over ``tasks`` in ``jobs`` processes forked with ``context`` (in this process
    when one job is asked for), results in the order the tasks were given."""
    global _context, _blobs
    _context = context
    try:
        if jobs <= 1 or len(tasks) <= 1:
            yield from map(work, tasks)
            return
        with get_context("fork").Pool(min(jobs, len(tasks))) as pool:
            yield from pool.imap(work, tasks)
    finally:
        if _blobs is not None:
            _blobs.close()
            _blobs = None
        _context = None


def read_run_of(
    listed: Listed, blobs: Blobs, disclosure: Disclosure
) -> tuple[RedactedRun, dict[str, str]]:
    """A committed run, redacted, and its payload strings; a refusal names its file."""
    try:
        run = read_run(blobs.read(listed.blob)).run
    except DocumentRefused as refused:
        raise refused.located(listed.path) from None
    if run.key != listed.key or (run.tenant, run.suite) != listed.suite_of:
        raise DocumentRefused(
            "created_at", "the run's tenant, suite and key do not match its place in runs/"
        ).located(listed.path)
    redacted = redact(run, disclosure)
    return redacted, payload_strings(run, disclosure, redacted)


def _body_file(staging: Path, job: PageJob) -> Path:
    return staging / "bodies" / job.file


def read_chunk(chunk: Chunk) -> Read:
    """Read the chunk's runs in order, keep what the cache lacks, write the bodies asked for."""
    context, blobs, sites = _shared()
    held: dict[str, RedactedRun] = {}
    summaries: dict[str, RunSummary] = {}
    payload: dict[str, dict[str, str]] = {}
    bodies = 0

    def redacted(listed: Listed) -> RedactedRun:
        if listed.blob not in held:
            run, strings = read_run_of(listed, blobs, context.disclosure)
            summary = summarise(run)
            context.cache.keep(listed.blob, summary, payload_keys(strings))
            summaries[listed.blob] = summary
            if listed.blob in chunk.arrived:
                payload[listed.blob] = strings
            held[listed.blob] = run
        return held[listed.blob]

    previous = chunk.previous
    for listed in chunk.runs:
        jobs = chunk.jobs.get(listed.blob, ())
        if listed.blob in chunk.read or jobs:
            run = redacted(listed)
            for job in jobs:
                site = sites[LOCALES.index(job.locale)]
                other = _compared(job, run, previous, chunk.reference, redacted)
                if other is None:
                    body = site.run(run, previous.key if previous else None, _key(chunk.reference))
                else:
                    body = site.diff(run, other, comparison(run, other))
                _stage(context.staging, job, body)
                bodies += 1
        keep = {listed.blob} | ({chunk.reference.blob} if chunk.reference else set())
        for blob in [b for b in held if b not in keep]:
            del held[blob]
        previous = listed
    return Read(summaries, payload, bodies)


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


def _stage(staging: Path, job: PageJob, body: Body) -> None:
    target = _body_file(staging, job)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(body.title) + "\n" + body.html, encoding="utf-8")


@dataclass(frozen=True)
class Written:
    """A file a build wrote or kept, its content digest, and the runs the sieve let through."""

    file: str
    digest: str
    runs: frozenset[int]
    fields: frozenset[str] = frozenset()
    """For a kept file: the fields of the arrived runs' payload it carries."""


def wrap(jobs: Sequence[PageJob]) -> list[Written]:
    """Put each staged body in its shell, write the page, and sieve it."""
    context, _, _ = _shared()
    assert context.shells is not None and context.sieve is not None
    written = []
    for job in jobs:
        source = _body_file(context.staging, job).read_text(encoding="utf-8")
        title, body = source.split("\n", 1)
        page = context.shells[(job.locale, job.kind)].wrap(json.loads(title), job.path, body)
        data = page.encode("utf-8")
        target = context.staging / "site" / job.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written.append(
            Written(job.file, content_digest(data), frozenset(context.sieve.runs_in(data)))
        )
    return written


def check_kept(files: Sequence[tuple[Path, str]]) -> list[Written]:
    """Each kept file's content digest, and the arrived runs' payload it carries."""
    context, _, _ = _shared()
    assert context.exact is not None
    found = []
    for path, file in files:
        data = path.read_bytes()
        found.append(
            Written(
                file, content_digest(data), frozenset(), frozenset(context.exact.fields_in(data))
            )
        )
    return found


def batches(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """``items`` in consecutive batches of ``size``."""
    return [items[n : n + size] for n in range(0, len(items), size)]
