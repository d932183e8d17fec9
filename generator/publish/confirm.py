"""What a build makes of the files its sieve let through: the theme's and runsite's own files
are let go, and every other (file, run) pair is searched exactly for that run's payload."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path

from generator.document.disclosure import Disclosure
from generator.document.payload import payload_strings
from generator.guard.scan import Leak, Sought, contents
from generator.publish.source import Blobs, Committed
from generator.publish.work import Written, read_run_of
from generator.site.templates import ASSETS, TEMPLATES

THEME = Path(str(files("material"))) / "templates"


def shipped(file: str, data: bytes) -> bool:
    """Whether the site's ``file`` is a verbatim copy of what the theme or runsite ships (its
    scripts, styles, fonts): it cannot carry a run's data, and its words ("currency",
    "delivered") would only fail the build for nothing."""
    source = TEMPLATES / "assets" / ASSETS[file] if file in ASSETS else THEME / file
    return source.is_file() and source.read_bytes() == data


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
    leaks: set[Leak] = set()
    with Blobs(head.git_dir) as blobs:
        for index, files in sorted(by_run.items()):
            reading, redacted = read_run_of(head.runs[index], blobs, disclosure)
            sought = Sought(payload_strings(reading.run, disclosure, redacted))
            for file in files:
                data = contents(where[file], where[file].read_bytes())
                leaks |= {Leak(file, f) for f in sought.fields_in(data)}
    return sorted(leaks)
