"""promptfoo's eval results (``promptfoo eval -o`` .json and .jsonl, ``promptfoo export eval``),
read without node or promptfoo.

``claims`` knows a file by its first bytes (see ``source``); ``read`` turns one eval into a run
document per prompt × provider (see ``run`` for what maps to what, ``checks`` for the verdicts).
Read: the results format 3 that promptfoo writes today (0.123.1 was checked); any other format
is refused by its number.
"""

from __future__ import annotations

from pathlib import Path

from generator.archive import Arrival
from generator.document.codec import read_run
from generator.errors import DocumentRefused
from generator.importers.inspect_ai.run import canonical_run
from generator.importers.options import Options
from generator.importers.promptfoo.run import runs_of
from generator.importers.promptfoo.source import claims, opened

NAME = "promptfoo"

__all__ = ["NAME", "claims", "read"]


def read(path: Path, options: Options) -> list[Arrival]:
    """One eval's runs; a refusal names the file and the key. Each run arrives as its bytes read
    back, so what the archive holds and what the import reports are one run."""
    try:
        arrivals = []
        for run in runs_of(opened(path, options.limits), options):
            data = canonical_run(run, options.limits)
            arrivals.append(Arrival(str(path), data, read_run(data)))
    except DocumentRefused as refused:
        raise refused.located(str(path)) from None
    return arrivals
