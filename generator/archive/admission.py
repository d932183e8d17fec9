"""Admitting run documents: which arrive, which are already there, which are refused.

Identity is the run's place, ``runs/<tenant>/<suite>/<key>.json``. A document whose place is
free arrives with its original bytes. One whose place is taken is already there when it is the
same run: the same bytes, or the same measurement written at another schema, or the run and its
promotion to baseline (which drops the recorded answers and stamps ``promoted_at``). Anything
else under a taken key is a different run, and is refused by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from generator.archive.catalog import Suite, label
from generator.archive.head import blob_id
from generator.archive.layout import Layout, unsafe
from generator.archive.names import Taken, unfit
from generator.archive.store import GitStore
from generator.document.codec import Decoded, canonical, read_run
from generator.document.model import Run
from generator.errors import DocumentRefused


@dataclass(frozen=True)
class Arrival:
    """A run document on its way into the archive."""

    source: str
    """Where it was read, for messages."""
    data: bytes
    """Its original bytes, which are what the archive keeps."""
    reading: Decoded
    baseline: bool = False
    """It was a store's baseline, so it becomes its suite's reference."""


@dataclass
class Admission:
    """What one import did, or would have done had nothing been refused."""

    arrived: list[str] = field(default_factory=list)
    """Archive paths of the runs that arrived."""
    already: dict[str, list[str]] = field(default_factory=dict)
    """Archive paths of runs that were there before (in the archive, or earlier in the batch),
    each with the files that brought it again, each named once."""
    held: int = 0
    """Runs that would have arrived had nothing been refused, where refusals kept them out."""
    baselines: dict[Suite, str] = field(default_factory=dict)
    """References set, each suite to its run key."""
    refused: list[DocumentRefused] = field(default_factory=list)
    commit: str | None = None


def measurement(run: Run) -> bytes:
    """What makes two documents the same run: everything but the promotion's own marks."""
    doc = run.model_dump(mode="json")
    doc.pop("promoted_at", None)
    for case in doc["results"]:
        case.pop("responses", None)
    return canonical(doc)


def admit(
    layout: Layout,
    store: GitStore,
    arrivals: Iterable[Arrival],
    refused: Iterable[DocumentRefused],
    skip_invalid: bool,
    subject: str | None = None,
) -> Admission:
    """Archive ``arrivals`` in one commit, all or nothing unless ``skip_invalid``.

    Runs are admitted before baselines, so a store's run keeps its recorded answers and its
    baseline names it. Call it holding the archive's lock.
    """
    done = Admission(refused=list(refused))
    tracked = store.tracked(store.path(layout.runs))
    names = Taken(tracked, store.path(layout.runs))
    taken: dict[str, Arrival] = {}
    references: dict[Suite, Arrival] = {}
    for arrival in sorted(arrivals, key=lambda a: a.baseline):
        run = arrival.reading.run
        try:
            place = store.path(layout.run(*_names(arrival, names)))
            fresh = _is_fresh(layout, store, tracked, taken, place, arrival)
            other = references.get((run.tenant, run.suite))
            if arrival.baseline and other and other.reading.run.key != run.key:
                where = label((run.tenant, run.suite))
                raise DocumentRefused("key", f"{other.source} is another baseline of {where}")
        except DocumentRefused as refusal:
            done.refused.append(refusal.located(refusal.source or arrival.source))
            continue
        shown = layout.shown(layout.run(run.tenant, run.suite, run.key))
        if fresh:
            taken[place] = arrival
            names.take((), run.tenant, arrival.source)
            names.take((run.tenant,), run.suite, arrival.source)
            names.take((run.tenant, run.suite), run.key, arrival.source)
            done.arrived.append(shown)
        else:
            sources = done.already.setdefault(shown, [])
            if arrival.source not in sources:
                sources.append(arrival.source)
        if arrival.baseline:
            references[(run.tenant, run.suite)] = arrival
    if done.refused and not skip_invalid:
        return Admission(refused=done.refused, held=len(done.arrived))
    changes: dict[str, bytes | None] = {place: a.data for place, a in taken.items()}
    for (tenant, suite), arrival in references.items():
        pointer = f"{arrival.reading.run.key}\n".encode()
        place = store.path(layout.baseline(tenant, suite))
        if tracked.get(place) != blob_id(pointer):
            changes[place] = pointer
            done.baselines[(tenant, suite)] = arrival.reading.run.key
    if changes:
        done.commit = store.commit(changes, _message(done, subject))
    return done


def _names(arrival: Arrival, names: Taken) -> tuple[str, str, str]:
    """The run's tenant, suite and key, refused where one is another name already there (which
    the refusal names), or cannot name its folder or file (``layout.unsafe``,
    ``names.unportable``)."""
    run = arrival.reading.run
    parts = (("tenant", run.tenant), ("suite", run.suite), ("key", run.key))
    for depth, (key, name) in enumerate(parts):
        clash = None if unsafe(name) else names.clash(tuple(p for _, p in parts[:depth]), name)
        problem = clash or unfit(name)
        if problem:
            raise DocumentRefused(key, problem)
    return run.tenant, run.suite, run.key


def _is_fresh(
    layout: Layout,
    store: GitStore,
    tracked: dict[str, str],
    taken: dict[str, Arrival],
    place: str,
    arrival: Arrival,
) -> bool:
    """Whether ``arrival`` takes a free place; False if the same run is there already."""
    run = arrival.reading.run
    if place in taken:
        other = taken[place]
        if other.data == arrival.data or measurement(other.reading.run) == measurement(run):
            return False
        raise DocumentRefused("key", f"{other.source} is a different run with this key")
    if place not in tracked:
        return True
    if tracked[place] == blob_id(arrival.data):
        return False
    shown = layout.shown(layout.run(run.tenant, run.suite, run.key))
    try:
        archived = read_run(store.blob(tracked[place])).run
    except DocumentRefused as refusal:
        raise refusal.located(shown) from None
    if measurement(archived) == measurement(run):
        return False
    raise DocumentRefused("key", f"{shown} is a different run archived with this key")


def _message(done: Admission, given: str | None) -> str:
    count = len(done.arrived)
    subject = given or f"Import {count} run{'' if count == 1 else 's'}"
    if done.baselines:
        subject += f" and {len(done.baselines)} baseline{'' if len(done.baselines) == 1 else 's'}"
    lines = [*done.arrived]
    lines += [f"baseline of {label(suite)}: {key}" for suite, key in done.baselines.items()]
    return f"{subject}\n\n" + "\n".join(lines) + "\n"
