"""The bench (``bench/shape.py``) makes its archives without ``runsite import`` (an hour at
10,000 runs): what it makes must be what ``runsite import`` makes of the same runs, or its
figures would be of another archive; and each bench must start from the archive as it was
made."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from generator.document.codec import canonical
from tests._helpers import git

pytestmark = pytest.mark.slow

REPOSITORY = Path(__file__).resolve().parents[2]
COUNT = 12
"""Three runs of each of the bench's four suites."""


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """``bench/shape.py``, registered under its name, as its worker processes find their work
    by it."""
    spec = importlib.util.spec_from_file_location("bench_shape", REPOSITORY / "bench" / "shape.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _state(root: Path) -> dict[str, object]:
    """What an archive is, as git and runsite keep it: its commits' trees, its index, its
    working tree, and runsite's files in its git dir."""
    return {
        "trees": [git(root, "ls-tree", "-r", commit) for commit in ("HEAD~1", "HEAD")],
        "commits": git(root, "rev-list", "--count", "HEAD"),
        "index": git(root, "ls-files", "--stage"),
        "status": git(root, "status", "--porcelain", "--ignored", "--untracked-files=all"),
        "files": sorted(
            path.relative_to(root).as_posix()
            for path in root.rglob("*")
            if path.is_file() and ".git" not in path.relative_to(root).parts
        ),
        "git dir": sorted(path.name for path in (root / ".git").glob("runsite*")),
    }


def test_the_bench_makes_the_archive_runsite_import_makes(
    bench, tmp_path, runsite, git_environment
):
    made = tmp_path / "made" / "archive"
    bench.make_archive(made, COUNT)
    imported = tmp_path / "imported" / "archive"
    assert runsite("init", str(imported)).exit_code == 0
    incoming = tmp_path / "incoming"
    incoming.mkdir()
    for n in range(COUNT):
        (incoming / f"run{n:02d}.json").write_bytes(canonical(bench.run_document(n)))
    result = runsite("import", "--root", str(imported), str(incoming))
    assert result.exit_code == 0, result.output
    assert _state(made) == _state(imported)
    assert len(list((made / "runs").glob("acme/*/*.json"))) == COUNT


def test_a_kept_archive_is_settled_back_to_how_it_was_made(
    bench, tmp_path, runsite, git_environment
):
    root = tmp_path / "kept" / "archive"
    bench.make_archive(root, COUNT)
    made = _state(root)
    incoming = tmp_path / "one-more.json"
    incoming.write_bytes(canonical(bench.run_document(COUNT)))
    assert runsite("import", "--root", str(root), str(incoming)).exit_code == 0
    assert runsite("build", "--root", str(root), "--out", str(root / "site")).exit_code == 0
    assert runsite("list", "--root", str(root)).exit_code == 0
    assert (root / ".runsite").is_dir() and (root / "site").is_dir()
    caches = {path.name for path in (root / ".git").glob("runsite-*")}
    assert {"runsite-catalog.json", "runsite-status.index"} <= caches
    bench.settle(root)
    assert _state(root) == made
