"""The corpus documents the reading's tests read, and a way to look at one section of a reading."""

from __future__ import annotations

from generator.reading import Reading
from generator.reading.facts import Param
from tests.conftest import CORPUS

LOCAL = CORPUS / "digline-local"
RUN1 = LOCAL / "run1-baseline-candidate__2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169.json"
RUN2 = LOCAL / "run2-changed__2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169.json"
BASELINE = LOCAL / "baseline-support__promoted-from-run1.json"
REDACTED_RUN2 = LOCAL / "run2-changed__redacted-via-run_to_json.json"
DIGLINE = CORPUS / "digline"


def section(reading: Reading, name: str) -> list[tuple[str, dict[str, Param]]]:
    """The facts of one section, as (kind, parameters)."""
    return [(f.kind, f.params) for f in reading.facts if f.section == name]
