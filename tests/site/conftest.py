"""One real archive and one real build, shared by the site's tests: this repository's own
runs, every digline document of the corpus, and a run with a marker in every payload field
and markup in a case id."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.cli import cli
from tests._helpers import a_planted_run
from tests.account.test_board import THREE
from tests.conftest import CORPUS, GIT_ENVIRONMENT, git_identity
from tests.site._browser import Hosted

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPT_CASE = "<script>alert(1)</script>"


def runsite(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def planted() -> dict[str, Any]:
    run = a_planted_run()
    run["suite"] = "planted"
    run["results"][1]["case_id"] = SCRIPT_CASE
    return run


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The archive, built once: its folder holds ``site/`` and ``runs/``."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in GIT_ENVIRONMENT.items():
            patch.setenv(name, value)
        root = tmp_path_factory.mktemp("archive")
        runsite("init", str(root))
        config = root / "runsite.toml"
        config.write_text(
            config.read_text() + 'tool_names = ["lookup_order", "refund"]\n', encoding="utf-8"
        )
        incoming = root.parent / "planted.json"
        incoming.write_text(json.dumps(planted()), encoding="utf-8")
        runsite(
            "import",
            "--root",
            str(root),
            str(REPOSITORY / "runs"),
            str(CORPUS / "digline"),
            str(incoming),
        )
        runsite("baseline", "set", "planted@latest", "--root", str(root))
        runsite("build", "--root", str(root), "--out", str(root / "site"))
        yield root


@pytest.fixture(scope="session")
def served(built: Path) -> Iterator[str]:
    handler = functools.partial(Hosted, directory=str(built / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def boarded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of three targets of ``support`` (and an older run of one), a fourth target
    whose run holds a marker in every payload field, and a suite of one target; built."""
    planted: dict[str, Any] = a_planted_run()
    planted["created_at"] = "2026-12-01T09:00:00+00:00"
    planted["target_config"] = {"values": {"model": "planted", "provider": "local"}}
    alone = a_planted_run() | {"suite": "alone"}
    with git_identity():
        root = tmp_path_factory.mktemp("boarded") / "archive"
        runsite("init", str(root))
        incoming = root.parent / "incoming"
        incoming.mkdir()
        for n, document in enumerate([*THREE, planted, alone]):
            (incoming / f"{n}.json").write_text(json.dumps(document), encoding="utf-8")
        runsite("import", "--root", str(root), str(incoming))
        runsite("build", "--root", str(root), "--out", str(root / "site"))
    return root / "site"
