"""The archive as the commands use it: each operation takes the lock, and changes commit once."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import git

from generator.archive import catalog
from generator.archive.admission import Admission, Arrival, admit
from generator.archive.catalog import ArchivedRun, Suite, label
from generator.archive.config import Config, config_text, read_config
from generator.archive.head import NO_IDENTITY, Change, Commit, has_identity, require_git
from generator.archive.layout import CONFIG, KEEP, Layout, checked_root, find_root
from generator.archive.names import Taken
from generator.archive.refs import pick_suite, resolve
from generator.archive.store import GitStore
from generator.document.codec import Decoded, read_run, run_bytes
from generator.document.model import SCHEMA, Run
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.errors import ArchiveRefused, DocumentRefused


@dataclass(frozen=True)
class Shown:
    """One run for ``show``: where it is, and its redacted view (never the full run)."""

    run: ArchivedRun
    redacted: RedactedRun
    baseline: bool


@dataclass(frozen=True)
class Moved:
    """Paths added, changed and removed between two states of a tree; true where any moved."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


@dataclass(frozen=True)
class Drift(Moved):
    """How the working tree under ``runs/`` differs from HEAD: paths relative to the root;
    ``added`` are not committed (untracked, or added to the index only)."""

    def __str__(self) -> str:
        counts = [
            (len(self.added), "file not committed", "files not committed"),
            (len(self.changed), "changed", "changed"),
            (len(self.removed), "removed", "removed"),
        ]
        said = ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in counts if n)
        return f"runs/ differs from HEAD ({said}); what HEAD holds is what is read"


@dataclass
class Migration:
    """What ``migrate`` did, or would do."""

    migrated: list[tuple[str, int]] = field(default_factory=list)
    """Archive paths rewritten, each with the schema it was at."""
    current: int = 0
    refused: list[DocumentRefused] = field(default_factory=list)
    commit: str | None = None


IGNORED = """# What a build leaves beside the archive: the site, its lock, a killed build's staging
# folder. (Its cache, .runsite/, ignores itself.)
/site/
/.site.runsite-lock
/.runsite-site-*/
"""
"""The ``.gitignore`` that ``init`` writes where the archive's folder has none."""

OWN_IDENTITY = ("runsite", "runsite@archive.invalid")
"""Whom a new archive's repository commits as where git knows nobody: its own configuration,
which ``git config user.name`` and ``user.email`` in the archive change."""


@dataclass(frozen=True)
class Started:
    """What ``init`` made besides the archive."""

    repository: bool
    """A git repository, where the folder was in none."""
    identity: str | None
    """The identity it gave that repository, where git knew none."""


def init_archive(folder: Path) -> Started:
    """Make ``folder`` an archive, and a git repository if it is in none.

    Where git knows no identity to commit as, a repository made here commits as the archive's
    own (``OWN_IDENTITY``), and one that was already there is refused. A refusal, or anything
    else that stops it, leaves nothing behind: neither the folder nor the repository it made."""
    require_git()
    if (folder / CONFIG).exists():
        raise ArchiveRefused(f"{folder / CONFIG}: already there; this folder is an archive")
    present = next(f for f in (folder, *folder.absolute().parents) if f.exists())
    if not present.is_dir():
        raise ArchiveRefused(f"{present}: not a folder, so {folder} cannot be an archive")
    try:
        git.Repo(present, search_parent_directories=True)
        created = False
    except git.InvalidGitRepositoryError:
        created = True
    if not created and not has_identity(present):
        raise ArchiveRefused(f"{folder}: {NO_IDENTITY}; nothing was made")
    missing = folder.absolute().relative_to(present.absolute()).parts
    made = present / missing[0] if missing else folder / ".git" if created else None
    try:
        return _started(folder, created)
    except BaseException:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        raise


def _started(folder: Path, created: bool) -> Started:
    folder.mkdir(parents=True, exist_ok=True)
    identity = None
    if created:
        repo = git.Repo.init(folder)
        if not has_identity(folder):
            name, email = OWN_IDENTITY
            with repo.config_writer() as config:
                config.set_value("user", "name", name)
                config.set_value("user", "email", email)
            identity = f"{name} <{email}>"
    layout = Layout(folder.resolve())
    store = GitStore(layout.root)
    with store.locked():
        branch = store.current_branch()
        changes: dict[str, bytes | None] = {
            store.path(layout.config): config_text(layout.root.name, branch).encode(),
            store.path(layout.runs / KEEP): b"",
        }
        if not os.path.lexists(layout.root / ".gitignore"):
            changes[store.path(layout.root / ".gitignore")] = IGNORED.encode()
        store.commit(changes, "Start a runsite archive\n")
    return Started(created, identity)


class Archive:
    """An archive: ``runsite.toml``, ``runs/``, and the git repository around them."""

    def __init__(self, root: Path) -> None:
        self.layout = Layout(checked_root(root).resolve())
        self.config: Config = read_config(self.layout.config)
        self.store = GitStore(self.layout.root, self.config.archive.branch)

    @classmethod
    def open(cls, root: Path | None, cwd: Path) -> Archive:
        """The archive at ``root``, or the nearest one at or above ``cwd``."""
        return cls(root if root is not None else find_root(cwd))

    def runs(self, suite: str | None = None) -> tuple[list[ArchivedRun], dict[Suite, str]]:
        """Every run (of ``suite``, if named), newest first, and each suite's reference key."""
        with self.store.reading():
            runs, baselines = self._committed()
        if suite is not None:
            picked = pick_suite(suite, (run.suite_of for run in runs))
            runs = [run for run in runs if run.suite_of == picked]
        return runs, baselines

    def show(self, ref: str, cwd: Path) -> Shown:
        """The run ``ref`` names, redacted under the archive's disclosure."""
        runs, baselines = self.runs()
        run = resolve(ref, runs, self.layout, cwd)
        reading = self.document(run)
        return Shown(
            run, redact(reading.run, self.config.disclosure), baselines.get(run.suite_of) == run.key
        )

    def check_branch(self) -> None:
        """Refuse now what a commit would refuse: HEAD is not on the archive's branch."""
        self.store.check_branch()

    def receive(
        self,
        arrivals: Iterable[Arrival],
        refused: Iterable[DocumentRefused],
        skip_invalid: bool,
        subject: str | None = None,
    ) -> Admission:
        """Archive documents in one commit (see ``admission``)."""
        with self.store.locked():
            return admit(self.layout, self.store, arrivals, refused, skip_invalid, subject)

    def keep(self, run: Run, source: str) -> Admission:
        """Archive a run runsite has just made, in one commit (refused if its key is taken)."""
        arrival = Arrival(source, run_bytes(run), Decoded(run, SCHEMA, ()))
        subject = f"{'Replay' if run.rejudged_from else 'Run'} {label((run.tenant, run.suite))}"
        done = self.receive([arrival], [], skip_invalid=False, subject=subject)
        if done.refused:
            raise done.refused[0]
        return done

    def clash(self, tenant: str, suite: str) -> tuple[str, str] | None:
        """What the door would say of a run of ``tenant``/``suite`` whose names are another
        already archived (``names.Taken``): which of the two, and why; None if neither is."""
        runs = self.store.path(self.layout.runs)
        with self.store.reading():
            names = Taken(self.store.tracked(runs), runs)
        for key, place, name in (("tenant", (), tenant), ("suite", (tenant,), suite)):
            problem = names.clash(place, name)
            if problem:
                return key, problem
        return None

    def read(self, ref: str, cwd: Path) -> Run:
        """The full run ``ref`` names, for a command that works inside the perimeter."""
        return self.document(resolve(ref, self.runs()[0], self.layout, cwd)).run

    def document(self, run: ArchivedRun) -> Decoded:
        """The document of ``run`` as HEAD holds it, read, migrated and validated."""
        try:
            return read_run(self.store.blob(run.blob))
        except DocumentRefused as refused:
            raise refused.located(run.path) from None

    def drift(self) -> Drift:
        """How the working tree under ``runs/`` differs from HEAD, which is what is read."""
        found: dict[str, list[str]] = {"added": [], "changed": [], "removed": []}
        with self.store.reading():
            changes = self.store.status(self.store.path(self.layout.runs))
        for status, place in changes:
            kind = "added" if status in ("??", "A ") else "removed" if "D" in status else "changed"
            found[kind].append(self._shown(place))
        return Drift(*(tuple(sorted(paths)) for paths in found.values()))

    def baseline_of(self, tenant: str, suite: str) -> str:
        """The key of a suite's reference run, or a refusal when it has none."""
        key = self.runs()[1].get((tenant, suite))
        if key is None:
            raise ArchiveRefused(
                f"{tenant}/{suite}: no baseline; runsite baseline set RUN makes one"
            )
        return key

    def set_baseline(self, ref: str, cwd: Path) -> tuple[ArchivedRun, str | None]:
        """Make the run ``ref`` names its suite's reference; the commit, None if it was already."""
        with self.store.locked():
            run = resolve(ref, self._committed()[0], self.layout, cwd)
            pointer = self.store.path(self.layout.baseline(run.tenant, run.suite))
            message = f"Set the baseline of {label(run.suite_of)} to {run.key}\n"
            return run, self.store.commit({pointer: f"{run.key}\n".encode()}, message)

    def baselines(self, suite: str | None) -> dict[Suite, str | None]:
        """Each suite's reference key, or ``suite``'s alone (None where it has none)."""
        runs, baselines = self.runs(suite)
        return {run.suite_of: baselines.get(run.suite_of) for run in runs}

    def clear_baseline(self, named: str) -> tuple[Suite, str | None]:
        """Forget a suite's reference; the commit, None if it had none."""
        with self.store.locked():
            suites = [run.suite_of for run in self._committed()[0]]
            suite = pick_suite(named, suites)
            pointer = self.store.path(self.layout.baseline(*suite))
            message = f"Clear the baseline of {label(suite)}\n"
            return suite, self.store.commit({pointer: None}, message)

    def migrate(self, dry_run: bool) -> Migration:
        """Rewrite every archived document older than schema 23 at 23, in one commit."""
        done = Migration()
        changes: dict[str, bytes | None] = {}
        with self.store.locked():
            for place, sha in sorted(self.store.tracked(self.store.path(self.layout.runs)).items()):
                if not place.endswith(".json"):
                    continue
                shown = self._shown(place)
                try:
                    reading = read_run(self.store.blob(sha))
                except DocumentRefused as refusal:
                    done.refused.append(refusal.located(shown))
                    continue
                if reading.declared_schema == SCHEMA:
                    done.current += 1
                    continue
                changes[place] = run_bytes(reading.run)
                done.migrated.append((shown, reading.declared_schema))
            if changes and not dry_run:
                count = len(changes)
                listing = "\n".join(shown for shown, _ in done.migrated)
                message = f"Migrate {count} run{'' if count == 1 else 's'} to schema {SCHEMA}\n\n{listing}\n"
                done.commit = self.store.commit(changes, message)
        return done

    def history(self) -> list[Commit]:
        """Every commit that changed ``runs/``, newest first, paths relative to the root."""
        with self.store.reading():
            commits = self.store.history(self.store.path(self.layout.runs))
        return [
            Commit(
                c.commit,
                c.date,
                c.subject,
                tuple(Change(ch.status, self._shown(ch.path)) for ch in c.changes),
            )
            for c in commits
        ]

    def _committed(self) -> tuple[list[ArchivedRun], dict[Suite, str]]:
        return catalog.committed(self.layout, self.store, self.config.limits)

    def _shown(self, place: str) -> str:
        """A path as git names it, as the archive names it (relative to the root)."""
        return self.layout.shown(self.store.top / place)
