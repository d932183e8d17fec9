"""What the archive holds: every run's identity and time, read from ``runs/``, newest first.

A listing reads only ``created_at`` and ``schema_version`` of each document: every document
was validated when it arrived, and reading a thousand runs in full to list them would be slow.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from generator.archive.layout import BASELINE, Layout
from generator.document.codec import declared_schema, parse_object
from generator.document.record import json_type
from generator.errors import DocumentRefused
from generator.files import read_bytes

Suite = tuple[str, str]
"""A suite as the archive files it: (tenant, suite)."""


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

    @property
    def suite_of(self) -> Suite:
        return (self.tenant, self.suite)

    @property
    def instant(self) -> datetime:
        return datetime.fromisoformat(self.created_at)


def label(suite: Suite) -> str:
    """How messages and listings name a suite: ``tenant/suite``."""
    return "/".join(suite)


def runs(layout: Layout) -> list[ArchivedRun]:
    """Every archived run, newest first by ``created_at`` as an instant (offsets differ)."""
    found = [_entry(layout, path) for path in sorted(layout.runs.glob("*/*/*.json"))]
    found.sort(key=lambda run: (run.tenant, run.suite, run.key))
    found.sort(key=lambda run: run.instant, reverse=True)
    return found


def baselines(layout: Layout) -> dict[Suite, str]:
    """Each suite's reference run key, for the suites that have one."""
    return {
        (path.parent.parent.name, path.parent.name): path.read_text(encoding="utf-8").strip()
        for path in sorted(layout.runs.glob(f"*/*/{BASELINE}"))
    }


def _entry(layout: Layout, path: Path) -> ArchivedRun:
    shown = layout.shown(path)
    try:
        doc = parse_object(read_bytes(path))
        schema = declared_schema(doc)
        created_at = doc.get("created_at")
        if not isinstance(created_at, str):
            raise DocumentRefused("created_at", f"a JSON {json_type(created_at)}, not a string")
        _check_moment(created_at)
    except DocumentRefused as refused:
        raise refused.located(shown) from None
    return ArchivedRun(
        tenant=path.parent.parent.name,
        suite=path.parent.name,
        key=path.stem,
        path=shown,
        created_at=created_at,
        schema_version=schema,
    )


def _check_moment(created_at: str) -> None:
    try:
        moment: datetime | None = datetime.fromisoformat(created_at)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise DocumentRefused("created_at", "not an ISO-8601 timestamp with its UTC offset")
