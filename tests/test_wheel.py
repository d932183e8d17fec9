"""runsite as a user installs it: the wheel, not this checkout, builds a site.

The wheel is built from the checkout and installed into a fresh virtual environment of its
own; its dependencies come from the test environment's site-packages, added to the path
without the checkout (whose editable install is not carried along). The archive lives outside
the checkout, so nothing there can stand in for what the wheel forgot to ship.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

from tests.conftest import CORPUS, GIT_ENVIRONMENT

pytestmark = pytest.mark.slow
"""Each test drives a browser or builds whole sites: ``make test-fast`` leaves them out."""

REPOSITORY = Path(__file__).resolve().parents[1]


def test_the_installed_wheel_builds_a_site_from_an_archive_outside_the_checkout(tmp_path: Path):
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            str(REPOSITORY),
            "-w",
            str(wheels),
        ],
        check=True,
        cwd=tmp_path,
    )
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=False)
    python = environment / "bin" / "python"
    installed = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    wheel = next(wheels.glob("runsite-*.whl"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(installed),
            str(wheel),
        ],
        check=True,
    )
    (installed / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    archive = tmp_path / "archive"
    env = {**os.environ, **GIT_ENVIRONMENT}

    def runsite(*args: str) -> subprocess.CompletedProcess[str]:
        command = [str(python), "-c", "from generator.cli import main; main()", *args]
        return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)

    located = subprocess.run(
        [str(python), "-c", "import generator; print(generator.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert located.startswith(str(installed)), located
    assert runsite("init", str(archive)).returncode == 0
    runs = [
        CORPUS / "digline-local" / "baseline-support__promoted-from-run1.json",
        CORPUS
        / "digline-local"
        / "run2-changed__2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169.json",
    ]
    for run in runs:  # the second build is incremental: its kept pages' check runs installed too
        imported = runsite("import", "--root", str(archive), str(run))
        assert imported.returncode == 0, imported.stderr
        built = runsite("build", "--root", str(archive), "--out", str(tmp_path / "site"))
        assert built.returncode == 0, built.stderr
    assert "(4 written, " in built.stdout, built.stdout
    pages = list((tmp_path / "site" / "runs").rglob("index.html"))
    assert len(pages) == 2 and all("md-header" in page.read_text() for page in pages)
    assert (tmp_path / "site" / "javascripts" / "plotly-basic.min.js").is_file()


def test_every_folder_of_the_package_is_listed_for_the_wheel():
    listed = set(
        tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    folders = {
        ".".join(path.parent.relative_to(REPOSITORY).parts)
        for path in (REPOSITORY / "generator").rglob("*.py")
    }
    assert folders <= listed
