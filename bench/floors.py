"""What no build of ``bench/build.py``'s archives can go below on this machine, in CPU ms a run
or wall seconds, measured beside the builds so that a figure is read against its floor on the
same machine at the same moment: machines of this kind differ in speed by a factor of two or
more (``probe``), and one machine's speed swings by a third from one minute to the next.

- ``floor``: reading a run (parse, validate, redact, payload keys) and rendering it, in one
  process; and ``Run.model_validate_json`` of the same documents, pydantic's fastest path to
  the run model, which any reading of a run pays at least;
- ``floor_on_every_core``: reading and rendering with every core at them at once;
- ``starting``: a process that starts Python and imports what a rebuild imports, before it
  reads a file of the archive.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import NamedTuple

from generator.document.codec import canonical, read_run
from generator.document.disclosure import Disclosure
from generator.document.model import Run
from generator.document.payload import payload_texts
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.guard.sieve import payload_keys
from generator.site.labels import LOCALES
from generator.site.pages import Site, comparison
from generator.site.templates import environment
from shape import SUITES, run_document

SAMPLE = 40
"""Runs the floor's reading and rendering are timed on, each pass."""
PASSES = 3
"""Passes over ``SAMPLE`` runs the floor takes the best of: it is a lower bound."""
STARTS = 5
"""Processes ``starting`` times; their median is the figure."""

_IMPORTS = (
    "import generator.cli, generator.publish\n"
    "from generator.account.significance import warm\n"
    "warm()"
)
"""What a rebuild imports before it reads the archive: the command line, the build and all it
imports, and ``scipy.special``, which a run's intervals need."""


def _read(document: bytes, disclosure: Disclosure) -> RedactedRun:
    """What a full build does first with each run: parse, validate and redact it, and make the
    sieve's keys of its payload."""
    reading = read_run(document)
    redacted = redact(reading.run, disclosure)
    payload_keys(payload_texts(reading.run, disclosure, bool(reading.unknown)))
    return redacted


class Alone(NamedTuple):
    """CPU ms a run in one process, the others idle."""

    reading: float
    rendering: float
    validating: float
    """``Run.model_validate_json`` alone, of the documents read."""


def floor(disclosure: Disclosure) -> Alone:
    """CPU milliseconds a run takes in this process to be read (``_read``) and to be rendered
    (its comparison with the run before it in its suite, then its page and that comparison's
    in each language), the best of ``PASSES`` over ``SAMPLE`` runs never read before each, with
    the collector off, as in the build's workers. CPU, not wall: the other processes on the
    machine would raise the floor by what they took."""
    sites = [Site(environment(), locale) for locale in LOCALES]
    span = SAMPLE + len(SUITES)
    reading, rendering, validating = [], [], []
    for first in range(0, PASSES * span, span):
        documents = [canonical(run_document(n)) for n in range(first, first + span)]
        gc.collect()
        gc.disable()
        try:
            started = time.process_time()
            runs = [_read(document, disclosure) for document in documents]
            read = time.process_time()
            for run, before in zip(runs[len(SUITES) :], runs, strict=False):
                pair = comparison(run, before)
                for site in sites:
                    site.run(run, before.key, None, None)
                    site.diff(run, before, pair, "previous")
            rendered = time.process_time()
            for document in documents:
                Run.model_validate_json(document)
            validated = time.process_time()
        finally:
            gc.enable()
        reading.append((read - started) * 1000 / span)
        rendering.append((rendered - read) * 1000 / SAMPLE)
        validating.append((validated - rendered) * 1000 / span)
    return Alone(min(reading), min(rendering), min(validating))


def floor_on_every_core(disclosure: Disclosure, cores: int) -> float:
    """CPU milliseconds a run takes to be read and rendered (``floor``'s sum) with each of
    ``cores`` cores at it: ``floor`` in as many processes forked together, the mean of theirs.
    What processes on a machine's cores cost each other (its caches, its memory, cores a host
    shares) is part of any build that uses every core: on a machine of this kind, two
    processes at once took 10-13% more a run each than one alone, over three rounds in turn."""
    with get_context("fork").Pool(cores) as pool:
        return statistics.mean(pool.map(partial(_floor_sum, disclosure), range(cores)))


def _floor_sum(disclosure: Disclosure, _: int) -> float:
    alone = floor(disclosure)
    return alone.reading + alone.rendering


class Floor(NamedTuple):
    """The floor's figures at one moment, in CPU ms a run."""

    reading: float
    """In one process, the others idle."""
    rendering: float
    """In one process, the others idle."""
    validating: float
    """pydantic's part of reading: ``Run.model_validate_json``, in one process."""
    busy: float
    """Reading and rendering, with every core at them (``floor_on_every_core``)."""

    @classmethod
    def measured(cls, disclosure: Disclosure, cores: int) -> Floor:
        """The floor now; on one core, the figures of one process are those of every core."""
        alone = floor(disclosure)
        both = alone.reading + alone.rendering
        busy = floor_on_every_core(disclosure, cores) if cores > 1 else both
        return cls(*alone, busy)


def starting() -> float:
    """Wall seconds, the median of ``STARTS``, a new process takes to start Python and import
    what a rebuild imports (``_IMPORTS``): every rebuild pays it before its own work."""
    root = Path(__file__).resolve().parents[1]
    times = []
    for _ in range(STARTS):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", _IMPORTS], cwd=root, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def probe() -> float:
    """Seconds this machine takes to sum ten million squares in Python: one figure to compare
    machines of a kind by, whose speed differs by a factor of two or more."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        sum(n * n for n in range(10**7))
        times.append(time.perf_counter() - started)
    return min(times)
