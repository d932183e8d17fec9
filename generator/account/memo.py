"""Work done once per run: a page in two languages, and a reading that looks at the same checks
from several sides, ask for the same figures of one run several times.

A run is a frozen value, but hashing one (thousands of verdicts) would cost more than the work;
so a result is kept by the run's identity, for as long as the run itself lives.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar
from weakref import ReferenceType, ref

from generator.document.redacted import RedactedRun

T = TypeVar("T")


def once_per_run(work: Callable[[RedactedRun], T]) -> Callable[[RedactedRun], T]:
    """``work``, computed once for each live run and given back the same afterwards."""
    kept: dict[int, tuple[ReferenceType[RedactedRun], T]] = {}

    @wraps(work)
    def cached(run: RedactedRun) -> T:
        held = kept.get(id(run))
        if held is not None and held[0]() is run:
            return held[1]
        result = work(run)
        for key in [key for key, (alive, _) in kept.items() if alive() is None]:
            del kept[key]
        kept[id(run)] = (ref(run), result)
        return result

    return cached
