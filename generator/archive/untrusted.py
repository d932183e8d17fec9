"""What an archive's own git configuration may not make runsite run.

An archive arrives as a tarball, a shared folder or a colleague's clone, and its ``.git`` comes
with it: hooks, and a ``config`` that can name programs git starts on its own. Reading an
archive or building its site must run none of them, so every git command runsite starts carries
``-c`` settings that take precedence over the repository's: no hooks (``post-index-change`` runs
on ``read-tree``, ``update-index`` and a refreshing ``status``; ``reference-transaction`` on
``update-ref``), no file system monitor (``core.fsmonitor`` names a program ``status`` runs), no
signature checks in ``log`` (``log.showSignature`` starts ``gpg.program``), and every filter
driver the configuration defines made empty (``status`` and ``update-index`` run a ``clean`` or
``process`` filter on any file whose attributes name it). ``git cat-file --batch`` runs none of
these, and is left as it is.

Signing runsite's own commits (``commit.gpgSign``) is the user's choice and is kept.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

SETTINGS = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "log.showSignature=false",
)
"""What no archive may turn on, whatever its configuration says."""

_FILTER_KEYS = ("clean", "smudge", "process")


def settings(git_dir: Path) -> tuple[str, ...]:
    """The settings, each for a ``-c``, that keep git from running anything ``git_dir``'s
    configuration names; its filter drivers are found by asking git, which follows the
    configuration's includes."""
    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "config", "-z", "--get-regexp", r"^filter\."],
        capture_output=True,
        check=False,
    ).stdout.decode("utf-8", errors="surrogateescape")
    drivers = sorted(
        {
            key.removeprefix("filter.").rpartition(".")[0]
            for key, _, _ in (entry.partition("\n") for entry in listing.split("\0") if entry)
        }
        - {""}
    )
    return (
        *SETTINGS,
        *(f"filter.{name}.{key}=" for name in drivers for key in _FILTER_KEYS),
        *(f"filter.{name}.required=false" for name in drivers),
    )


def git_options(git_dir: Path) -> tuple[str, ...]:
    """``settings`` as the options of a git command line."""
    return tuple(part for setting in settings(git_dir) for part in ("-c", setting))
