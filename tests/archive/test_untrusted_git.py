"""An archive received from someone else runs none of the programs its git configuration names:
not its hooks, not its file system monitor, not its filters, whatever runsite is asked to do."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from generator.suite.host import commit_of
from tests._helpers import a_run_at, git

HOOKS = (
    "post-index-change",
    "reference-transaction",
    "pre-commit",
    "post-commit",
    "post-checkout",
    "post-merge",
    "pre-auto-gc",
    "post-rewrite",
    "fsmonitor-watchman",
)


def _plant(repository: Path, tripwire: Path) -> None:
    """Give ``repository`` what a hostile archive's ``.git`` may carry: a program for every
    setting and hook that starts one, each leaving its name in ``tripwire`` when it runs."""
    program = repository.parent / "program.sh"
    program.write_text(f'#!/bin/sh\necho "$0 $*" >> {tripwire}\ncat\n', encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    hooks = repository / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in HOOKS:
        (hooks / hook).write_text(f"#!/bin/sh\n{program} hook {hook}\n", encoding="utf-8")
        (hooks / hook).chmod(0o755)
    (repository / ".git" / "info").mkdir(exist_ok=True)
    (repository / ".git" / "info" / "attributes").write_text(
        "* filter=planted diff=planted\n", encoding="utf-8"
    )
    for key, value in (
        ("core.fsmonitor", f"{program} fsmonitor"),
        ("filter.planted.clean", f"{program} clean"),
        ("filter.planted.smudge", f"{program} smudge"),
        ("filter.planted.process", f"{program} process"),
        ("filter.planted.required", "true"),
        ("diff.planted.textconv", f"{program} textconv"),
        ("log.showSignature", "true"),
        ("gpg.program", f"{program} gpg"),
    ):
        git(repository, "config", key, value)


@pytest.fixture
def received(runsite, archive, write_json, tmp_path) -> tuple[Path, Path]:
    """An archive of two runs with a planted ``.git``, copied as a tarball would bring it:
    every file new to the file system, so git cannot trust the stat data its index keeps."""
    for second in (1, 2):
        result = runsite("import", "--root", str(archive), str(write_json(a_run_at(second))))
        assert result.exit_code == 0, result.output
    tripwire = tmp_path / "tripwire"
    _plant(archive, tripwire)
    copy = tmp_path / "received" / "archive"
    shutil.copytree(archive, copy, symlinks=True)
    return copy, tripwire


def test_reading_an_archive_and_building_its_site_run_nothing_it_carries(
    runsite, received, tmp_path
):
    root, tripwire = received
    commands = [
        ("list",),
        ("show", "latest"),
        ("explain", "latest"),
        ("diff", "latest~1", "latest"),
        ("log",),
        ("baseline", "show"),
        ("migrate", "--dry-run"),
        ("report", "latest", "--out", str(tmp_path / "report.html")),
        ("build", "--out", str(tmp_path / "site")),
    ]
    for command in commands:
        result = runsite(*command, "--root", str(root))
        assert result.exit_code in (0, 2), (command, result.output)
    assert not tripwire.exists(), tripwire.read_text()


def test_commands_that_commit_run_nothing_it_carries_either(runsite, received, write_json):
    root, tripwire = received
    result = runsite("import", "--root", str(root), str(write_json(a_run_at(3))))
    assert result.exit_code == 0, result.output
    result = runsite("baseline", "set", "latest", "--root", str(root))
    assert result.exit_code == 0, result.output
    assert not tripwire.exists(), tripwire.read_text()
    assert len(runsite("list", "--root", str(root)).stdout.splitlines()) == 3
    assert (root / "runs" / "acme" / "support" / "baseline").is_file()


def test_the_commit_of_a_suites_repository_is_told_without_running_its_programs(received):
    root, tripwire = received
    (root / "runs" / "stray.txt").write_text("dirty", encoding="utf-8")
    assert commit_of(root) == git(root, "rev-parse", "HEAD").strip() + "-dirty"
    assert not tripwire.exists(), tripwire.read_text()
