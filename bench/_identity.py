"""The git identity the benchmarks commit under, where the machine has none of its own."""

from __future__ import annotations

import os

IDENTITY = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@runsite.invalid"}


def use_bench_identity() -> None:
    """Let the archive commit without asking the machine's git configuration."""
    for name, value in IDENTITY.items():
        os.environ.setdefault(name, value)
        os.environ.setdefault(name.replace("AUTHOR", "COMMITTER"), value)
