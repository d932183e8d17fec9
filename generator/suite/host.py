"""Where a run meets the world: the clock reading, the repository, the files. Everything the
runner needs from outside is read here and handed to it as values."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from generator.archive.untrusted import settings
from generator.document.model import Run
from generator.errors import SuiteRefused
from generator.suite.load import LoadedSuite, importing_from, load_suite
from generator.suite.replay import replay_caller, replayable
from generator.suite.runner import Setting, run_suite


def commit_of(folder: Path) -> str | None:
    """The commit of the repository holding ``folder``, ``-dirty`` when it has changes. The
    repository's configuration runs nothing while git tells (``untrusted``)."""
    import git

    try:
        repository = git.Repo(folder, search_parent_directories=True)
        commit = repository.head.commit.hexsha
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, ValueError):
        return None
    repository.git.set_persistent_git_options(c=list(settings(Path(repository.git_dir))))
    return f"{commit}-dirty" if repository.is_dirty(untracked_files=True) else commit


Clash = Callable[[str, str], tuple[str, str] | None]
"""Given a tenant and a suite, which of them the archive would refuse as another name already
there (``tenant`` or ``suite``), and why; ``Archive.clash``."""


def _loaded(path: Path, clash: Clash | None) -> LoadedSuite:
    """The suite at ``path``, refused when the archive would refuse its runs' names."""
    loaded = load_suite(path)
    found = clash(loaded.suite.tenant, loaded.suite.name) if clash else None
    if found:
        key, problem = found
        raise SuiteRefused(str(path), "[suite]", "name" if key == "suite" else key, problem)
    return loaded


def measure(
    path: Path,
    created_at: str,
    metadata: Mapping[str, str],
    progress: Callable[[int], Callable[[], None]] | None = None,
    concurrency: int = 1,
    clash: Clash | None = None,
) -> Run:
    """Load the suite at ``path``, run it, and return the run document.

    ``progress``, given the number of cases, returns what to call after each case;
    ``concurrency`` is how many calls (of the target or a judge) may be made at once;
    ``clash`` is the archive's word on the suite's names, asked before anything runs.
    """
    with importing_from(path.parent):
        loaded = _loaded(path, clash)
        setting = Setting(
            created_at=created_at,
            git_commit=commit_of(loaded.folder),
            judge_config=loaded.judge_config,
            metadata=dict(metadata),
            artifacts=loaded.artifacts,
            pricing=loaded.pricing,
        )
        tick = progress(len(loaded.suite.cases)) if progress else None
        return run_suite(
            loaded.suite, loaded.call, loaded.judges, setting, tick, concurrency=concurrency
        )


def rejudge(
    path: Path,
    stored: Run,
    created_at: str,
    metadata: Mapping[str, str],
    concurrency: int = 1,
    clash: Clash | None = None,
) -> Run:
    """Judge ``stored``'s recorded answers again with the suite at ``path``; call no target."""
    with importing_from(path.parent):
        loaded = _loaded(path, clash)
        suite = replayable(loaded.suite, stored)
        setting = Setting(
            created_at=created_at,
            git_commit=commit_of(loaded.folder),
            target_config=stored.target_config.model_dump(mode="json").get("values", {}),
            judge_config=loaded.judge_config,
            pricing=loaded.pricing,
            metadata=dict(metadata),
            artifacts={p: a.text for p, a in stored.artifacts.items() if a.text is not None},
        )
        return run_suite(
            suite,
            replay_caller(stored),
            loaded.judges,
            setting,
            rejudged_from=stored.key,
            concurrency=concurrency,
        )
