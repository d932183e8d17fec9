"""What a build makes of the (file, run) pairs its sieves let through: each run is read again
and the guard seeks its payload in the files it may be in (``guard.leaks``), one run at a time,
as a build's payload is too large to hold whole."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.document.disclosure import Disclosure
from generator.document.payload import payload_strings
from generator.guard import leaks
from generator.guard.scan import Leak, contents
from generator.publish.source import Blobs, Committed
from generator.publish.work import Written, read_run_of


def confirm(
    candidates: Sequence[Written],
    where: Mapping[str, Path],
    head: Committed,
    disclosure: Disclosure,
) -> list[Leak]:
    """The leaks among the (file, run) pairs the sieve let through: each run's payload sought
    exactly in each file."""
    by_run: dict[int, list[str]] = {}
    for found in candidates:
        for index in found.runs:
            by_run.setdefault(index, []).append(found.file)
    found_leaks: set[Leak] = set()
    with Blobs(head.git_dir) as blobs:
        for index, files in sorted(by_run.items()):
            reading, redacted = read_run_of(head.runs[index], blobs, disclosure)
            payload = payload_strings(reading.run, disclosure, redacted)
            outputs = ((file, contents(where[file], where[file].read_bytes())) for file in files)
            found_leaks.update(leaks(payload, outputs))
    return sorted(found_leaks)
