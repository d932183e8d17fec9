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
import os
import re
import stat
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

import jiter
import orjson

from generator.publish.source import Committed, Listed
from generator.site.build import hash_files
from generator.site.history import BLOCK
from generator.site.labels import LOCALES
from generator.site.writer import diff_path, diff_role, older_path, run_path

MANIFEST = ".runsite-site"
"""The file each built site holds: what its files were made from. Read as ``Manifest.read``
reads it, it also marks a folder runsite built, and names the only files there runsite may
replace or remove."""

LAYOUT = frozenset(
    {
        *("index.html", "404.html", "sitemap.xml", "sitemap.xml.gz", "assets", "search"),
        *("runs", "suites", "diffs", "boards", "cases", "javascripts", "stylesheets", "images"),
    }
)
"""The names at the top of a site runsite builds, and of each other language's folder: what
mkdocs-material writes, the folders of run, suite, comparison, board and case pages, and
runsite's and the user's assets. A manifest that lists a file anywhere else is not one runsite
wrote."""

_HEX = re.compile("[0-9a-f]*")
_BLOBS = re.compile("(?:[0-9a-f]{40}\n|[0-9a-f]{64}\n)*")
"""Git object ids, each on a line of its own: SHA-1, or SHA-256 in a repository of that
format (tested on them all joined, as a manifest holds thousands)."""


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
    path: str
    """The page path under the language's folder (``runs/<tenant>/<suite>/<key>.md``…)."""
    body: str
    """The digest of the body's inputs."""
    file: str
    """The file it becomes, relative to the site (``page_job`` makes it of the others)."""


def page_job(locale: str, folder: str, kind: str, path: str, body: str) -> PageJob:
    """The page ``path`` of ``kind`` in ``locale``'s ``folder``, whose body's digest is
    ``body``."""
    return PageJob(
        locale, folder, kind, path, body, f"{folder}{path.removesuffix('.md')}/index.html"
    )


@dataclass
class Manifest:
    """What the last build made: the digests it worked from and the site's every file."""

    shells: str = ""
    """The digest of everything a shell is made of."""
    captured: str = ""
    """The digest of the shells themselves, as the theme rendered them."""
    runs: list[str] = field(default_factory=list)
    """The blob id of every run the site was built from (and scanned against)."""
    bodies: dict[str, str] = field(default_factory=dict)
    """For each run or comparison page's file, its body digest."""
    files: dict[str, str] = field(default_factory=dict)
    """For each file of the site, the SHA-256 of its bytes."""
    digest: str = field(default="", compare=False)
    """The SHA-256 of the manifest's own file, as ``read`` found it: what names the site it
    describes (``guard.windows``)."""

    @classmethod
    def read(cls, out: Path, trusted: str = "") -> Manifest | None:
        """The manifest of the site at ``out``, or None where there is none runsite wrote.

        Known by its content, not by its name: the shape ``text`` writes, every digest a
        SHA-256, every file a plain path inside the site's ``LAYOUT`` (no ``..``, no absolute
        path, nothing under a dot-folder), every body a file's. A file of that name planted in
        a folder, empty or listing files a site does not hold, does not make it a site. A file
        whose digest is ``trusted`` (the one runsite's cache says it put there) is taken as
        the manifest it wrote, without that test (0.065 s at 10,000 runs).

        Parsed by jiter, in 12 ms at 10,000 runs (14 MB) where the stdlib's parser took 30; a
        key written twice, or text that is not UTF-8, makes it no manifest."""
        data = regular_bytes(out / MANIFEST)
        try:
            found: Any = jiter.from_json(data, cache_mode="none") if data is not None else None
        except ValueError:  # not JSON, or nested past the parser's depth
            return None
        if not isinstance(found, dict) or found.keys() != {*_FIELDS}:
            return None
        assert data is not None  # JSON was read from it
        digest = hashlib.sha256(data).hexdigest()
        shells, captured, runs, bodies, files = (found[name] for name in _FIELDS)
        if digest != trusted and not (
            _digests([shells, captured])
            and isinstance(runs, list)
            and all(isinstance(run, str) and len(run) in (40, 64) for run in runs)
            and _BLOBS.fullmatch("".join(f"{run}\n" for run in runs)) is not None
            and isinstance(files, dict)
            and _site_files(files)
            and _digests(files.values())
            and isinstance(bodies, dict)
            and all(file in files for file in bodies)
            and _digests(bodies.values())
        ):
            return None
        return cls(shells, captured, runs, bodies, files, digest)

    def data(self) -> bytes:
        """The manifest's file: compact JSON, keys sorted, written by orjson in 3 ms at 10,000
        runs where the stdlib's C encoder took 40 (the same bytes)."""
        data = {
            "shells": self.shells,
            "captured": self.captured,
            "runs": sorted(self.runs),
            "bodies": self.bodies,
            "files": self.files,
        }
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)


_FIELDS = ("shells", "captured", "runs", "bodies", "files")


def _digests(values: Collection[object]) -> bool:
    """Whether every one of ``values`` is a SHA-256 in hex: tested on them all joined, as a
    manifest holds tens of thousands."""
    hexes = [value for value in values if isinstance(value, str) and len(value) == 64]
    return len(hexes) == len(values) and _HEX.fullmatch("".join(hexes)) is not None


def _site_files(files: Collection[str]) -> bool:
    """Whether every one of ``files`` is a path a site runsite builds may hold: relative,
    normalised, no part empty or a dot-name (nor ``..``), and under a name of its ``LAYOUT``
    or of a language's folder's."""
    joined = "\n/" + "\n/".join(files) + "\n"
    if "/." in joined or "//" in joined or "/\n" in joined or "\0" in joined:
        return False
    tops = (file.split("/", 2) for file in files)
    return all((top[1] if top[0] in LOCALES and len(top) > 1 else top[0]) in LAYOUT for top in tops)


def regular_bytes(path: Path) -> bytes | None:
    """The bytes of the regular file at ``path``; None for anything else there (nothing, a
    folder, a link, which is not followed, a FIFO, which is not waited on)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        with open(handle, "rb", closefd=False) as opened:
            return opened.read()
    except OSError:
        return None
    finally:
        os.close(handle)


class Block(NamedTuple):
    """Up to ``BLOCK`` runs of one suite in a row, as a build plans their pages: each run's run
    and comparison pages and, when the block is full, the page of its older runs, in every
    language. A build plans a suite a block at a time, and takes from the last build's records
    each block whose ``key`` it planned too, without planning its pages again: their paths and
    digests, 40,000 of them at 10,000 runs, took 0.1 s of every rebuild."""

    key: str
    """The digest of everything its pages' files and bodies are made of."""
    files: tuple[str, ...]
    bodies: tuple[str, ...]
    """Each page's body digest, in the order of ``files``."""


@dataclass
class Plan:
    """Every page of the site that runsite writes and keeps itself, a block of runs at a time;
    the pages of the blocks planned afresh each as a ``PageJob`` (``fresh``), by the run it
    belongs to (``jobs``) or the block of older runs it shows (``older``)."""

    suites: dict[tuple[str, str], list[Listed]] = field(default_factory=dict)
    references: dict[tuple[str, str], Listed] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    jobs: dict[str, list[PageJob]] = field(default_factory=dict)
    older: dict[tuple[tuple[str, str], int], tuple[PageJob, ...]] = field(default_factory=dict)
    """The pages of each block of older runs planned afresh, by its suite and its place."""

    def fresh(self) -> list[PageJob]:
        """The pages of the blocks planned afresh."""
        return [job for jobs in (*self.jobs.values(), *self.older.values()) for job in jobs]

    def files(self) -> list[str]:
        """Every page's file."""
        return [file for block in self.blocks for file in block.files]

    def bodies(self) -> dict[str, str]:
        """Every page's body digest, by its file."""
        files = chain.from_iterable(block.files for block in self.blocks)
        return dict(zip(files, chain.from_iterable(b.bodies for b in self.blocks), strict=True))


def stale(plan: Plan, old: Manifest | None) -> list[PageJob]:
    """The pages whose body must be rendered, of those planned afresh: all of them where there
    is no last build to go on (or its shells moved), else those whose body's inputs moved."""
    if old is None:
        return plan.fresh()
    return [job for job in plan.fresh() if old.bodies.get(job.file) != job.body]


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
    """Plan the pages of the ``n``th block of a suite, ``runs``, whose key is ``made``
    (``previous``: the run before its first), into ``plan``: its block of older runs' pages too
    when it is full."""
    key = reference.key if reference else None
    pages: list[PageJob] = []
    for listed in runs:
        others = {o.key: o for o in (previous, reference) if o and o.key != listed.key}
        before = previous.key if previous else None
        jobs = plan.jobs.setdefault(listed.blob, [])
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
        pages += jobs
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
    return Block(made, tuple(job.file for job in pages), tuple(job.body for job in pages))
