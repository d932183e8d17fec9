"""The archive: run documents in a git-tracked ``runs/`` folder, one commit per command."""

from generator.archive.admission import Admission, Arrival
from generator.archive.archive import Archive, Drift, Migration, Shown, Started, init_archive
from generator.archive.catalog import ArchivedRun, Suite, label
from generator.archive.head import Commit

__all__ = [
    "Admission",
    "Archive",
    "ArchivedRun",
    "Arrival",
    "Commit",
    "Drift",
    "Migration",
    "Shown",
    "Started",
    "Suite",
    "init_archive",
    "label",
]
