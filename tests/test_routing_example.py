"""``examples/routing/``: the suite run against each of its service's three models, by the CLI
over a real archive, gives the board its README describes."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "routing"
BIN = Path(sys.executable).parent
MODELS = ("router-mini", "router-base", "router-large")

_spec = importlib.util.spec_from_file_location("routing_service", EXAMPLE / "service.py")
assert _spec is not None and _spec.loader is not None
service = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(service)


@contextmanager
def deployed(model: str) -> Iterator[int]:
    """The example's service running ``model`` on a free port, for the length of the block."""
    server = service.server(model, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def runsite(root: Path, *args: str) -> str:
    done = subprocess.run(
        [BIN / "runsite", *args], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive holding one run of the example per model, its suite on the service's port."""
    root = tmp_path_factory.mktemp("routing")
    runsite(root, "init", ".")
    suite = root / "routing"
    shutil.copytree(EXAMPLE, suite, ignore=shutil.ignore_patterns("__pycache__"))
    written = (suite / "suite.toml").read_text()
    for model in MODELS:
        with deployed(model) as port:
            (suite / "suite.toml").write_text(written.replace(":18770/", f":{port}/"))
            runsite(root, "run", "routing/suite.toml")
    return root


def test_the_board_puts_the_three_models_side_by_side_as_the_readme_says(archive: Path):
    board = json.loads(runsite(archive, "board", "acme/ticket-routing", "--json"))
    by_label = {t["label"]: t for t in board["targets"]}
    assert list(by_label) == [f"acme-llm/{m}" for m in reversed(MODELS)]
    routed = {m: by_label[f"acme-llm/{m}"]["checks"]["routed_right"] for m in MODELS}
    assert {m: s["passed"] for m, s in routed.items()} == {
        "router-mini": 13,
        "router-base": 20,
        "router-large": 25,
    }
    assert routed["router-large"]["best"]
    assert routed["router-base"]["tied_with_best"]
    assert routed["router-base"]["mcnemar"]["p_holm"] == pytest.approx(0.0625)
    assert not routed["router-mini"]["tied_with_best"]
    assert routed["router-mini"]["mcnemar"]["p_holm"] < 0.05
    assert all(t["pareto"] for t in board["targets"])
    costs = [by_label[f"acme-llm/{m}"]["cost_per_case_usd"] for m in MODELS]
    latencies = [by_label[f"acme-llm/{m}"]["latency_ms"] for m in MODELS]
    assert costs == sorted(costs) and latencies == sorted(latencies)
    assert None not in costs and None not in latencies
    well_formed = by_label["acme-llm/router-mini"]["checks"]["well_formed"]
    assert well_formed["failed"] > 0


def test_the_site_gives_the_suite_a_board_in_both_languages(archive: Path):
    runsite(archive, "build", "--out", "site")
    for language in ("", "it/"):
        page = archive / "site" / language / "boards" / "acme" / "ticket-routing" / "index.html"
        text = page.read_text()
        assert all(f"acme-llm/{m}" in text for m in MODELS)
        suite_page = (
            archive / "site" / language / "suites" / "acme" / "ticket-routing" / "index.html"
        )
        suite_text = suite_page.read_text()
        assert "boards/acme/ticket-routing/" in suite_text
        # The models disagree on twelve cases, but no model went both ways: none is flaky.
        assert 'class="flaky"' not in suite_text
