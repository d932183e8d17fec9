"""``runsite build``: from the archive to a published site, redacted by construction and
checked anyway.

The one place that holds both sides of the boundary: it reads each full run from the archive,
hands the site only its redacted projection, and keeps the run's payload strings to search the
built site for. A hit fails the build naming the file and the field, and the site is not put in
place; a clean site replaces the previous one in one rename.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from importlib.resources import files
from pathlib import Path

from generator.archive import Archive
from generator.document.payload import payload_strings
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.errors import Refused
from generator.files import read_document
from generator.site.build import TEMPLATES, SiteSettings, build_site, replace_site
from generator.site.pages import SuiteRuns
from generator.site.scan import scan, shipped_files


def _package(name: str) -> Path:
    return Path(str(files(name)))


SHIPPED = (
    _package("material") / "templates",
    _package("plotly") / "package_data",
    TEMPLATES / "assets",
)
"""Folders whose files the site copies verbatim: the theme, plotly.js, runsite's own assets."""


class LeakRefused(Refused):
    """The built site carries a payload string; it was not published."""


@dataclass(frozen=True)
class Published:
    """What a build made."""

    out: Path
    runs: int
    pages: int
    disclosure: Mapping[str, object]


def publish(
    archive: Archive, out: Path, progress: Callable[[int], Callable[[], None]]
) -> Published:
    """Build the archive's site into ``out``.

    ``progress`` is given the number of steps (runs read, then pages written) and returns what
    to call after each.
    """
    listed, references = archive.runs()
    disclosure = archive.config.disclosure
    tick = progress(len(listed) * 7)
    histories: dict[tuple[str, str], list[RedactedRun]] = {}
    payload: dict[str, str] = {}
    for entry in listed:
        run = read_document(archive.layout.root / entry.path).run
        redacted = redact(run, disclosure)
        payload.update(payload_strings(run, disclosure, redacted))
        histories.setdefault((run.tenant, run.suite), []).append(redacted)
        tick()
    suites = [
        SuiteRuns(
            tenant,
            suite,
            tuple(sorted(runs, key=lambda r: (datetime.fromisoformat(r.created_at), r.key))),
            references.get((tenant, suite)),
        )
        for (tenant, suite), runs in sorted(histories.items())
    ]
    settings = SiteSettings(
        name=archive.config.site.name,
        language=archive.config.site.language,
        user_config=archive.layout.root / "mkdocs.yml",
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".runsite-", dir=out.parent) as work:
        built = Path(work) / "site"
        pages = build_site(suites, settings, built, Path(work), tick)
        leaks = scan(built, payload, shipped_files(*SHIPPED))
        if leaks:
            first = leaks[0]
            more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
            raise LeakRefused(
                f"{out / first.file}: carries the payload of {first.field}{more}; nothing was published"
            )
        replace_site(built, out)
    return Published(out, len(listed), pages, disclosure.model_dump())
