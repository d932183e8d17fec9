"""Where a full build's CPU goes, stage by stage, for one run of the bench's shape.

Times each stage of what a build does with one run (read: parse and validate; redact, summarise,
payload, compare, render both languages, sieve) in this one process (its cycle collector off, as
a build has it), over ``--runs`` generated runs of ``build.py``'s shape, and prints the median
milliseconds a run of each, best of ``--repeat``. A full build's CPU is about the sum times the
archive's runs, plus mkdocs and the start; the figure to cut is the sum.

By default each repetition takes the same runs again, so what is kept per run (``once_per_run``,
a check's figures) is found in the first and reused after, except by the four pages, which get
copies of the runs each time. A build sees each run once: with ``--cold`` each repetition reads
runs it has never seen (``runs × repeat`` distinct documents), and each run is compared with
the run before it, then its four pages are written, as a build does; the comparison and the
pages are also timed as one line, as the comparison now carries work the pages used to do.

    .venv/bin/python bench/stages.py [--runs 20] [--repeat 3] [--cold]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generator.document.codec import canonical, read_run
from generator.document.disclosure import NOTHING
from generator.document.payload import payload_texts
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.guard.sieve import Sieve, payload_keys
from generator.site.labels import LOCALES
from generator.site.pages import ComparisonPage, Site, comparison
from generator.site.summary import summarise
from generator.site.templates import environment
from shape import run_document

COLD = "comparison + four pages"


def _timed(
    label: str, work: Callable[[int], Any], runs: range, repeat: int, table: dict[str, float]
) -> list[Any]:
    """Run ``work`` for each of ``runs``, ``repeat`` times; keep the best median in ``table``
    (better than one kept already), and give back the last repetition's results."""
    best = table.get(label, float("inf"))
    results: list[Any] = []
    for _ in range(repeat):
        gc.collect()
        times, results = [], []
        for n in runs:
            started = time.perf_counter()
            results.append(work(n))
            times.append(time.perf_counter() - started)
        best = min(best, statistics.median(times))
    table[label] = best
    return results


def _pages(
    sites: Sequence[Site], run: RedactedRun, before: RedactedRun, pair: ComparisonPage
) -> list[str]:
    """A run's page and its comparison page with the run before, in each language."""
    bodies = []
    for site in sites:
        bodies.append(site.run(run, before.key, None, None).html)
        bodies.append(site.diff(run, before, pair, "previous").html)
    return bodies


def _warm(
    redacted: list[RedactedRun], sites: Sequence[Site], repeat: int, table: dict[str, float]
) -> list[list[str]]:
    """Each run against the one before, then its four pages (on copies of the runs, each
    repetition, as a run's readings are kept while it lives)."""
    every = range(len(redacted))
    pairs = _timed(
        "comparison", lambda n: comparison(redacted[n], redacted[n - 1]), every, repeat, table
    )
    bodies: list[list[str]] = []
    for _ in range(repeat):
        fresh = [run.model_copy() for run in redacted]

        def pages(n: int, fresh: list[RedactedRun] = fresh) -> list[str]:
            return _pages(sites, fresh[n], redacted[n - 1], pairs[n])

        bodies = _timed("four pages", pages, every, 1, table)
    return bodies


def _cold(
    redacted: list[RedactedRun], sites: Sequence[Site], table: dict[str, float]
) -> list[list[str]]:
    """Each run after the first against the one before it, then its four pages, on runs
    nothing has read yet; the first run only gets its own pages, as a suite's first run does."""
    first = redacted[0]
    bodies = [[site.run(first, None, None, None).html for site in sites]]
    times: dict[str, list[float]] = {"comparison": [], "four pages": [], COLD: []}
    gc.collect()
    for n in range(1, len(redacted)):
        run, before = redacted[n], redacted[n - 1]
        started = time.perf_counter()
        pair = comparison(run, before)
        compared = time.perf_counter()
        bodies.append(_pages(sites, run, before, pair))
        ended = time.perf_counter()
        times["comparison"].append(compared - started)
        times["four pages"].append(ended - compared)
        times[COLD].append(ended - started)
    for label, found in times.items():
        table[label] = min(table.get(label, float("inf")), statistics.median(found))
    return bodies


def _stages(
    data: list[bytes], sites: Sequence[Site], repeat: int, cold: bool, table: dict[str, float]
) -> None:
    """Every stage over the runs of ``data``, ``repeat`` times each."""
    every = range(len(data))
    readings = _timed("read", lambda n: read_run(data[n]), every, repeat, table)
    runs = [reading.run for reading in readings]
    redacted = _timed("redact", lambda n: redact(runs[n], NOTHING), every, repeat, table)
    _timed("summarise", lambda n: summarise(redacted[n]), every, repeat, table)
    candidates = _timed(
        "payload texts",
        lambda n: payload_texts(runs[n], NOTHING, bool(readings[n].unknown)),
        every,
        repeat,
        table,
    )
    keys = _timed("payload keys", lambda n: payload_keys(candidates[n]), every, repeat, table)
    bodies = _cold(redacted, sites, table) if cold else _warm(redacted, sites, repeat, table)
    sieve = Sieve(keys)
    _timed(
        "sieve four pages",
        lambda n: [sieve.runs_in(body.encode()) for body in bodies[n]],
        range(1, len(data)) if cold else every,
        repeat,
        table,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="runs never seen, each repetition")
    arguments = parser.parse_args()
    count, repeat = arguments.runs + 1, arguments.repeat
    gc.disable()  # as a build reads and renders, collecting between tasks
    gc.freeze()
    sites = [Site(environment(), locale) for locale in LOCALES]
    table: dict[str, float] = {}
    for first in range(0, count * repeat, count) if arguments.cold else [0]:
        data = [canonical(run_document(first + n)) for n in range(count)]
        _stages(data, sites, 1 if arguments.cold else repeat, arguments.cold, table)
    combined = table.pop(COLD, None)
    width = max(map(len, [*table, COLD]))
    for label, seconds in table.items():
        print(f"{label:<{width}}  {seconds * 1000:6.2f} ms")
    print(f"{'sum':<{width}}  {sum(table.values()) * 1000:6.2f} ms a run")
    if combined is not None:
        print(f"{COLD:<{width}}  {combined * 1000:6.2f} ms (cold, timed as one)")


if __name__ == "__main__":
    main()
