"""Fixtures only: where the shared corpus is, a CLI runner that behaves like the console, and a
real archive (a git repository made by ``runsite init``) in the test's folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from playwright.sync_api import Browser, sync_playwright

from generator.cli import cli
from tests.site._browser import CHROMIUM, FLAGS
from tests.suite._fake_provider import install

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

GIT_ENVIRONMENT = {
    "GIT_AUTHOR_NAME": "Runsite Tests",
    "GIT_AUTHOR_EMAIL": "tests@runsite.invalid",
    "GIT_AUTHOR_DATE": "2026-12-01T09:00:00+00:00",
    "GIT_COMMITTER_NAME": "Runsite Tests",
    "GIT_COMMITTER_EMAIL": "tests@runsite.invalid",
    "GIT_COMMITTER_DATE": "2026-12-01T09:00:00+00:00",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}
"""Commits made in tests have one author and one date, whoever runs them and on any machine."""


SLOW_FIXTURES = frozenset({"browser", "built"})
"""A test asking for the browser, or for the shared site build, is ``slow``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.fail(f"the shared corpus is missing at {CORPUS}")
    return CORPUS


@pytest.fixture
def runsite() -> Callable[..., Result]:
    """Run a runsite command as a user would, stderr kept apart from stdout."""

    def run(*args: str) -> Result:
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return run


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[[Any, str], Path]:
    """Write a JSON value to a file in the test's folder and return its path."""

    def write(value: Any, name: str = "run.json") -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(value), encoding="utf-8")
        return path

    return write


@contextmanager
def git_identity() -> Iterator[None]:
    """``GIT_ENVIRONMENT`` for the span of a fixture wider than one test."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in GIT_ENVIRONMENT.items():
            patch.setenv(name, value)
        yield


@pytest.fixture
def git_environment(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in GIT_ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("RUNSITE_CRASH_AT", raising=False)
    return GIT_ENVIRONMENT


@pytest.fixture
def archive(tmp_path: Path, runsite: Callable[..., Result], git_environment: Any) -> Path:
    """A fresh archive made by ``runsite init`` in its own git repository."""
    root = tmp_path / "archive"
    result = runsite("init", str(root))
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def fake_provider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test provider ``fake``, installed the way a package installs one: an entry point in
    the group ``runsite.providers``, found through a distribution's metadata on the path."""
    install(tmp_path / "installed")
    monkeypatch.syspath_prepend(str(tmp_path / "installed"))
    return "fake"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's chromium, driven by playwright: one for every browser test of the session, as
    playwright's synchronous API drives one at a time."""
    assert CHROMIUM.exists(), "the browser tests drive Debian's chromium: apt-get install chromium"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=FLAGS
        )
        yield launched
        launched.close()
