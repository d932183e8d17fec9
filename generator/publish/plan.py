"""Which pages a build writes: each page's inputs as a digest, against the last build's.

Every output file is a function of what it was made from. A run or comparison page is its
body (the redacted runs it shows, through runsite's code and labels, in one language) inside
its shell (the theme's page made of the user's ``mkdocs.yml``, the site's settings and the
navigation); the manifest keeps both digests for each page, and the content digest of every
file of the site. A build renders a body only when its digest moved, wraps it again when its
shell moved, and leaves every other page as it is: the same bytes a full build would write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from generator.guard.kept import content_digest
from generator.guard.signatures import DIGEST
from generator.publish.manifest import REST, Manifest, Part
from generator.publish.source import Committed, Listed
from generator.site.build import hash_files
from generator.site.history import BLOCK
from generator.site.labels import LOCALES
from generator.site.writer import diff_path, diff_role, older_path, run_path


def digest(*parts: object) -> str:
    """A digest of JSON-able ``parts``."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _page_digest(*parts: str | list[str] | None) -> str:
    """A digest of a page's inputs (strings, lists of them, None) as ``repr`` writes them, which
    tells every one of them apart: a microsecond a page, where ``digest``'s JSON took five (0.2 s
    of a rebuild at 10,000 runs)."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def code_digest(*folders: Path) -> str:
    """runsite's own version, exactly: every file of its code, templates and assets."""
    hashed = hashlib.sha256()
    for folder in folders:
        hash_files(hashed, folder)
    return hashed.hexdigest()


class PageJob(NamedTuple):
    """A run or comparison page of one language: where it goes and what it is made of. (A
    tuple: a build plans 40,000 of them at 10,000 runs, at a third of a frozen dataclass's
    cost each.)"""

    locale: str
    folder: str
    """Where the language's pages are: ``""`` for the site's own language, else ``it/``…"""
    kind: str
    """``run``, ``diff`` or ``older`` (a block of a suite's older runs): which shell wraps it
    (``shell.WORN``)."""
    body: str
    """The digest of the body's inputs."""
    file: str
    """The file it becomes, relative to the site (``page_job`` makes it of its path)."""

    @property
    def path(self) -> str:
        """The page path under the language's folder (``runs/<tenant>/<suite>/<key>.md``…),
        made again of its file: held too, the 40,000 of a build at 10,000 runs took 5.6 MB of
        its memory, shared with every process it forked."""
        return f"{self.file[len(self.folder) : -len(_INDEX)]}.md"


_INDEX = "/index.html"


def page_job(locale: str, folder: str, kind: str, path: str, body: str) -> PageJob:
    """The page ``path`` (a ``.md`` file's) of ``kind`` in ``locale``'s ``folder``, whose
    body's digest is ``body``."""
    return PageJob(locale, folder, kind, body, f"{folder}{path.removesuffix('.md')}{_INDEX}")


class Block(NamedTuple):
    """Up to ``BLOCK`` runs of one suite in a row, as a build plans their pages: each run's run
    and comparison pages and, when the block is full, the page of its older runs, in every
    language. A build plans a suite a block at a time, and takes from the last build's records
    each block whose ``key`` it planned too, without planning its pages again: their paths and
    digests, 40,000 of them at 10,000 runs, took 0.1 s of every rebuild. Its pages' files and
    digests are held packed, two objects a block: as a string and a digest each, they took
    10.4 MB of the build's memory there, shared with every process it forked."""

    key: str
    """The digest of everything its pages' files and bodies are made of."""
    listing: str
    """Its pages' files, ``\0`` between two (``files``)."""
    digests: bytes
    """Each page's body digest, raw, in the order of its files (``bodies``)."""

    @classmethod
    def of(cls, key: str, pages: Sequence[PageJob]) -> Block:
        """The block ``key`` of ``pages``."""
        digests = b"".join(bytes.fromhex(job.body) for job in pages)
        return cls(key, "\0".join(job.file for job in pages), digests)

    @property
    def pages(self) -> int:
        """How many pages it has."""
        return len(self.digests) // DIGEST

    def files(self) -> list[str]:
        """Its pages' files."""
        return self.listing.split("\0")

    def bodies(self) -> list[str]:
        """Each page's body digest, in the order of ``files``."""
        digests = self.digests
        return [digests[n : n + DIGEST].hex() for n in range(0, len(digests), DIGEST)]


@dataclass
class Plan:
    """Every page of the site that runsite writes and keeps itself, a block of runs at a time:
    the runs of the blocks planned afresh (``fresh``), whose pages a build plans again when it
    renders them (``Pages``), and the pages of their blocks of older runs (``older``)."""

    suites: dict[tuple[str, str], list[Listed]] = field(default_factory=dict)
    references: dict[tuple[str, str], Listed] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    fresh: set[str] = field(default_factory=set)
    """The blob ids of the runs of the blocks planned afresh."""
    fresh_pages: int = 0
    """How many pages the blocks planned afresh have."""
    older: dict[tuple[tuple[str, str], int], tuple[PageJob, ...]] = field(default_factory=dict)
    """The pages of each block of older runs planned afresh, by its suite and its place."""

    def pages(self) -> int:
        """How many pages it has."""
        return sum(block.pages for block in self.blocks)

    def files(self) -> list[str]:
        """Every page's file."""
        return [file for block in self.blocks for file in block.files()]


@dataclass(frozen=True)
class Pages:
    """How a build plans the pages of a run of a block planned afresh, and which of them it
    renders: all of them where ``bodies`` is None (no last build to go on, or its shells
    moved), else those whose body's inputs moved (``bodies``: the last build's body digests
    of the pages of the blocks planned afresh). Its processes plan a run's pages when they
    render them: held from the plan on, a full build's 40,000 at 10,000 runs took 17 MB of its
    memory, which every process it forked shared."""

    folders: Mapping[str, str]
    inputs: str
    bodies: Mapping[str, str] | None

    def wanted(self, job: PageJob) -> bool:
        """Whether the build renders ``job``."""
        return self.bodies is None or self.bodies.get(job.file) != job.body

    def of(
        self, listed: Listed, previous: Listed | None, reference: Listed | None
    ) -> list[PageJob]:
        """The pages of ``listed`` to render (``previous``: the run before it in its suite)."""
        planned = run_pages(listed, previous, reference, self.folders, self.inputs)
        return [job for job in planned if self.wanted(job)]


class Rendered(NamedTuple):
    """The pages a build renders."""

    runs: set[str]
    """The blob ids of the runs whose run or comparison pages it renders."""
    files: set[str] | None
    """Their files, and those of the blocks of older runs it renders; None where it renders
    every page of the blocks planned afresh."""
    older: set[str]
    """The files of the blocks of older runs it renders."""
    pages: int
    """How many."""


def rendered(plan: Plan, pages: Pages) -> Rendered:
    """The pages of ``plan`` that the build renders, as ``pages`` says."""
    older = {job.file for jobs in plan.older.values() for job in jobs if pages.wanted(job)}
    if pages.bodies is None:
        return Rendered(plan.fresh, None, older, plan.fresh_pages)
    runs: set[str] = set()
    files = set(older)
    for suite, listed in plan.suites.items():
        reference = plan.references.get(suite)
        for previous, run in zip([None, *listed], listed, strict=False):
            if run.blob in plan.fresh:
                jobs = pages.of(run, previous, reference)
                if jobs:
                    runs.add(run.blob)
                    files.update(job.file for job in jobs)
    return Rendered(runs, files, older, len(files))


def manifest_made(
    plan: Plan,
    top: Manifest,
    last: Manifest | None,
    reused: Collection[str],
    dropped: Part,
    pages: Mapping[str, str],
    rest: Mapping[str, str],
    folder: Path,
) -> Manifest:
    """The manifest of the site ``plan`` makes, ``top`` its top's fields, with the files of its
    parts that ``last`` (the manifest in place, where the build keeps pages) lacks written into
    ``folder``, each as it is made (held until all were, 25 MB at 10,000 runs).
    The blocks whose key is in ``reused`` keep the part ``last`` has of them; a part is made
    of each other block, its pages' digests those of ``pages`` (the pages written) or else
    those of ``dropped`` (the last site's files outside ``reused``'s parts), and one of
    ``rest``, the site's other files."""
    parts: dict[str, str] = {}
    held: dict[str, Part] = {}
    for block in plan.blocks:
        if last is not None and block.key in reused:
            parts[block.key] = last.parts[block.key]
            continue
        listed = block.files()
        files = {file: pages.get(file) or dropped.files[file] for file in listed}
        held[block.key] = Part(files, dict(zip(listed, block.bodies(), strict=True)))
    held[REST] = Part(rest, {})
    before = set(last.parts.values()) if last else set()
    folder.mkdir()
    for label, part in held.items():
        data = part.data()
        parts[label] = content_digest(data)
        if parts[label] not in before:
            (folder / parts[label]).write_bytes(data)
    made = Manifest(top.shells, top.captured, top.runs, parts)
    made.held.update({parts[label]: part for label, part in held.items()})
    return made


def plan_pages(
    head: Committed,
    moments: Mapping[str, datetime],
    folders: Mapping[str, str],
    inputs: str,
    planned: Mapping[str, Block],
) -> Plan:
    """Each suite's runs in order, its reference, and every page with its body's digest: a block
    of runs at a time, taken from ``planned`` (the last build's, by key) where it is there.

    A run's page shows the run and links to its comparisons with the previous run and the
    reference; a comparison page shows its two runs; a block of older runs shows its runs, as
    they stand against the reference. ``inputs`` is the digest of runsite's code and the
    disclosure, which every body depends on.
    """
    grouped: dict[tuple[str, str], list[Listed]] = {}
    for listed in head.runs:
        grouped.setdefault(listed.suite_of, []).append(listed)
    plan = Plan()
    places = sorted(folders.items())
    for suite in sorted(grouped):
        runs = sorted(grouped[suite], key=lambda entry: (moments[entry.blob], entry.key))
        plan.suites[suite] = runs
        key = head.references.get(suite)
        reference = next((entry for entry in runs if entry.key == key), None)
        if reference:
            plan.references[suite] = reference
        for start in range(0, len(runs), BLOCK):
            previous = runs[start - 1] if start else None
            stretch = runs[start : start + BLOCK]
            made = _page_digest(
                "block",
                inputs,
                [f"{locale}:{folder}" for locale, folder in places],
                [*suite, str(start)],
                [reference.blob, reference.key] if reference else None,
                [previous.blob, previous.key] if previous else None,
                [f"{r.blob}:{r.key}" for r in stretch],
            )
            block = planned.get(made)
            if block is None:
                block = _plan_block(
                    plan, made, stretch, start // BLOCK, previous, reference, folders, inputs
                )
            plan.blocks.append(block)
    return plan


def _plan_block(
    plan: Plan,
    made: str,
    runs: list[Listed],
    n: int,
    previous: Listed | None,
    reference: Listed | None,
    folders: Mapping[str, str],
    inputs: str,
) -> Block:
    """Plan the ``n``th block of a suite, ``runs``, whose key is ``made`` (``previous``: the
    run before its first), into ``plan``: its runs, and its block of older runs' pages when it
    is full."""
    pages: list[PageJob] = []
    for listed in runs:
        pages += run_pages(listed, previous, reference, folders, inputs)
        plan.fresh.add(listed.blob)
        previous = listed
    if len(runs) == BLOCK:
        suite = runs[0].suite_of
        blobs = [r.blob for r in runs]
        against = reference.blob if reference else None
        path = older_path(*suite, n)
        older = tuple(
            page_job(
                locale,
                folders[locale],
                "older",
                path,
                _page_digest("older", inputs, locale, blobs, against),
            )
            for locale in LOCALES
        )
        plan.older[(suite, n)] = older
        pages += older
    plan.fresh_pages += len(pages)
    return Block.of(made, pages)


def run_pages(
    listed: Listed,
    previous: Listed | None,
    reference: Listed | None,
    folders: Mapping[str, str],
    inputs: str,
) -> list[PageJob]:
    """A run's page and its comparison pages (with ``previous``, the run before it in its
    suite, and with the suite's ``reference``), in every language of ``folders``."""
    key = reference.key if reference else None
    before = previous.key if previous else None
    others = {o.key: o for o in (previous, reference) if o and o.key != listed.key}
    jobs = []
    for locale in LOCALES:
        folder = folders[locale]
        run_digest = _page_digest("run", inputs, locale, listed.blob, before, key)
        path = run_path(listed.tenant, listed.suite, listed.key)
        jobs.append(page_job(locale, folder, "run", path, run_digest))
        for other in others.values():
            path = diff_path(listed.tenant, listed.suite, listed.key, other.key)
            role = diff_role(other.key, before, key)
            body = _page_digest("diff", inputs, locale, listed.blob, other.blob, role)
            jobs.append(page_job(locale, folder, "diff", path, body))
    return jobs
