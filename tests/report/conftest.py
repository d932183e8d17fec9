"""One real archive shared by the report's tests: the corpus's recorded pair (run 2 worse than
run 1, its baseline), a run with a marker in every payload field and markup in a case id, and
two runs of the bench's shape (30 cases × 6 checks × 5 samples, with trajectories)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from generator.cli import cli
from tests._helpers import a_run_at, archived_past_the_door
from tests.conftest import CORPUS, git_identity
from tests.site.conftest import planted

REPOSITORY = Path(__file__).resolve().parents[2]
PAIR = CORPUS / "digline-local"
RUN1 = "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169"
RUN2 = "2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169"
WORSE = {
    ("waterproof", "contains"),
    ("waterproof", "llm_rubric"),
    ("invoice", "contains"),
    ("invoice", "llm_rubric"),
}
"""The four checks of the recorded pair that got worse (its README, and digline's report)."""
SITE_URL = "https://evals.example.org/acme/"
HOSTILE = "\"'><img src=x onerror=alert(1)>"
"""Markup and quotes in a tenant's and a suite's name (which hold no slash): they reach the
page's HTML, its title and the CSS string of its printed header."""


def bench_run(n: int) -> dict[str, Any]:
    """The bench's ``n``-th run (``bench/shape.py``), in a suite of its own."""
    spec = importlib.util.spec_from_file_location("bench_shape", REPOSITORY / "bench" / "shape.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    run: dict[str, Any] = module.run_document(n)
    run["suite"] = "bench"
    return run


def runsite(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="session")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The archive, made once; each test leaves it as it found it."""
    with git_identity():
        root = tmp_path_factory.mktemp("reported") / "archive"
        assert runsite("init", str(root)).exit_code == 0
        incoming = root.parent / "incoming"
        incoming.mkdir()
        marked = planted() | {"created_at": "2026-11-30T08:00:00.000000+00:00"}
        (incoming / "planted.json").write_text(json.dumps(marked), encoding="utf-8")
        for n in (0, 4):
            (incoming / f"bench-{n}.json").write_text(json.dumps(bench_run(n)), encoding="utf-8")
        imported = runsite(
            "import",
            "--root",
            str(root),
            str(PAIR / f"run1-baseline-candidate__{RUN1}.json"),
            str(PAIR / f"run2-changed__{RUN2}.json"),
            str(incoming),
        )
        assert imported.exit_code == 0, imported.output
        # The door refuses a folder name holding < > or " (Windows does): an older runsite
        # let markup names in, and its archive still holds them.
        archived_past_the_door(root, [a_run_at(3, tenant=f"t{HOSTILE}", suite=f"s{HOSTILE}")])
        assert runsite("baseline", "set", RUN1, "--root", str(root)).exit_code == 0
        yield root


@pytest.fixture
def report(archive: Path) -> Callable[..., Result]:
    """``runsite report`` in the shared archive."""

    def run(*args: str) -> Result:
        return runsite("report", "--root", str(archive), *args)

    return run


@contextmanager
def look(archive: Path, text: str) -> Iterator[None]:
    """The archive's ``mkdocs.yml`` says ``text`` for the span of the block."""
    path = archive / "mkdocs.yml"
    path.write_text(text, encoding="utf-8")
    try:
        yield
    finally:
        path.unlink()
