"""The pages branch, written with git's plumbing as ``ghp-import`` writes it, not by
``ghp-import`` itself: the same commands the archive's own commits go through, run with the
settings that keep an archive's configuration from making git start a program (hooks, a file
system monitor, filters: ``archive.untrusted``), where ``ghp-import`` would run the pre-push
hook and commits again when nothing changed.

A publish compares the site with the tree at the branch's tip (the remote's, when it goes to a
remote) and stops there when they are the same. Otherwise it stores the blobs that are new
(``git fast-import``), builds the tree in an index of its own (the archive's index and working
tree are never touched), and makes one commit whose parent is that tip, so the branch keeps its
history. In the archive's repository the branch then moves with one ``update-ref`` that checks
it still was at that tip; to a remote, the commit is pushed without force, so a branch someone
else moved meanwhile refuses it.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.archive.head import NO_IDENTITY, blob_id, has_identity
from generator.archive.store import NO_COMMIT, GitStore
from generator.archive.untrusted import git_options
from generator.deploy.content import Difference, PublishRefused, difference

FILE = "100644"


@dataclass(frozen=True)
class Delivered:
    """What a publish did, or would do."""

    where: str
    """The branch, and the remote it went to (``origin/gh-pages``)."""
    difference: Difference
    commit: str | None
    """The commit made; None when the site did not change, or in a dry run."""


class Pages:
    """The branch the site goes on: in the archive's repository, or in one of its remotes."""

    def __init__(self, store: GitStore, branch: str, remote: str | None, dry_run: bool) -> None:
        self.top = store.top
        self.branch = branch
        self.remote = remote
        self.dry_run = dry_run
        self._options = git_options(store.git_dir)
        named = self._run("check-ref-format", "--branch", branch)
        if branch.startswith("-") or named.returncode:
            raise PublishRefused(f"--branch {branch}: not a name git takes for a branch")
        if branch in {store.branch, store.current_branch()}:
            raise PublishRefused(
                f"--branch {branch}: the archive's own branch; the site goes on another (gh-pages)"
            )
        if remote is not None and (
            remote.startswith("-") or self._run("remote", "get-url", remote).returncode
        ):
            raise PublishRefused(
                f"--remote {remote}: no such remote in {self.top} (git remote -v lists them)"
            )
        if not dry_run and not has_identity(self.top):
            raise PublishRefused(f"{self.top}: {NO_IDENTITY}; nothing was published")

    @property
    def where(self) -> str:
        return self.branch if self.remote is None else f"{self.remote}/{self.branch}"

    def publish(self, files: Mapping[str, bytes], message: str) -> Delivered:
        """Put ``files`` (path in the site to bytes) on the branch, in one commit with
        ``message``, where they are not what its tip holds already."""
        tip = self._tip()
        wanted = {path: f"{FILE} {blob_id(data)}" for path, data in files.items()}
        moved = difference(wanted, self._tree(tip) if tip else {})
        if not moved or self.dry_run:
            return Delivered(self.where, moved, None)
        fresh = {*moved.added, *moved.changed}
        stream = b"".join(
            b"blob\ndata %d\n%s\n" % (len(data), data)
            for path, data in sorted(files.items())
            if path in fresh
        )
        if stream:
            self._git("fast-import", "--quiet", stdin=stream)
        with tempfile.TemporaryDirectory(prefix="runsite-pages-") as scratch:
            index = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
            self._git("read-tree", "--empty", env=index)
            records = "".join(f"{entry}\t{path}\0" for path, entry in sorted(wanted.items()))
            self._git("update-index", "-z", "--index-info", stdin=records.encode(), env=index)
            tree = self._git("write-tree", env=index)
        parents = ["-p", tip] if tip else []
        commit = self._git("commit-tree", tree, *parents, stdin=message.encode())
        ref = f"refs/heads/{self.branch}"
        if self.remote is None:
            self._git("update-ref", "-m", "runsite publish", ref, commit, tip or NO_COMMIT)
        else:
            self._git("push", "--quiet", self.remote, f"{commit}:{ref}")
        return Delivered(self.where, moved, commit)

    def _tip(self) -> str | None:
        """The commit the branch is at (the remote's, fetched), None where there is none."""
        ref = f"refs/heads/{self.branch}"
        if self.remote is None:
            found = self._run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
            return found.stdout.decode().strip() or None
        if not self._git("ls-remote", "--heads", self.remote, ref):
            return None
        self._git("fetch", "--quiet", "--no-tags", self.remote, ref)
        return self._git("rev-parse", "--verify", "FETCH_HEAD^{commit}")

    def _tree(self, commit: str) -> dict[str, str]:
        """Every file of ``commit``'s tree: its path to its mode and blob id."""
        listing = self._git("ls-tree", "-r", "-z", "--full-tree", commit)
        found = {}
        for record in filter(None, listing.split("\0")):
            meta, path = record.split("\t", 1)
            mode, _, sha = meta.split()
            found[path] = f"{mode} {sha}"
        return found

    def _run(
        self, *args: str, stdin: bytes | None = None, env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            ["git", *self._options, *args],
            cwd=self.top,
            input=stdin,
            capture_output=True,
            env={**os.environ, **env} if env else None,
        )

    def _git(
        self, *args: str, stdin: bytes | None = None, env: Mapping[str, str] | None = None
    ) -> str:
        """Run git, its output; a failure refused in one line naming the command."""
        done = self._run(*args, stdin=stdin, env=env)
        if done.returncode:
            said = done.stderr.decode(errors="replace").strip().splitlines()
            reason = said[-1] if said else f"exit {done.returncode}"
            raise PublishRefused(
                f"{self.top}: git {args[0]}: {reason}; nothing was published to {self.where}"
            )
        return done.stdout.decode(errors="surrogateescape").strip()
