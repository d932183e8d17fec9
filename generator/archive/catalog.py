"""What the archive holds: every run committed at HEAD, its identity and time, newest first.

The archive is what HEAD holds, never the working tree: a file dropped into ``runs/``, an edit
never committed, a symbolic link out of ``runs/`` or a baseline linked to a system file is
neither listed nor read. A link or a submodule committed in ``runs/`` is refused by name.

A listing needs each document's ``created_at`` and ``schema_version``, so the first listing
reads every document. A blob never changes, so what it says is remembered by blob id in
``<git dir>/runsite-catalog.json``: later listings read the tree and the new documents only.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from generator.archive.config import Limits, too_large
from generator.archive.head import FILES
from generator.archive.layout import BASELINE, Layout
from generator.archive.store import GitStore
from generator.document.codec import declared_schema, parse_object
from generator.document.values import json_type, moment_of
from generator.errors import ArchiveRefused, DocumentRefused

Suite = tuple[str, str]
"""A suite as the archive files it: (tenant, suite)."""

FACTS = "runsite-catalog.json"
"""In the git dir: each document blob's ``created_at`` and ``schema_version``."""


@dataclass(frozen=True)
class ArchivedRun:
    """One archived run, as a listing shows it."""

    tenant: str
    suite: str
    key: str
    path: str
    """Relative to the archive's root: ``runs/<tenant>/<suite>/<key>.json``."""
    created_at: str
    schema_version: int
    """The schema the archived document declares (reading migrates it in memory)."""
    blob: str
    """The git blob of the document at HEAD: its bytes, as committed."""

    @property
    def suite_of(self) -> Suite:
        return (self.tenant, self.suite)

    @property
    def instant(self) -> datetime:
        return datetime.fromisoformat(self.created_at)


def label(suite: Suite) -> str:
    """How messages and listings name a suite: ``tenant/suite``."""
    return "/".join(suite)


def committed(
    layout: Layout, store: GitStore, limits: Limits
) -> tuple[list[ArchivedRun], dict[Suite, str]]:
    """Every run at HEAD, newest first by ``created_at`` as an instant (offsets differ), and
    each suite's reference run key. Call it holding the archive's lock."""
    facts = _Facts(store.git_dir / FACTS)
    runs: list[ArchivedRun] = []
    baselines: dict[Suite, str] = {}
    for place, (mode, sha, size) in sorted(store.tree(store.path(layout.runs)).items()):
        shown = layout.shown(store.top / place)
        refuse_unless_file(mode, shown)
        parts = shown.split("/")
        if len(parts) != 4:
            continue
        _, tenant, suite, name = parts
        if name == BASELINE or name.endswith(".json"):
            refuse_if_larger(size, shown, limits)
        if name == BASELINE:
            baselines[(tenant, suite)] = store.blob(sha).decode("utf-8", "replace").strip()
        elif name.endswith(".json"):
            created_at, schema = facts.of(sha, store, shown)
            runs.append(ArchivedRun(tenant, suite, name[:-5], shown, created_at, schema, sha))
    facts.save()
    runs.sort(key=lambda run: (run.tenant, run.suite, run.key))
    runs.sort(key=lambda run: run.instant, reverse=True)
    return runs, baselines


def refuse_unless_file(mode: str, shown: str) -> None:
    """A committed entry of ``runs/`` that is not a file (a link, a submodule) is refused."""
    if mode not in FILES:
        kind = "a symbolic link" if mode == "120000" else "a submodule"
        raise ArchiveRefused(
            f"{shown}: {kind} committed in runs/, where runsite reads only the files it "
            "writes; git rm it"
        )


def refuse_if_larger(size: int | None, shown: str, limits: Limits) -> None:
    """A committed document (or baseline) larger than ``[limits] document_mb`` is refused by its
    size, before it is read: an archive that arrives whole (a clone, a tarball) may hold one."""
    most = limits.size("document_mb")
    if size is not None and size > most:
        raise DocumentRefused("", too_large("document_mb", most), shown)


class _Facts:
    """``created_at`` and ``schema_version`` of document blobs, kept from one listing to the
    next; a file that cannot be read is as good as none."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            known = json.loads(path.read_bytes())
        except (OSError, ValueError):
            known = None
        self.known: dict[str, object] = known if isinstance(known, dict) else {}
        self.used: dict[str, tuple[str, int]] = {}

    def of(self, sha: str, store: GitStore, shown: str) -> tuple[str, int]:
        """What the document in blob ``sha`` (shown as ``shown``) says of itself."""
        facts = self._remembered(sha)
        if facts is None:
            try:
                facts = _read_facts(store.blob(sha))
            except DocumentRefused as refused:
                raise refused.located(shown) from None
        self.used[sha] = facts
        return facts

    def _remembered(self, sha: str) -> tuple[str, int] | None:
        entry = self.known.get(sha)
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], str)
            and type(entry[1]) is int
        ):
            return None
        try:
            moment_of(entry[0])
        except ValueError:
            return None
        return entry[0], entry[1]

    def save(self) -> None:
        """Remember the blobs of this listing, and only those; where the archive may only be
        read (a read-only mount), remember nothing, as the next listing reads them again."""
        if self.used.keys() == self.known.keys():
            return
        partial = self.path.with_name(f"{self.path.name}.partial")
        with suppress(OSError):
            partial.write_text(json.dumps(self.used, sort_keys=True), encoding="utf-8")
            os.replace(partial, self.path)


def _read_facts(data: bytes) -> tuple[str, int]:
    """A document's ``created_at`` and ``schema_version``. Read with the plain JSON parser,
    twice as fast as the strict one: a document the strict reader would refuse for other
    reasons is refused when it is read whole (``show``, ``build``)."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        doc = parse_object(data)  # to say, in its words, why it is no JSON object
    if not isinstance(doc, dict):
        doc = parse_object(data)
    schema = declared_schema(doc)
    created_at = doc.get("created_at")
    if not isinstance(created_at, str):
        raise DocumentRefused("created_at", f"a JSON {json_type(created_at)}, not a string")
    try:
        moment_of(created_at)
    except ValueError as error:
        raise DocumentRefused("created_at", str(error)) from None
    return created_at, schema
