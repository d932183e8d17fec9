"""What a build reads of runs outside its processes' work: what the check of the kept pages
needs of the runs that arrived, and, where the cache lost them since the build began, the keys
and summaries of runs it knew."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from generator.document.disclosure import Disclosure
from generator.document.payload import payload_texts, unshown
from generator.document.redacted import RedactedRun
from generator.guard.sieve import Keys, payload_keys
from generator.guard.windows import Arrival, arrival
from generator.publish.cache import RunCache
from generator.publish.source import Blobs, Committed, Listed
from generator.publish.work import read_run_of
from generator.site.summary import RunSummary, summarise


def arrivals_of(
    git_dir: Path, runs: Sequence[Listed], disclosure: Disclosure
) -> dict[str, Arrival]:
    """What the check of the kept pages needs of runs that arrived, by blob id: the forms the
    pages runsite writes would carry their payload in (``windows.arrival``)."""
    return {
        blob: arrival(unshown(texts, redacted))
        for blob, texts, redacted in _payloads(git_dir, runs, disclosure)
    }


def payload_keys_of(
    head: Committed, cache: RunCache, disclosure: Disclosure, blobs: Sequence[str]
) -> dict[str, Keys]:
    """The ``sieve.payload_keys`` of ``blobs``: kept in the cache (by this build or one before),
    else (a cache file lost since the build began) read from the runs again."""
    keys = cache.keys(blobs)
    lost = _lost(head, blobs, keys)
    keys.update(
        {blob: payload_keys(texts) for blob, texts, _ in _payloads(head.git_dir, lost, disclosure)}
    )
    return keys


def summaries_of(
    head: Committed, cache: RunCache, disclosure: Disclosure, blobs: Sequence[str]
) -> dict[str, RunSummary]:
    """The summaries of ``blobs``: kept in the cache (by this build or one before), else (a
    pack lost since the build began) read from the runs again."""
    found = cache.summaries(blobs)
    lost = _lost(head, blobs, found)
    found.update(
        {
            blob: summarise(redacted)
            for blob, _, redacted in _payloads(head.git_dir, lost, disclosure)
        }
    )
    return found


def _lost(head: Committed, blobs: Sequence[str], found: Collection[str]) -> list[Listed]:
    """The runs of ``blobs`` the cache did not give back (none, unless it lost a file)."""
    wanted = set(blobs).difference(found)
    return [listed for listed in head.runs if listed.blob in wanted] if wanted else []


def _payloads(
    git_dir: Path, runs: Sequence[Listed], disclosure: Disclosure
) -> Iterator[tuple[str, set[str], RedactedRun]]:
    """Each run's blob id, payload texts, and redaction."""
    with Blobs(git_dir) as blobs:
        for listed in runs:
            reading, redacted = read_run_of(listed, blobs, disclosure)
            yield (
                listed.blob,
                payload_texts(reading.run, disclosure, bool(reading.unknown)),
                redacted,
            )
