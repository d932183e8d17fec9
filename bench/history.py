"""How long the pages that span a suite's runs take to make after one more run arrives.

For each size (250 and 2,500 runs a suite by default, in the four suites of ``build.py``, each
run of one of two targets, so each suite has a board) it makes the suites' histories from run
summaries, lets a first pass fill the cache as the build before would have, then times, for
one more run in one suite at a time, what a rebuild makes of the pages over many runs: the home
page and, for the suite the run arrived in, its page, its cases and board pages, its search
entries and its blocks of older runs, in both languages. It prints the median milliseconds, and
those after one more run that fills a block (whose page is then written, once).

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
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generator.document.codec import canonical, read_run
from generator.document.redact import redact
from generator.publish.cache import RunCache
from generator.publish.plan import Pages, plan_pages, rendered
from generator.publish.source import Committed, Listed
from generator.publish.suites import histories, home_and_suites, older_pages
from generator.site.history import BLOCK
from generator.site.labels import LOCALES
from generator.site.pages import Site
from generator.site.summary import RunSummary, summarise
from generator.site.templates import environment
from shape import START, SUITES, run_document

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
    listed = Listed("acme", suite, key, blob, f"runs/acme/{suite}/{key}.json", "", 0)
    return listed, summary


class History:
    """Four suites of ``count`` runs each, and what the last build of their pages left."""

    def __init__(self, count: int, pools: list[list[RunSummary]], cache: RunCache) -> None:
        self.pools = pools
        self.cache = cache
        self.runs: dict[str, list[Listed]] = {suite: [] for suite in SUITES}
        self.summaries: dict[str, RunSummary] = {}
        self.moments: dict[str, datetime] = {}
        self.sites = [Site(environment(), locale) for locale in LOCALES]
        self.written: dict[str, str] = {}
        """The body digest of each page of runsite's own the last build wrote."""
        for suite in SUITES:
            for _ in range(count):
                self.arrive(suite)
        self.rebuild()

    def arrive(self, suite: str) -> None:
        """One more run of ``suite``."""
        listed, summary = _standing_for(self.pools, suite, len(self.runs[suite]))
        self.runs[suite].append(listed)
        self.summaries[listed.blob] = summary
        self.moments[listed.blob] = datetime.fromisoformat(summary.created_at)

    def _summaries(self, blobs: Sequence[str]) -> dict[str, RunSummary]:
        """The summaries of ``blobs``, as the build's cache gives them."""
        return {blob: self.summaries[blob] for blob in blobs}

    def rebuild(self) -> float:
        """Seconds a build takes to make the pages over many runs: the home page, each suite's
        pages and search entries, and the blocks of older runs whose inputs moved. Planning the
        build's pages is not timed (it is the same for every page a run has)."""
        head = Committed(Path(), tuple(r for runs in self.runs.values() for r in runs), {})
        folders = {"en": "", "it": "it/"}
        plan = plan_pages(head, self.moments, folders, "bench", {})
        render = rendered(plan, Pages(folders, "bench", self.written))
        gc.collect()
        started = time.perf_counter()
        created = {blob: summary.created_at for blob, summary in self.summaries.items()}
        suites = histories(plan, self._summaries, {}, created)
        home_and_suites(self.cache, self.sites, suites, plan)
        for _ in older_pages(self.sites, suites, plan, render.older):
            pass  # made one at a time, as the build stages them
        taken = time.perf_counter() - started
        self.written = {
            file: body
            for block in plan.blocks
            for file, body in zip(block.files(), block.bodies(), strict=True)
        }
        return taken


def measure(count: int, repeat: int, pools: list[list[RunSummary]]) -> tuple[float, float]:
    """Median milliseconds of the pages over many runs after one more, at ``count`` a suite;
    and those after one more that fills a block of older runs."""
    with tempfile.TemporaryDirectory(prefix="runsite-history-") as folder:
        history = History(count, pools, RunCache(Path(folder), "bench"))
        times = []
        for more in range(repeat):
            history.arrive(SUITES[more % len(SUITES)])
            times.append(history.rebuild())
        filling = SUITES[-1]
        while (len(history.runs[filling]) + 1) % BLOCK:
            history.arrive(filling)
        history.rebuild()
        history.arrive(filling)
        filled = history.rebuild()
    return statistics.median(times) * 1000, filled * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[250, 2500])
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()
    pools = _pool()
    for count in arguments.runs:
        taken, filled = measure(count, arguments.repeat, pools)
        print(
            f"{count} runs a suite: home and suite pages after one more run, {taken:.0f} ms; "
            f"after one that fills a block of older runs, {filled:.0f} ms"
        )


if __name__ == "__main__":
    main()
