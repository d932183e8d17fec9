"""What the archive's git repository holds at HEAD, read without changing it: the runs' tree
and their blobs, the working tree's status against HEAD, and the history of ``runs/``. How a
command changes the archive is ``store``'s.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import git

from generator.archive.untrusted import git_options
from generator.errors import ArchiveRefused

FILES = frozenset({"100644", "100755"})
"""The modes of regular files in a git tree (a link is 120000, a submodule 160000)."""
STATUS_INDEX = "runsite-status.index"
"""An index of runsite's own in the git dir, holding HEAD's entries, that ``status`` compares the
working tree with (see there)."""

_WINDOWS = ("-c", "core.packedGitLimit=4m", "-c", "core.packedGitWindowSize=512k")
"""What a listing of blobs' sizes may map of the packs at once. By default git maps a pack
whole: listing 10,000 runs' sizes held 197 MB (the pack), the peak of a full build's process
tree there; with 512 KB windows, 4 MB in all, it holds 10 MB, and takes 0.12 s, not 0.21."""


class Entry(NamedTuple):
    """An entry of a tree at HEAD."""

    mode: str
    sha: str
    size: int | None
    """A blob's bytes; None for a tree or a submodule."""


def blob_id(data: bytes) -> str:
    """The id git gives ``data`` as a blob, computed without asking git."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


@dataclass(frozen=True)
class Change:
    """One commit's effect on one path, as ``git log --name-status`` reports it."""

    status: str
    """``A`` added, ``M`` modified, ``D`` deleted."""
    path: str


@dataclass(frozen=True)
class Commit:
    """One commit of the archive's history."""

    commit: str
    date: str
    subject: str
    changes: tuple[Change, ...]


GIT_MISSING = (
    "git: not found on PATH; runsite keeps the archive in a git repository, so it needs git"
)


NO_IDENTITY = (
    "git has no identity to commit as; name one: git config --global user.name NAME, "
    "then git config --global user.email EMAIL"
)


def has_identity(folder: Path) -> bool:
    """Whether git, run in ``folder``, knows whom to record as a commit's author (its name and
    email, from the repository's configuration, the user's, or the environment)."""
    return all(
        subprocess.run(["git", "var", ident], cwd=folder, capture_output=True).returncode == 0
        for ident in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT")
    )


def require_git() -> None:
    """Refuse, in one line, to go on without a git to run."""
    if shutil.which(git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git") is None:
        raise ArchiveRefused(GIT_MISSING)


class GitHead:
    """The git repository whose working tree holds an archive, as a command reads it."""

    def __init__(self, folder: Path) -> None:
        require_git()
        try:
            self.repo = git.Repo(folder, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise ArchiveRefused(
                f"{folder}: not inside a git repository; runsite init makes one"
            ) from None
        if self.repo.working_tree_dir is None:
            raise ArchiveRefused(f"{folder}: a bare repository has no working tree for runs/")
        self.top = Path(self.repo.working_tree_dir).resolve()
        self.git_dir = Path(self.repo.git_dir).resolve()
        self._lock: int | None = None
        """The archive's lock, while this command holds it (``store.GitStore``): every git
        command inherits it, and ``status`` keeps an index of its own only under it."""
        self._options = git_options(self.git_dir)

    def path(self, absolute: Path) -> str:
        """``absolute`` (under a resolved root) as git names it: relative to the working tree."""
        return absolute.relative_to(self.top).as_posix()

    def current_branch(self) -> str | None:
        """The branch HEAD is on (it may have no commit yet); None when HEAD is detached."""
        head = self.repo.head
        return None if head.is_detached else str(head.ref.name)

    def head(self) -> str | None:
        """The commit HEAD names, or None on a branch with no commit yet."""
        try:
            return self._git("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except ArchiveRefused:
            return None

    def tree(self, prefix: str, sized: bool = True) -> dict[str, Entry]:
        """Every entry at HEAD below ``prefix``, each to its mode, object id and size (None
        unless ``sized``: git then finds each blob's size in its pack, 13 µs a blob, where the
        listing alone takes half a microsecond an entry)."""
        if self.head() is None:
            return {}
        sizes = ["-l"] if sized else []
        listing = self._git(
            "ls-tree", "-r", "-z", *sizes, "--full-tree", "HEAD", "--", prefix, config=_WINDOWS
        )
        found: dict[str, Entry] = {}
        for record in filter(None, listing.split("\0")):
            meta, path = record.split("\t", 1)
            mode, _, sha, *size = meta.split()
            found[path] = Entry(mode, sha, int(size[0]) if size and size[0].isdigit() else None)
        return found

    def sizes(self, blobs: Collection[str]) -> dict[str, int]:
        """The bytes of each of ``blobs`` (37 µs a blob: for a few, not a whole tree's)."""
        asked = "".join(f"{blob}\n" for blob in blobs).encode()
        said = self._git("cat-file", "--batch-check=%(objectname) %(objectsize)", stdin=asked)
        found = (line.split() for line in said.splitlines())
        return {words[0]: int(words[1]) for words in found if words[1:2] and words[1].isdigit()}

    def tracked(self, prefix: str) -> dict[str, str]:
        """Every regular file at HEAD below ``prefix``, each to its blob id."""
        return {path: entry.sha for path, entry in self.tree(prefix).items() if entry.mode in FILES}

    def status(self, prefix: str) -> list[tuple[str, str]]:
        """How the working tree below ``prefix`` differs from HEAD, as ``git status
        --porcelain`` says it: (two-letter status, path), untracked files included.

        git tells a file unchanged without reading it by the stat data its index keeps. In a
        copied checkout (a container's, a restored cache's) none of it is the files' own, and a
        status that may not write the index (the real one is the user's, and a concurrent git
        command of theirs would find it locked) read every document again at every build: 1.2 s
        at 1,000 runs. So, while the archive's lock is held, status compares the working tree
        with ``STATUS_INDEX``, HEAD's entries in an index of runsite's own, and git keeps the
        stat data there: read once after a copy, then never again. Without the lock (a
        read-only archive) it reads the real index and writes nothing."""
        index = self._status_index()
        env = {"GIT_INDEX_FILE": str(index)} if index else {"GIT_OPTIONAL_LOCKS": "0"}
        text = self._git(
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignore-submodules=all",
            "--",
            prefix,
            env=env,
        )
        records = iter(text.split("\0"))
        found = []
        for record in records:
            if record:
                found.append((record[:2], record[3:]))
                if record[0] in "RC":
                    next(records)  # a rename's or a copy's source
        return found

    def _status_index(self) -> Path | None:
        """``STATUS_INDEX`` made to hold HEAD's entries, keeping the stat data it has of those
        HEAD did not change (``read-tree -m``), first seeded from the real index; None without
        the lock, or where it cannot be written. Its ``.lock`` can only be a killed holder's."""
        if self._lock is None:
            return None
        index = self.git_dir / STATUS_INDEX
        env = {"GIT_INDEX_FILE": str(index)}
        try:
            index.with_name(f"{STATUS_INDEX}.lock").unlink(missing_ok=True)
            if not index.exists() and (self.git_dir / "index").exists():
                seed = index.with_name(f"{STATUS_INDEX}.seed")
                shutil.copyfile(self.git_dir / "index", seed)
                os.replace(seed, index)
            if self.head() is None:
                self._git("read-tree", "--empty", env=env)
                return index
            try:
                self._git("read-tree", "-m", "HEAD", env=env)
            except ArchiveRefused:  # a damaged index, or a seed in the middle of a merge
                index.unlink()
                self._git("read-tree", "HEAD", env=env)
        except (OSError, ArchiveRefused):
            return None
        return index

    def blob(self, sha: str) -> bytes:
        """The bytes of a stored blob."""
        data: bytes = self.repo.odb.stream(bytes.fromhex(sha)).read()
        return data

    def history(self, prefix: str) -> list[Commit]:
        """Every commit that changed something below ``prefix``, newest first."""
        if self.head() is None:
            return []
        text = self._git(
            "-c",
            "core.quotePath=false",
            "log",
            "--format=%x1e%H%x1f%cI%x1f%s",
            "--name-status",
            "--",
            prefix,
        )
        commits = []
        for block in filter(None, text.split("\x1e")):
            header, _, body = block.partition("\n")
            sha, date, subject = header.split("\x1f")
            changes = tuple(
                Change(status[0], path)
                for status, path in (line.split("\t", 1) for line in body.splitlines() if line)
            )
            commits.append(Commit(sha, date, subject, changes))
        return commits

    def _git(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
        config: Sequence[str] = (),
    ) -> str:
        """Run git in the working tree, with nothing the archive's configuration names run
        (``untrusted``) and ``config`` (``-c`` options) given; a failure becomes one line
        naming the command."""
        options: dict[str, Any] = {"env": env, "pass_fds": (self._lock,) if self._lock else ()}
        command = ["git", *self._options, *config, *args]
        try:
            if stdin is None:
                return str(self.repo.git.execute(command, **options))
            with tempfile.TemporaryFile() as source:
                source.write(stdin)
                source.seek(0)
                return str(self.repo.git.execute(command, istream=source, **options))
        except git.GitCommandError as error:
            said = str(error.stderr).strip().strip("'").strip().splitlines()
            reason = said[-1].removeprefix("stderr: ").strip() if said else f"exit {error.status}"
            raise ArchiveRefused(f"{self.top}: git {args[0]}: {reason}") from None
