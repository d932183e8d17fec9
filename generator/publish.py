"""``runsite build``: from the archive to a published site, redacted by construction and
checked anyway.

The one place that holds both sides of the boundary: it reads each full run from the archive,
hands the site only its redacted projection, and keeps the run's payload strings to search the
built site for. A hit fails the build naming the file and the field, and the site is not put in
place; a clean site replaces the previous one in one rename.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib.resources import files
from pathlib import Path

from generator.archive import Archive
from generator.archive.catalog import ArchivedRun
from generator.document.payload import payload_strings
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.errors import Refused
from generator.site.build import TEMPLATES, SiteSettings, build_site, replace_site
from generator.site.build import environment as site_environment
from generator.site.labels import LOCALES
from generator.site.pages import Page, Site, SuiteRuns, verdicts_only
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


class _Pages:
    """The site's pages, made suite by suite as the archive is read.

    Only what a page needs is held: a run with its recorded answers while its own pages are
    written (with the previous run and the reference, which its comparisons read), and for the
    suite and home pages every run without its answers. Payload strings are gathered as runs
    are read, for the scan after the build.
    """

    def __init__(
        self,
        archive: Archive,
        listed: Sequence[ArchivedRun],
        references: Mapping[tuple[str, str], str],
        tick: Callable[[], None],
    ) -> None:
        self.archive = archive
        self.listed = listed
        self.references = references
        self.tick = tick
        self.disclosure = archive.config.disclosure
        self.payload: dict[str, str] = {}
        self.suites: list[SuiteRuns] = []
        environment = site_environment()
        self.sites = [Site(environment, locale) for locale in LOCALES]

    def _read(self, entry: ArchivedRun) -> RedactedRun:
        run = self.archive.document(entry).run
        redacted = redact(run, self.disclosure)
        self.payload.update(payload_strings(run, self.disclosure, redacted))
        self.tick()
        return redacted

    def __iter__(self) -> Iterator[tuple[str, Page]]:
        by_suite: dict[tuple[str, str], list[ArchivedRun]] = {}
        for entry in self.listed:
            by_suite.setdefault(entry.suite_of, []).append(entry)
        for (tenant, suite), entries in sorted(by_suite.items()):
            entries.sort(key=lambda e: (datetime.fromisoformat(e.created_at), e.key))
            key = self.references.get((tenant, suite))
            reference = next((self._read(e) for e in entries if e.key == key), None)
            previous: RedactedRun | None = None
            history = []
            for entry in entries:
                run = reference if reference is not None and entry.key == key else self._read(entry)
                for site in self.sites:
                    yield from (
                        (site.locale, page) for page in site.run_pages(run, previous, reference)
                    )
                history.append(verdicts_only(run))
                previous = run
            self.suites.append(SuiteRuns(tenant, suite, tuple(history), key))
            for site in self.sites:
                yield site.locale, site.suite(self.suites[-1])
        for site in self.sites:
            yield site.locale, site.home(self.suites)


def publish(
    archive: Archive, out: Path, progress: Callable[[int], Callable[[], None]]
) -> Published:
    """Build the archive's site into ``out``.

    ``progress`` is given the number of steps (runs read, then pages written) and returns what
    to call after each.
    """
    listed, references = archive.runs()
    pages = _Pages(archive, listed, references, progress(len(listed) * 7))
    settings = SiteSettings(
        name=archive.config.site.name,
        language=archive.config.site.language,
        user_config=archive.layout.root / "mkdocs.yml",
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".runsite-", dir=out.parent) as work:
        built = Path(work) / "site"
        count = build_site(pages, lambda: pages.suites, settings, built, Path(work), pages.tick)
        leaks = scan(built, pages.payload, shipped_files(*SHIPPED))
        if leaks:
            first = leaks[0]
            more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
            raise LeakRefused(
                f"{out / first.file}: carries the payload of {first.field}{more}; nothing was published"
            )
        replace_site(built, out)
    return Published(out, len(listed), count, archive.config.disclosure.model_dump())
