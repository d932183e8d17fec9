"""The (file, run) pairs a build's sieves let through, and what it makes of them: each run is
read again and the guard seeks its payload in the files it may be in (``guard.leaks``), one run
at a time, as a build's payload is too large to hold whole."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.document.disclosure import Disclosure
from generator.document.payload import payload_strings
from generator.guard import leaks
from generator.guard.kept import Kept
from generator.guard.scan import Leak, contents, shipped
from generator.guard.sieve import Sieves
from generator.publish.source import Blobs, Committed
from generator.publish.work import read_run_of
from generator.publish.wrapping import Written
from generator.site.templates import source_of


def sieve_rest(
    sieve: Sieves, made: Mapping[str, Path], written: Sequence[Written], built: Path
) -> tuple[list[Written], dict[str, Path]]:
    """The files of the site ``sieve`` let through, and where each is: the pages ``written``
    into ``built`` (sieved as they were wrapped) first, then every other file mkdocs ``made``
    (decompressed where gzipped), sieved here, in the order of their paths. Where a page is is
    made only for those the sieve let through: 40,000 paths at 10,000 runs took 9 MB of the
    build's memory.

    Sieved in this process: the other files are some 40 (the home and suite pages, the search
    index of each language, 2 MB apiece at 10,000 runs), and two processes forked for them
    took 0.17 s where this one takes 0.12, each holding 11-13 MiB of its own beside the
    build's at the end of a rebuild there, which set its peak."""
    candidates = [w for w in written if w.runs]
    where = {w.file: built / w.file for w in candidates}
    pages = {w.file for w in written}
    rest = [
        file
        for file, path in made.items()
        if file not in pages and not shipped(path, source_of(file))
    ]
    for file in sorted(rest):
        runs = frozenset(sieve.runs_in(contents(made[file], made[file].read_bytes())))
        if runs:
            where[file] = made[file]
            candidates.append(Written(file, "", runs))
    return candidates, where


def kept_found(checked: Kept, arrivals: Sequence[int]) -> list[Written]:
    """The kept files that may carry the payload of a run that arrived, as the check of the
    kept pages found them (``arrivals``: the runs' places at HEAD)."""
    return [
        Written(file, "", frozenset(arrivals[n] for n in runs))
        for file, runs in checked.found.items()
    ]


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
