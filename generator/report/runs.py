"""The runs a report shows, read from the archive as its site reads them: committed at HEAD,
redacted under the archive's disclosure. The one module of the report that holds full runs,
and only to keep their payload strings for the leak scan; everything after it sees the
redacted runs.

A run's page links to its comparisons with the previous run of its suite and with the suite's
reference, and says whether it got worse than that reference; so a report of a run reads the
reference too, and knows the key of the run before it (in the site's order: by the moment each
was measured, then by key).
"""

from __future__ import annotations

from pathlib import Path

from generator.archive import Archive, ArchivedRun, label
from generator.archive.refs import resolve
from generator.document.payload import payload_strings
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.errors import RunNotFound
from generator.report.subject import Origin, Subject
from generator.site.look import read_look
from generator.site.writer import diff_role


class _Reader:
    """Reads archived runs once each, keeping the payload strings of every run it read."""

    def __init__(self, archive: Archive, cwd: Path) -> None:
        self.archive = archive
        self.cwd = cwd
        self.listed, self.baselines = archive.runs()
        self.payload: dict[str, str] = {}
        self._read: dict[str, RedactedRun] = {}

    def find(self, reference: str) -> ArchivedRun:
        return resolve(reference, self.listed, self.archive.layout, self.cwd)

    def read(self, listed: ArchivedRun) -> RedactedRun:
        if listed.blob not in self._read:
            disclosure = self.archive.config.disclosure
            run = self.archive.document(listed).run
            redacted = redact(run, disclosure)
            self.payload |= payload_strings(run, disclosure, redacted)
            self._read[listed.blob] = redacted
        return self._read[listed.blob]

    def previous(self, listed: ArchivedRun) -> ArchivedRun | None:
        """The run before ``listed`` in its suite, as the site orders them."""
        suite = sorted(
            (run for run in self.listed if run.suite_of == listed.suite_of),
            key=lambda run: (run.instant, run.key),
        )
        at = suite.index(listed)
        return suite[at - 1] if at else None

    def reference(self, listed: ArchivedRun) -> ArchivedRun | None:
        """The suite's reference run, if it has one among the committed runs."""
        key = self.baselines.get(listed.suite_of)
        return next(
            (r for r in self.listed if r.suite_of == listed.suite_of and r.key == key), None
        )


def gather(
    archive: Archive, reference: str, against: str | None, baseline: bool, cwd: Path
) -> tuple[Subject, dict[str, str]]:
    """What a report of the run ``reference`` names shows (against the run ``against`` names,
    or against its suite's reference when ``baseline``), and the payload strings of every run
    read for it. RUN references resolve as every command resolves them, relative to ``cwd``."""
    reader = _Reader(archive, cwd)
    listed = reader.find(reference)
    previous = reader.previous(listed)
    suite_reference = reader.reference(listed)
    other: ArchivedRun | None = None
    if baseline:
        key = archive.baseline_of(listed.tenant, listed.suite)
        if suite_reference is None:
            raise RunNotFound(f"{key}: the baseline of {label(listed.suite_of)} is no archived run")
        other = suite_reference
    elif against is not None:
        other = reader.find(against)
    subject = Subject(
        run=reader.read(listed),
        other=reader.read(other) if other else None,
        role=diff_role(
            other.key,
            previous.key if previous else None,
            suite_reference.key if suite_reference else None,
        )
        if other
        else None,
        previous=previous.key if previous else None,
        reference=reader.read(suite_reference) if suite_reference else None,
        origin=_origin(archive),
    )
    return subject, reader.payload


def gather_suite(archive: Archive, suite: str) -> tuple[list[RedactedRun], dict[str, str], Origin]:
    """Every run of ``suite`` as a board reads them (redacted), the payload strings of each,
    and the archive's site."""
    reader = _Reader(archive, Path.cwd())
    listed, _ = archive.runs(suite)
    runs = [reader.read(run) for run in listed]
    return runs, reader.payload, _origin(archive)


def _origin(archive: Archive) -> Origin:
    return Origin(
        name=archive.config.site.name,
        language=archive.config.site.language,
        look=read_look(archive.layout.root / "mkdocs.yml"),
    )
