"""``runsite build`` (its arguments as this script's), which also writes to the file its first
argument names the wall seconds of its reading phase: every run read, redacted and rendered in
the build's processes, the floor's work. ``bench/build.py`` sets the rest of a full build against
it, both measured in the same build: on a machine whose speed swings by a third from one minute
to the next, the floor measured beside a build can only bound it from below.

    .venv/bin/python bench/_reading_timed.py OUT build --root … --out …
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator import publish
from generator.cli import main
from generator.publish.work import read_all

_out = Path(sys.argv[1])


def _timed(*arguments: Any, **keywords: Any) -> Any:
    started = time.perf_counter()
    try:
        return read_all(*arguments, **keywords)
    finally:
        _out.write_text(f"{time.perf_counter() - started}\n")


publish.__dict__["read_all"] = _timed  # the name the build calls it by
sys.argv = ["runsite", *sys.argv[2:]]
main()
