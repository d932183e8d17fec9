"""RUN references: a key, a path, ``latest``, ``latest~N``, and ``SUITE@latest[~N]``.

A suite is named ``suite`` or, where two tenants have a suite of that name, ``tenant/suite``.
A reference that fits several runs or suites is refused with the candidates named, never
settled by a guess.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from generator.archive.catalog import ArchivedRun, Suite, label
from generator.archive.layout import Layout
from generator.errors import RunNotFound

_LATEST = re.compile(r"latest(?:~(0|[1-9][0-9]*))?")


def resolve(ref: str, runs: list[ArchivedRun], layout: Layout, cwd: Path) -> ArchivedRun:
    """The run ``ref`` names among ``runs`` (newest first)."""
    if "@" in ref:
        named, _, moment = ref.rpartition("@")
        back = _steps_back(moment)
        if back is None:
            raise RunNotFound(f"{ref}: after the @ comes latest or latest~N")
        suite = pick_suite(named, (run.suite_of for run in runs))
        return _nth(
            [run for run in runs if run.suite_of == suite], back, ref, f" of {label(suite)}"
        )
    back = _steps_back(ref)
    if back is not None:
        return _nth(runs, back, ref, "")
    if ref.endswith(".json") or "/" in ref or os.sep in ref:
        path = (cwd / ref).resolve()
        for run in runs:
            if layout.root / run.path == path:
                return run
        raise RunNotFound(f"{ref}: not an archived run; runsite import archives it")
    matches = [run for run in runs if run.key == ref]
    if not matches:
        raise RunNotFound(f"{ref}: no archived run has this key")
    if len(matches) > 1:
        raise RunNotFound(f"{ref}: ambiguous, it names {_listed(run.path for run in matches)}")
    return matches[0]


def pick_suite(named: str, suites: Iterable[Suite]) -> Suite:
    """The one suite ``named`` (``suite`` or ``tenant/suite``) names among ``suites``."""
    tenant, _, suite = named.rpartition("/")
    matches = sorted({s for s in suites if s[1] == suite and tenant in ("", s[0])})
    if not matches:
        raise RunNotFound(f"{named}: no archived suite has this name")
    if len(matches) > 1:
        raise RunNotFound(f"{named}: ambiguous, it names {_listed(map(label, matches))}")
    return matches[0]


def _steps_back(text: str) -> int | None:
    match = _LATEST.fullmatch(text)
    return None if match is None else int(match.group(1) or 0)


def _nth(runs: list[ArchivedRun], back: int, ref: str, of: str) -> ArchivedRun:
    if back >= len(runs):
        held = f"only {len(runs)} runs{of} are archived" if runs else f"no runs{of} are archived"
        raise RunNotFound(f"{ref}: {held}")
    return runs[back]


def _listed(names: Iterable[str]) -> str:
    return ", ".join(names)
