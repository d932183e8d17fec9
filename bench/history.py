"""How long the pages that span a suite's runs take to make after one more run arrives.

For each size (250 and 2,500 runs a suite by default, in the four suites of ``build.py``, each
run of one of two targets, so each suite has a board) it makes the suites' histories from run
summaries, lets a first pass fill the cache as the build before would have, then times, for
one more run in one suite at a time, what a rebuild makes of the pages over many runs: the home
page and, for the suite the run arrived in, its page, its cases and board pages, its search
entries and its blocks of older runs, in both languages. It prints the median milliseconds.

The summaries are those of a few generated runs of ``build.py``'s shape, each taken again under
the key, moment, commit and rules of the run it stands for: what the pages cost depends on how
many runs they span, not on how each went.

    .venv/bin/python bench/history.py [--runs 250 2500] [--repeat 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build import START, SUITES, run_document
from generator.document.codec import canonical, read_run
from generator.document.redact import redact
from generator.publish.cache import RunCache
from generator.publish.plan import Plan
from generator.publish.source import Listed
from generator.publish.suites import histories, home_and_suites
from generator.site.labels import LOCALES
from generator.site.pages import Site
from generator.site.summary import RunSummary, summarise
from generator.site.templates import environment

POOL = 8
"""Generated runs of each target whose summaries stand for every run."""


def _pool() -> list[list[RunSummary]]:
    """Summaries of ``POOL`` generated runs of each of two targets."""
    pools: list[list[RunSummary]] = []
    for model in ("m-1", "m-2"):
        pool = []
        for n in range(POOL):
            document = run_document(n)
            document["target_config"] = {"values": {"model": model, "provider": "local"}}
            pool.append(summarise(redact(read_run(canonical(document)).run)))
        pools.append(pool)
    return pools


def _standing_for(pools: list[list[RunSummary]], suite: str, n: int) -> tuple[Listed, RunSummary]:
    """The ``n``th run of ``suite``: a summary of the pool under its own key, moment and rules."""
    step = timedelta(minutes=n * len(SUITES) + SUITES.index(suite))
    moment = (START + step).isoformat(timespec="microseconds")
    key = f"{moment[:19].replace(':', '-')}-{n:06d}"
    taken = pools[n % 2][(n // 2) % POOL]
    contender = taken.contender._replace(
        suite=suite, key=key, created_at=moment, config_hash=f"{(n // 250) + 1:016x}"
    )
    summary = dataclasses.replace(taken, contender=contender, git_commit=f"{n:040x}")
    blob = f"{SUITES.index(suite)}{n:039x}"
    listed = Listed("acme", suite, key, blob, f"runs/acme/{suite}/{key}.json", Path(), 0)
    return listed, summary


def measure(count: int, repeat: int, pools: list[list[RunSummary]]) -> float:
    """Median milliseconds of the pages over many runs after one more, at ``count`` a suite."""
    plan = Plan()
    summaries: dict[str, RunSummary] = {}
    for suite in SUITES:
        listed = []
        for n in range(count):
            entry, summary = _standing_for(pools, suite, n)
            listed.append(entry)
            summaries[entry.blob] = summary
        plan.suites[("acme", suite)] = listed
    sites = [Site(environment(), locale) for locale in LOCALES]
    times = []
    with tempfile.TemporaryDirectory(prefix="runsite-history-") as folder:
        cache = RunCache(Path(folder), "bench")
        home_and_suites(cache, sites, histories(plan, summaries, {}), plan)
        for more in range(repeat):
            suite = SUITES[more % len(SUITES)]
            runs = plan.suites[("acme", suite)]
            entry, summary = _standing_for(pools, suite, len(runs))
            runs.append(entry)
            summaries[entry.blob] = summary
            gc.collect()
            started = time.perf_counter()
            home_and_suites(cache, sites, histories(plan, summaries, {}), plan)
            times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[250, 2500])
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()
    pools = _pool()
    for count in arguments.runs:
        taken = measure(count, arguments.repeat, pools)
        print(f"{count} runs a suite: home and suite pages after one more run, {taken:.0f} ms")


if __name__ == "__main__":
    main()
