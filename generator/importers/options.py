"""What an import is told beyond the files: names from the command line, and the archive's
``[inspect]`` thresholds, ``[promptfoo]`` tenant and ``[limits]``."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.archive.config import Inspect, Limits, Promptfoo


@dataclass(frozen=True)
class Options:
    """How to name and judge what the files do not say themselves."""

    tenant: str | None = None
    """``--tenant``: the tenant of every run imported; a document that names another is refused."""
    suite: str | None = None
    """``--suite``: the suite of every run imported, likewise."""
    inspect: Inspect = field(default_factory=Inspect)
    promptfoo: Promptfoo = field(default_factory=Promptfoo)
    limits: Limits = field(default_factory=Limits)
