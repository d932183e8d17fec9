"""runsite commits to the archive's branch only: on a detached HEAD, or on a branch other than
the one runsite.toml names, every command that would commit is refused in one line and nothing
is committed; reading works wherever HEAD is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._helpers import a_run_at, git

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _state(root: Path) -> tuple[str, str, str]:
    """Every ref, where HEAD points, and what the working tree holds beyond HEAD."""
    return (
        git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
        git(root, "rev-parse", "HEAD"),
        git(root, "status", "--porcelain", "--untracked-files=all"),
    )


def test_init_names_the_branch_it_starts_on_in_runsite_toml(archive):
    branch = git(archive, "symbolic-ref", "--short", "HEAD").strip()
    assert f'[archive]\nbranch = "{branch}"' in (archive / "runsite.toml").read_text()


@pytest.fixture
def detached(runsite, archive, write_json) -> Path:
    result = runsite("import", "--root", str(archive), str(write_json(a_run_at(1), "one.json")))
    assert result.exit_code == 0, result.output
    git(archive, "checkout", "-q", "--detach")
    return Path(archive)


def _commands(root: Path, incoming: Path) -> dict[str, list[str]]:
    return {
        "import": ["import", "--root", str(root), str(incoming)],
        "baseline set": ["baseline", "set", "latest", "--root", str(root)],
        "migrate": ["migrate", "--root", str(root)],
        "run": ["run", str(EXAMPLES / "classifier" / "suite.toml"), "--root", str(root)],
    }


@pytest.mark.parametrize("command", ["import", "baseline set", "run"])
def test_a_detached_head_refuses_every_command_that_commits(runsite, detached, write_json, command):
    incoming = write_json(a_run_at(2), "two.json")
    before = _state(detached)
    result = runsite(*_commands(detached, incoming)[command])
    assert result.exit_code == 64
    assert result.stdout == ""
    assert result.stderr == (
        f"runsite: {detached}: HEAD is detached, and runsite commits only to the archive's "
        "branch; check out master: nothing was committed\n"
    )
    assert _state(detached) == before


def test_reading_works_on_a_detached_head(runsite, detached):
    assert runsite("list", "--root", str(detached)).exit_code == 0
    assert runsite("show", "latest", "--root", str(detached)).exit_code == 0


def test_a_head_on_another_branch_refuses_the_import(runsite, archive, write_json):
    git(archive, "checkout", "-q", "-b", "experiment")
    incoming = write_json(a_run_at(1))
    before = _state(archive)
    result = runsite("import", "--root", str(archive), str(incoming))
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: {archive}: HEAD is on experiment, and runsite.toml keeps the archive on "
        "master; check out master: nothing was committed\n"
    )
    assert _state(archive) == before


def test_an_archive_that_names_no_branch_takes_any_branch_but_no_detached_head(
    runsite, archive, write_json
):
    config = archive / "runsite.toml"
    config.write_text(config.read_text().replace('[archive]\nbranch = "master"\n', ""))
    git(archive, "commit", "-qam", "no branch named")
    git(archive, "checkout", "-q", "-b", "experiment")
    result = runsite("import", "--root", str(archive), str(write_json(a_run_at(1), "one.json")))
    assert result.exit_code == 0, result.output
    git(archive, "checkout", "-q", "--detach")
    result = runsite("import", "--root", str(archive), str(write_json(a_run_at(2), "two.json")))
    assert result.exit_code == 64
    assert "HEAD is detached" in result.stderr
    assert "check out a branch: nothing was committed" in result.stderr
