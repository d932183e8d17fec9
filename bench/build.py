"""How ``runsite build`` grows with the archive: issue 43's figures at each size, and between.

For each archive size (1,000 and 10,000 runs by default, any with ``--runs``: 30 cases, 6
checks, 5 samples each, recorded answers with agent trajectories, spread over 4 suites) it
prints:

- the full build (no site, no cache beside the archive): wall and CPU seconds, peak memory,
  and the wall seconds of its reading phase (``_reading_timed``), which the rest of the build
  is set against;
- a build right after it, with nothing new;
- five rebuilds, each after one more run arrives: the median and range of wall and CPU seconds,
  and their peak; then one after a run of long answers (``long_answers``), whose payload the
  kept pages are checked for (the sizes' rebuilds take turns: ``measure``);
- the floor (``floors``): reading a run in this process (parsing, validating, redacting, its
  payload keys) and rendering it (its comparison with the run before it in its suite, its page
  and that comparison's in each language), in CPU ms a run, and pydantic's part of reading
  alone; then reading and rendering with every core at them at once, a process a core
  (``floor_on_every_core``): that, times the runs, split over the cores, bounds any full build
  from below, and the full build is given as a multiple of it. Each is the mean of its measure
  right before the full build and right after it;
- one run page's bytes, raw and gzipped, the largest run page of each language, and the JS
  and CSS a first visit loads.

First of all it prints the machine's speed (``probe``) and what any rebuild pays before its
own work: starting Python and importing what a rebuild imports (``starting``). Then the ratios
of the largest size to the smallest (the rebuild's median, the peak of any build), and each goal
of issue 43, met or not, a goal in seconds beside its floor.

An archive is made as ``runsite import`` would leave it, but not run by run (``shape``: a
process per core generates and serialises the documents, one ``git fast-import`` writes their
blobs and the one commit that holds them, and git checks them out from it; ``tests/bench``
holds such an archive to one ``runsite import`` made). With ``--keep DIR``
each size's archive is kept in ``DIR/archive-<n>`` and reused; before each bench an archive is
reset to the commit it was made at, and loses what builds left in and beside it (``settle``).

Each build runs as its own process tree, as a user's would, with runsite's modules compiled
first, as an installed package has them (where ``PYTHONDONTWRITEBYTECODE`` is set, every build
would compile them again, 50-100 ms no user pays). Peak memory is the largest sum of the
proportional set sizes (PSS) of the build's processes, sampled every 20 ms or less often, in
MB (10^6 bytes): its workers share the pages they were forked with, which RSS would count once
per process. A sample walks the processes' page tables (3.4 ms for three of 150 MB), so the
sampler waits ``IDLE`` times as long as its last sample took before the next, and takes a
twentieth of a core at most: one every 20 ms took a sixth of one of the build's two cores, and
slowed a 1,000-run full build by 13% (31-33 s wall without it, 36-37 s with it).

    .venv/bin/python bench/build.py [--runs 1000 10000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import compileall
import gzip
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _identity import use_bench_identity
from floors import Floor, probe, starting
from generator.archive import Archive
from shape import arrive, long_answers, make_archive, run_document, run_key, settle

REBUILDS = 5
"""Rebuilds after one more run, each: their median is the figure, their range its spread."""

IDLE = 19
"""Times as long as its last sample took that the memory sampler waits before the next."""


def _pss(pid: int) -> int:
    """The proportional set size of ``pid`` and its descendants, in KiB.

    A child caught between ``vfork`` and ``exec`` (how Python starts ``git``) still shares its
    parent's address space, and reports the parent's memory as its own: it is counted once,
    with the parent (same mappings, same resident size)."""
    total = 0
    pending: list[tuple[int, tuple[str, str] | None]] = [(pid, None)]
    while pending:
        current, parents = pending.pop()
        try:
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            space = (rollup.split("\n", 1)[0], re.search(r"^Rss:.*$", rollup, re.M).group(0))  # type: ignore[union-attr]
            if space == parents:
                continue
            total += int(re.search(r"^Pss:\s+(\d+)", rollup, re.M).group(1))  # type: ignore[union-attr]
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending += [(int(child), space) for child in children]
        except (OSError, AttributeError):
            continue
    return total


@dataclass(frozen=True)
class Build:
    """One ``runsite build``: wall and CPU seconds, peak PSS of its processes in MB."""

    wall: float
    cpu: float
    peak: float
    reading: float | None = None
    """Wall seconds of its reading phase, where timed (``_reading_timed``)."""

    def __str__(self) -> str:
        return f"{self.wall:.2f} s wall, {self.cpu:.2f} s CPU, peak {self.peak:.0f} MB"

    @property
    def over_reading(self) -> float:
        """Its wall over that of its own reading phase: what it adds to the floor's work,
        measured in one build, where the floor is measured beside it."""
        assert self.reading is not None, "a build whose reading phase was not timed"
        return self.wall / self.reading


def build(folder: Path, out: Path, timed: bool = False) -> Build:
    """``runsite build`` of ``folder`` into ``out``, as a process tree of its own; ``timed``,
    its reading phase timed too."""
    arguments = ["build", "--root", str(folder), "--out", str(out)]
    phase = out.parent / "reading-phase"
    command = [sys.executable, "-m", "generator", *arguments]
    if timed:
        command = [sys.executable, str(Path(__file__).parent / "_reading_timed.py"), str(phase)]
        command += arguments
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            started = time.perf_counter()
            peak[0] = max(peak[0], _pss(process.pid))
            time.sleep(max(0.02, IDLE * (time.perf_counter() - started)))

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, errors = process.communicate()
    sampler.join()
    wall = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"runsite build failed: {errors.decode()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    reading = float(phase.read_text()) if timed else None
    return Build(wall, cpu, peak[0] * 1024 / 1e6, reading)


def first_visit(page: Path, site: Path) -> int:
    """The bytes of the scripts and stylesheets a first visit of ``page`` loads, the search
    worker included."""
    text = page.read_text(encoding="utf-8")
    links = re.findall(r'<script src="([^"]+)"', text)
    links += re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)
    worker = re.search(r'"search": "([^"]+)"', text)
    links += [worker.group(1)] if worker else []
    return sum((page.parent / link).resolve().stat().st_size for link in links)


@dataclass(frozen=True)
class Figures:
    """What the bench measured at one size."""

    runs: int
    full: Build
    unchanged: Build
    rebuilds: list[Build]
    long: Build
    floors: Floor
    """The mean of the floor's figures before the full build and after it."""
    cores: int

    @property
    def reading(self) -> float:
        """ms a run, in process."""
        return self.floors.reading

    @property
    def floor(self) -> float:
        """Seconds below which no full build of these runs goes on these cores."""
        return self.floors.busy / 1000 * self.runs / self.cores

    @property
    def floor_alone(self) -> float:
        """The floor as if the cores cost each other nothing: one process's figures, split."""
        return (self.floors.reading + self.floors.rendering) / 1000 * self.runs / self.cores

    @property
    def rebuild(self) -> float:
        return statistics.median(build.wall for build in self.rebuilds)

    @property
    def peak(self) -> float:
        """The peak of any build at this size."""
        return max(b.peak for b in (self.full, self.unchanged, *self.rebuilds, self.long))


def _spread(values: Sequence[float]) -> str:
    return f"median {statistics.median(values):.2f} s ({min(values):.2f}–{max(values):.2f})"


@dataclass(frozen=True)
class _Size:
    """One size's archive, and the folder its site is built in."""

    runs: int
    folder: Path
    scratch: Path

    @property
    def out(self) -> Path:
        return self.scratch / "site"


@contextmanager
def _size(count: int, keep: Path | None) -> Iterator[_Size]:
    """The archive of ``count`` runs, made or kept, reset before and after its bench."""
    scratch = Path(tempfile.mkdtemp(prefix="runsite-bench-"))
    try:
        folder = (keep.resolve() / f"archive-{count}") if keep else scratch / "archive"
        if not (folder / "runsite.toml").is_file():
            started = time.perf_counter()
            make_archive(folder, count)
            print(f"{count} runs: archive made in {time.perf_counter() - started:.0f} s")
        else:
            print(f"{count} runs: archive kept in {folder}, reset to how it was made")
        settle(folder)
        try:
            yield _Size(count, folder, scratch)
        finally:
            settle(folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def measure(counts: Sequence[int], keep: Path | None) -> list[Figures]:
    """Every figure at each of ``counts`` runs, printed as it is taken.

    A size's floor is measured right before its full build and right after it, and the rebuilds
    of the sizes take turns (one more run at each size, then another), so that a ratio between
    two figures is not one of the machine's speed at two moments: over the eight minutes between
    a 1,000-run bench and a 10,000-run one, this machine's CPU ran up to 10% slower, and on a
    slower machine of the same kind, the same floor measured 91 and 77 ms a run five minutes
    apart."""
    with ExitStack() as stack:
        sizes, firsts = [], []
        for count in counts:
            size = stack.enter_context(_size(count, keep))
            sizes.append(size)
            firsts.append(_first(size))
        rebuilds: dict[int, list[Build]] = {size.runs: [] for size in sizes}
        for n in range(REBUILDS):
            for size in sizes:
                arrive(size.folder, size.scratch, run_document(size.runs + n))
                rebuilds[size.runs].append(build(size.folder, size.out))
        return [
            _last(size, first, rebuilds[size.runs])
            for size, first in zip(sizes, firsts, strict=True)
        ]


class _First(NamedTuple):
    """What a size's bench measures first: its full build, its floor (the mean of its measure
    before the full build and after it), a build with nothing new."""

    full: Build
    floors: Floor
    unchanged: Build


def _first(size: _Size) -> _First:
    """The full build of ``size``, its floor, and a build with nothing new."""
    disclosure = Archive(size.folder).config.disclosure
    cores = len(os.sched_getaffinity(0))
    before = Floor.measured(disclosure, cores)
    full = build(size.folder, size.out, timed=True)
    pages = sum(1 for _ in size.out.rglob("index.html"))
    load = os.getloadavg()[0]
    print(f"{size.runs} runs, full build, en + it: {full}, {pages} pages, load {load:.2f}")
    print(
        f"its reading phase (every run read, redacted and rendered): {full.reading:.1f} s wall; "
        f"the full build takes {full.over_reading:.2f}× it"
    )
    after = Floor.measured(disclosure, cores)
    floors = Floor(*((b + a) / 2 for b, a in zip(before, after, strict=True)))
    print(
        f"reading a run in process (parse, validate, redact, payload keys): "
        f"{floors.reading:.1f} ms CPU ({before.reading:.1f} before the full build, "
        f"{after.reading:.1f} after); rendering it (comparison, run and comparison pages, "
        f"en + it): {floors.rendering:.1f} ms CPU ({before.rendering:.1f}, {after.rendering:.1f})"
    )
    print(
        f"pydantic's part of reading alone (Run.model_validate_json): {floors.validating:.1f} ms "
        f"CPU ({before.validating:.1f}, {after.validating:.1f})"
    )
    print(
        f"reading and rendering a run with all {cores} cores at it: {floors.busy:.1f} ms CPU "
        f"({before.busy:.1f}, {after.busy:.1f})"
    )
    unchanged = build(size.folder, size.out)
    print(f"{size.runs} runs, build with nothing new: {unchanged}")
    return _First(full, floors, unchanged)


def _last(size: _Size, first: _First, rebuilds: list[Build]) -> Figures:
    """The figures of ``size`` once its rebuilds are done: a rebuild after a run of long
    answers, and its pages' sizes."""
    count, folder, out = size.runs, size.folder, size.out
    print(
        f"{count} runs, rebuild after one more run, {REBUILDS} times: "
        f"wall {_spread([b.wall for b in rebuilds])}, CPU {_spread([b.cpu for b in rebuilds])}, "
        f"peak {max(b.peak for b in rebuilds):.0f} MB"
    )
    arrive(folder, size.scratch, long_answers(count + REBUILDS))
    long = build(folder, out)
    print(f"{count} runs, rebuild after one more run of long answers: {long}")
    page = next((out / "runs" / "acme").glob(f"*/{run_key(run_document(count))}/index.html"))
    raw = page.read_bytes()
    print(f"one run page: {len(raw):,} bytes, {len(gzip.compress(raw)):,} gzipped")
    for language, runs in (("en", out / "runs"), ("it", out / "it" / "runs")):
        largest = max(page.stat().st_size for page in runs.glob("*/*/*/index.html"))
        print(f"largest run page ({language}): {largest:,} bytes")
    print(f"JS and CSS of a first visit: {first_visit(page, out):,} bytes")
    figures = Figures(
        count,
        first.full,
        first.unchanged,
        rebuilds,
        long,
        first.floors,
        len(os.sched_getaffinity(0)),
    )
    print(
        f"floor: {first.floors.busy:.1f} ms × {count} runs / {figures.cores} cores = "
        f"{figures.floor:.1f} s; the full build takes {first.full.wall / figures.floor:.2f}× it "
        f"({first.full.wall / figures.floor_alone:.2f}× one process's figures split over the "
        f"cores, {figures.floor_alone:.1f} s)"
    )
    return figures


def report(figures: list[Figures], start: float) -> None:
    """The ratios of the largest size to the smallest, and each goal of issue 43, met or not,
    each goal in seconds with the floor it sits on: ``start``, the seconds a rebuild takes to
    start and import, and pydantic's part of reading."""
    ordered = sorted(figures, key=lambda f: f.runs)
    small, large = ordered[0], ordered[-1]
    goals: list[tuple[bool, str]] = []
    print()
    if large.runs > small.runs:
        rebuild, peak = large.rebuild / small.rebuild, large.peak / small.peak
        sizes = f"{large.runs}/{small.runs} runs"
        print(
            f"rebuild median, {sizes}: {large.rebuild:.2f} / {small.rebuild:.2f} s = {rebuild:.2f}×"
        )
        print(f"peak of any build, {sizes}: {large.peak:.0f} / {small.peak:.0f} MB = {peak:.2f}×")
        goals.append((rebuild <= 1.3, f"rebuild median {sizes} ≤ 1.3×: {rebuild:.2f}×"))
        goals.append((peak <= 1.2, f"peak of any build {sizes} ≤ 1.2×: {peak:.2f}×"))
    else:
        print("ratios between sizes: one size measured, none")
    goals.append(
        (
            small.rebuild <= 1.2,
            f"rebuild median at {small.runs} runs ≤ 1.2 s: {small.rebuild:.2f} s "
            f"(starting and importing alone: {start:.2f} s)",
        )
    )
    goals.append(
        (
            all(f.peak < 300 for f in ordered),
            "peak of any build < 300 MB: "
            + ", ".join(f"{f.runs} runs {f.peak:.0f} MB" for f in ordered),
        )
    )
    goals.append(
        (
            all(f.full.wall <= 1.5 * f.floor for f in ordered),
            "full build ≤ 1.5× its floor (reading and rendering on every core at once): "
            + ", ".join(
                f"{f.runs} runs {f.full.wall / f.floor:.2f}× ({f.full.wall:.1f} / {f.floor:.1f} s; "
                f"{f.full.over_reading:.2f}× its own reading phase)"
                for f in ordered
            ),
        )
    )
    goals.append(
        (
            all(f.reading <= 12 for f in ordered),
            "reading a run ≤ 12 ms: "
            + ", ".join(
                f"{f.runs} runs {f.reading:.1f} ms (pydantic's part alone: "
                f"{f.floors.validating:.1f} ms)"
                for f in ordered
            ),
        )
    )
    print("goals of issue 43:")
    for met, said in goals:
        print(f"  {'met    ' if met else 'not met'}  {said}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument(
        "--keep", type=Path, help="Keep the generated archives here (archive-<n>), and reuse them."
    )
    arguments = parser.parse_args()
    use_bench_identity()
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "generator", quiet=1)
    print(f"this machine: 10^7 squares summed in Python in {probe():.2f} s, the best of 3")
    start = starting()
    print(f"starting runsite with what a rebuild imports: {start:.2f} s wall, median of 5")
    report(measure(arguments.runs, arguments.keep), start)


if __name__ == "__main__":
    main()
