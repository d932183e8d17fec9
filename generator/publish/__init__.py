"""``runsite build``: from the archive to a published site, redacted by construction and
checked anyway.

The one place that holds both sides of the boundary: it reads each full run from the archive,
hands the site only its redacted projection, and keeps the run's payload to search the built
site for. The build, in order:

1. list the runs committed at HEAD, and order each suite's runs by when they were measured;
2. plan every run and comparison page by the digest of its inputs, against the last build's
   manifest (``plan``): only the pages whose inputs moved are written. A suite is planned a
   block of its runs at a time, and a block the last build planned the same is taken from the
   cache's records of the site (``records``), its pages kept without a look at each;
3. read the runs in parallel, a stretch of one suite per process, writing the bodies of those
   pages and keeping each run's summary and payload keys in the cache (``work``, ``cache``);
4. let mkdocs build the home and suite pages and the shells, from the summaries (a suite's page
   and search entries kept from the last build while its history stands still: ``suites``);
5. wrap each body in its shell, and sieve every file written for every run's payload keys
   (``guard.sieving``), while a process of its own sieves every file kept for the payload of the
   runs that arrived (``guard.kept``, handed its work as soon as those runs' keys are known:
   before the runs are read, when so few arrived that the build reads them for it first,
   ``EARLY``), but for the runs the filter of the kept pages' windows rules out
   (``guard.windows``), to which the build adds the pages it writes;
6. confirm what the sieves let through with the guard's exact search (``confirm``), and
   refuse the build on a leak;
7. put the site in place (``apply``), sign the files it left there, so that the next build's
   check takes them as written without reading them (``guard.signatures.sign``), and record the
   filter of its pages' windows as the one of this site.

The scan is as whole as a full build's: every file written is searched for the payload of
every run, and every file kept (unchanged since the last build, which searched it for the
payload of every run it had) for the payload of the runs that arrived since. A kept file whose
bytes are not those the last build wrote makes the build a full one, and any other file not
what the last build wrote (edited by hand) is put back, even where this build makes the same
bytes.
"""

from __future__ import annotations

import gc
import os
import tempfile
from collections.abc import Callable, Collection, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from generator.archive import Archive
from generator.errors import Refused
from generator.guard.kept import content_digest
from generator.guard.kept_check import KeptCheck
from generator.guard.sieving import run_sieve
from generator.guard.signatures import sign
from generator.guard.windows import Arrival
from generator.publish.again import arrivals_of, payload_keys_of, summaries_of
from generator.publish.apply import building, place
from generator.publish.cache import FOLDER, RunCache
from generator.publish.confirm import confirm, kept_found, sieve_rest
from generator.publish.keeping import Keeping
from generator.publish.manifest import MANIFEST, NO_PART, PARTS, Manifest, OutRefused
from generator.publish.plan import (
    Pages,
    Plan,
    code_digest,
    digest,
    manifest_made,
    plan_pages,
    rendered,
)
from generator.publish.processes import Context, apart, forks, in_a_process
from generator.publish.source import check_moments, committed, measured
from generator.publish.staging import stage_bodies, staged_body
from generator.publish.suites import histories, home_and_suites, older_pages, worse_known
from generator.publish.work import chunks, read_all
from generator.publish.wrapping import wrap_all
from generator.site.build import SiteSettings, build_pages
from generator.site.labels import LOCALES
from generator.site.look import read_look
from generator.site.pages import Site
from generator.site.shell import Shell
from generator.site.templates import TEMPLATES, environment

PACKAGE = Path(__file__).resolve().parents[1]


class LeakRefused(Refused):
    """The built site carries a payload string; it was not published."""


@dataclass(frozen=True)
class Published:
    """What a build made."""

    out: Path
    runs: int
    pages: int
    written: int
    """Run and comparison pages and blocks of older runs written by this build."""
    kept: int
    """Run and comparison pages and blocks of older runs kept as the last build wrote them."""
    disclosure: Mapping[str, object]
    uncached: str | None = None
    """Why the archive could not keep what the build learnt (its folder, and the reason)."""


def available_cores() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _site_files(folder: Path) -> dict[str, Path]:
    return {
        path.relative_to(folder).as_posix(): path
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


class _Restart(Exception):
    """A kept file is not what the last build wrote: build everything instead."""


def publish(
    archive: Archive,
    out: Path,
    progress: Callable[[int], Callable[[], None]],
    full: bool = False,
    jobs: int | None = None,
    for_files: bool = False,
    check: KeptCheck | None = None,
) -> Published:
    """Build the archive's site into ``out``, writing only what moved since the last build
    there (everything when ``full``), in ``jobs`` processes (every core by default).

    ``progress`` is given the number of steps (runs, then pages) and returns what to call
    after each. ``for_files`` builds a site to open from disk (see ``SiteSettings``).
    ``check`` is the check of the kept pages, started early by the caller (a build that keeps
    pages starts one itself when not given one).

    Python's cycle collector is off in this process while it builds: what the build holds to
    the end (every run at HEAD, every page planned, the last manifest and the new one) grows
    to hundreds of thousands of objects at 10,000 runs, and the collector's passes over them
    as they grew took 0.3 s of a 2.6 s rebuild there; what a build makes in cycles is little
    (a full build's peak at 1,000 runs stayed at 212 MB).
    """
    runs = archive.layout.runs.resolve()
    if out.resolve() == runs or runs in out.resolve().parents or out.resolve() in runs.parents:
        raise OutRefused(f"{out}: the site cannot go in or around runs/; give --out another folder")
    collecting = gc.isenabled()
    gc.disable()
    try:
        build = _Build(archive, out, jobs or available_cores(), for_files)
        return build.run(progress, full, check)
    except _Restart:
        return _Build(archive, out, jobs or available_cores(), for_files).run(progress, True, None)
    finally:
        if collecting:
            gc.enable()


class _Build:
    """One build of one archive into one folder."""

    def __init__(self, archive: Archive, out: Path, jobs: int, for_files: bool) -> None:
        self.out = out
        self.jobs = jobs
        self.disclosure = archive.config.disclosure
        self.code = code_digest(PACKAGE, TEMPLATES)
        self.inputs = digest(self.code, self.disclosure.model_dump(mode="json"), for_files)
        try:
            self.cache = RunCache(archive.layout.root, self.inputs)
            self.uncached: str | None = None
        except OSError as error:
            # A checkout the build may only read (a read-only mount in CI): a cache of this
            # build's own, gone with it, as losing the cache costs only time.
            self._scratch = tempfile.TemporaryDirectory(prefix="runsite-cache-")
            self.cache = RunCache(Path(self._scratch.name), self.inputs)
            self.uncached = f"{archive.layout.root / FOLDER}: {error.strerror or error}"
        self.known = self.cache.known()
        if self.cache.crowded:
            # Merged in a process of its own by a build that works in processes: the packs it
            # read and wrote, let go of, left 15 MB of holes in this process's heap at 10,000
            # runs, which every process forked from it shared.
            apart(jobs, partial(self.cache.merge, self.known))
            self.known = self.cache.known()
        self.head = committed(archive, self.known.sizes)
        self.settings = SiteSettings(
            name=archive.config.site.name,
            language=archive.config.site.language,
            look=read_look(archive.layout.root / "mkdocs.yml"),
            for_files=for_files,
        )
        self.folders = {
            locale: "" if locale == self.settings.language else f"{locale}/" for locale in LOCALES
        }

    def _shells_digest(self, suites: Collection[tuple[str, str]]) -> str:
        """What every shell is made of: the code, the user's look, the site, the navigation."""
        look = self.settings.look
        return digest(
            self.code,
            look.mkdocs(),
            look.theme,
            look.css,
            {target: content_digest(source.read_bytes()) for target, source in look.files.items()},
            self.settings.name,
            self.settings.language,
            self.settings.for_files,
            sorted(suites),
        )

    def run(
        self,
        progress: Callable[[int], Callable[[], None]],
        full: bool,
        check: KeptCheck | None,
    ) -> Published:
        head = self.head
        records = self.cache.site(self.out)
        trusted = records.manifest()
        with building(self.out, trusted) as (staging, last), ExitStack() as stack:
            started = staging.stat().st_ctime_ns  # before the check reads anything
            old = None if full else last
            keeping = Keeping(self.out, records, old, check, self.jobs, stack)
            known, known_worse = self.known.created, self.known.worse
            cached = {listed.blob: known.get(listed.blob) for listed in head.runs}
            moments = measured(head, cached)
            shells = self._shells_digest({listed.suite_of for listed in head.runs})
            # Where the shells moved, every page is rendered anew, as in a full build.
            wrapped_alike = old if old is not None and old.shells == shells else None
            planned = records.blocks(wrapped_alike.digest) if wrapped_alike else {}
            planned = {key: block for key, block in planned.items() if old and key in old.parts}
            plan = plan_pages(head, moments, self.folders, self.inputs, planned)
            reused = {block.key for block in plan.blocks if block.key in planned}
            del planned
            # The last site's files but those of the blocks kept whole: its parts that moved.
            dropped = old.entries(p for p in old.parts if p not in reused) if old else NO_PART
            if last is not None and old is None:
                last.entries(last.parts)  # a part gone or altered refused now, not once built
            pages = Pages(self.folders, self.inputs, dropped.bodies if wrapped_alike else None)
            render = rendered(plan, pages)
            arrived = {r.blob for r in head.runs} - set(old.runs) if old else set()
            read = {blob for blob, entry in cached.items() if entry is None} | arrived
            against = worse_known(plan, known_worse)
            judge = {blob for blob, worse in against.items() if worse is None}
            tick = progress(len(head.runs) + render.pages)
            context = Context(
                head.git_dir, self.disclosure, self.cache, staging, self.settings.for_files, pages
            )
            if render.files is None:  # every page of the blocks planned afresh: kept the others'
                kept = [
                    file for block in plan.blocks if block.key in reused for file in block.files()
                ]
            else:
                kept = [file for file in plan.files() if file not in render.files]
            arrivals = [n for n, listed in enumerate(head.runs) if listed.blob in arrived]
            early = len(arrivals) <= EARLY
            total = plan.pages()
            keeping.plan(total, kept)
            own: dict[str, Arrival] = {}
            if keeping.checking is not None and early:
                own = arrivals_of(head.git_dir, [head.runs[n] for n in arrivals], self.disclosure)
                keeping.send([own[head.runs[n].blob] for n in arrivals])
            reading = chunks(plan, render.runs, read, arrived - set(own), judge)
            learnt, own_read, bodies, worse = read_all(context, reading, self.jobs, tick)
            if keeping.checking is not None and not early:
                keeping.send([own_read[head.runs[n].blob] for n in arrivals])
            worse = {**{b: w for b, w in against.items() if w is not None}, **worse}
            check_moments(head, learnt, moments)
            created = {**{b: c for b, c in cached.items() if c is not None}, **learnt}
            spanning = partial(self._spanning, plan, render.older, worse, created, staging)
            made_apart = in_a_process(spanning) if forks(self.jobs, reading) else spanning()
            home_pages, built, context.shells, blocks = made_apart
            del cached, learnt, created
            bodies += [blocks] if blocks else []
            captured = digest(sorted(shell.digest for shell in context.shells.values()))
            if old is not None and old.shells == shells and old.captured != captured:
                raise _Restart()
            made = _site_files(built)
            context.sieve = run_sieve(
                [listed.blob for listed in head.runs],
                self.cache,
                partial(payload_keys_of, head, self.cache, self.disclosure),
                partial(apart, self.jobs),
            )
            context.windows = keeping.windows.bits if keeping.windows is not None else None
            written, batches = wrap_all(context, bodies, self.jobs, tick)
            candidates, where = sieve_rest(context.sieve, made, written, built)
            checked = keeping.wrote(batches)
            if checked is not None:
                # Every kept file must be what the last build wrote.
                if not checked.altered.isdisjoint(kept):
                    raise _Restart()
                for found in kept_found(checked, arrivals):
                    candidates.append(found)
                    where[found.file] = self.out / found.file
            leaks = confirm(candidates, where, head, self.disclosure)
            if leaks:
                first = leaks[0]
                more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
                raise LeakRefused(
                    f"{self.out / first.file}: carries the payload of {first.field}{more}; "
                    "nothing was published"
                )
            wrapped = {w.file: w.digest for w in written}
            rest = {file: content_digest(path.read_bytes()) for file, path in made.items()}
            top = Manifest(shells, captured, [listed.blob for listed in head.runs])
            manifest = manifest_made(plan, top, old, reused, dropped, wrapped, rest, built / PARTS)
            text = manifest.data()
            (built / MANIFEST).write_bytes(text)
            written_as = content_digest(text)
            staged = (built / MANIFEST).stat().st_ctime_ns
            now = {**rest, **wrapped}
            if old is None or checked is None:
                placed: Mapping[str, str] = manifest.files
            else:
                # A file is moved when its copy in place is not what this build made: made
                # anew, or altered by hand (where its bytes happen to be this build's again).
                placed = {
                    f: now[f]
                    for f in sorted({*made, *(w.file for w in written)})
                    if dropped.files.get(f) != now[f] or f in checked.altered
                }
            place(built, self.out, last, manifest, placed)
            # The files the check found as written that the new site keeps as they are: those
            # of the parts kept whole (none of the dropped files) and of the parts made anew.
            made_anew = manifest.held.values()
            seen = {
                file: found
                for file, found in (checked.seen if checked is not None else {}).items()
                if file not in placed
                and (file not in dropped.files or any(file in p.files for p in made_anew))
            }
            signed = sign(self.out, placed, staged, seen, started)
            records.keep_signatures(signed, [*plan.files(), *rest])
            keeping.record(written_as)
            records.keep_blocks(plan.blocks, written_as)
            records.keep_manifest(written_as)
        return Published(
            self.out,
            len(head.runs),
            total + home_pages,
            render.pages,
            total - render.pages,
            self.disclosure.model_dump(),
            self.uncached,
        )

    def _spanning(
        self,
        plan: Plan,
        rendered: Collection[str],
        worse: Mapping[str, int],
        created: Mapping[str, str],
        staging: Path,
    ) -> tuple[int, Path, dict[tuple[str, str], Shell], Path | None]:
        """The pages that span runs, from the runs' summaries: the home and suite pages (their
        count), built by mkdocs with the shells (the folder it built, and the shells), and the
        blocks of older runs whose files are ``rendered`` (the file their bodies are staged in,
        if any). Handed the files, not the pages (40,000 at 10,000 runs): a process forked
        from this one that reads an object writes its count of references, and copies the page
        of memory it is in.

        Made in a process of its own (``in_a_process``) by a build that works in processes:
        the summaries read, the pages and mkdocs' own work, let go of, left holes in the
        build's heap that the processes wrapping the bodies were forked with (a 10,000-run
        full build's heap at 199 MB when they forked, 118 MB now; its peak there, by process
        tree, 252 MB against 185). A rebuild after one run wraps its few bodies itself, and
        forking would cost it 0.05 s of 1.1."""
        summaries = partial(summaries_of, self.head, self.cache, self.disclosure)
        history = histories(plan, summaries, worse, created)
        sites = [Site(environment(self.cache.templates), locale) for locale in LOCALES]
        pages, searched = home_and_suites(self.cache, sites, history, plan)
        older = older_pages(sites, history, plan, rendered)
        blocks = stage_bodies(staging, (staged_body(job, body) for job, body in older))
        built, shells = build_pages(
            pages, history, self.settings, staging, self.cache.mkdocs, searched
        )
        return len(pages), built, shells, blocks


EARLY = 4
"""The most arrived runs a build reads itself for the check of the kept pages, before its
processes read the runs (one of the bench's shape takes 25 ms); the check then sieves while
they read. Past that, the processes hand it the keys of more runs sooner than this one would."""
