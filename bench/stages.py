"""Where a full build's CPU goes, stage by stage, for one run of the bench's shape.

Times each stage of what a build does with one run (read: parse and validate; redact, summarise, payload,
compare, render both languages, wrap and sieve) in this one process (its cycle collector off,
as a build has it), over ``--runs`` generated runs of ``build.py``'s shape, and prints the median milliseconds a run of each, best of
``--repeat``. A full build's CPU is about the sum times the archive's runs, plus mkdocs and the
start; the figure to cut is the sum.

    .venv/bin/python bench/stages.py [--runs 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build import run_document
from generator.document.codec import canonical, read_run
from generator.document.payload import payload_texts
from generator.document.redact import redact
from generator.document.redacted import NOTHING
from generator.site.build import environment
from generator.site.labels import LOCALES
from generator.site.pages import Site, comparison
from generator.site.sieve import Sieve, payload_keys
from generator.site.summary import summarise


def _timed(
    label: str, work: Callable[[int], Any], count: int, repeat: int, table: dict[str, float]
) -> list[Any]:
    """Run ``work`` for each of ``count`` runs, ``repeat`` times; keep the best median."""
    best = float("inf")
    results: list[Any] = []
    for _ in range(repeat):
        gc.collect()
        times, results = [], []
        for n in range(count):
            started = time.perf_counter()
            results.append(work(n))
            times.append(time.perf_counter() - started)
        best = min(best, statistics.median(times))
    table[label] = best * 1000
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    count, repeat = arguments.runs + 1, arguments.repeat
    gc.disable()  # as a build reads and renders, collecting between tasks
    gc.freeze()
    data = [canonical(run_document(n)) for n in range(count)]
    sites = [Site(environment(), locale) for locale in LOCALES]
    table: dict[str, float] = {}

    readings = _timed("read", lambda n: read_run(data[n]), count, repeat, table)
    runs = [reading.run for reading in readings]
    redacted = _timed("redact", lambda n: redact(runs[n], NOTHING), count, repeat, table)
    _timed("summarise", lambda n: summarise(redacted[n]), count, repeat, table)
    candidates = _timed(
        "payload texts",
        lambda n: payload_texts(runs[n], NOTHING, bool(readings[n].unknown)),
        count,
        repeat,
        table,
    )
    keys = _timed("payload keys", lambda n: payload_keys(candidates[n]), count, repeat, table)
    pairs = _timed(
        "comparison", lambda n: comparison(redacted[n], redacted[n - 1]), count, repeat, table
    )

    def pages(n: int) -> list[str]:
        run, before = fresh[n], redacted[n - 1]
        bodies = []
        for site in sites:
            bodies.append(site.run(run, before.key, None, None).html)
            bodies.append(site.diff(run, before, pairs[n], "previous").html)
        return bodies

    fresh: list[Any] = []
    bodies: list[list[str]] = []
    rounds: dict[str, float] = {}
    for _ in range(repeat):  # a run's readings are kept while it lives: each round a new one
        fresh = [run.model_copy() for run in redacted]
        bodies = _timed("four pages", pages, count, 1, rounds)
        table["four pages"] = min(table.get("four pages", float("inf")), rounds["four pages"])
    sieve = Sieve(keys)
    _timed(
        "sieve four pages",
        lambda n: [sieve.runs_in(body.encode()) for body in bodies[n]],
        count,
        repeat,
        table,
    )
    width = max(map(len, table))
    for label, ms in table.items():
        print(f"{label:<{width}}  {ms:6.2f} ms")
    print(f"{'sum':<{width}}  {sum(table.values()):6.2f} ms a run")


if __name__ == "__main__":
    main()
