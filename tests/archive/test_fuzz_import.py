"""Fuzzing the importer: a batch of hostile documents is archived or refused, exit 0 or 64,
every line on stderr one of runsite's own, and the archive stays readable by every command
that lists, shows and explains it. 100 batches of 25: 2,500 generated documents and names."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.archive.names import folded, skeleton, unportable
from generator.cli import cli
from tests._hostile import arriving
from tests.conftest import git_identity


def _runsite(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert "Traceback" not in result.stderr, result.stderr
    assert all(line.startswith("runsite: ") for line in result.stderr.splitlines()), result.stderr
    return result


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One archive that every batch of the module arrives in, as a long-lived one would."""
    with git_identity():
        folder = tmp_path_factory.mktemp("fuzzed") / "archive"
        assert _runsite("init", str(folder)).exit_code == 0
        yield folder


@pytest.mark.slow
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(arriving(), min_size=25, max_size=25), st.booleans())
def test_a_hostile_batch_is_archived_or_refused_and_the_archive_stays_readable(
    root, batch, skip_invalid
):
    with tempfile.TemporaryDirectory() as incoming:
        for n, data in enumerate(batch):
            (Path(incoming) / f"run{n:02d}.json").write_bytes(data)
        flags = ["--skip-invalid"] if skip_invalid else []
        imported = _runsite("import", "--root", str(root), *flags, incoming)
    assert imported.exit_code in (0, 64), imported.output
    listed = _runsite("list", "--json", "--root", str(root))
    assert listed.exit_code == 0, listed.output
    _assert_one_name_each(json.loads(listed.stdout))
    if json.loads(listed.stdout):
        for command in (["show", "latest"], ["explain", "latest"]):
            shown = _runsite(*command, "--root", str(root))
            assert shown.exit_code in (0, 2), shown.output


def _assert_one_name_each(listed: list[dict[str, str]]) -> None:
    """What the door let in is a name on every file system, and no two names of one folder of
    runs/ fold to one name or look alike."""
    folders: dict[tuple[str, ...], set[str]] = {}
    for entry in listed:
        folders.setdefault((), set()).add(entry["tenant"])
        folders.setdefault((entry["tenant"],), set()).add(entry["suite"])
    for names in folders.values():
        assert [name for name in names if unportable(name)] == []
        assert len({folded(name) for name in names}) == len(names)
        assert len({skeleton(name) for name in names}) == len(names)
