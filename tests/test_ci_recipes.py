"""The CI recipes of ``examples/ci/``: each valid by its service's own schema, and the GitHub
workflow's shell steps, run as the runner runs them, against a stub model on 127.0.0.1."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests._helpers import git
from tests.suite._model_api import serving

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RECIPES = EXAMPLES / "ci"
BIN = Path(sys.executable).parent

STEP_OUTPUT = re.compile(r"\$\{\{ steps\.(\w+)\.outputs\.(\w+) \}\}")
"""An expression a step's ``env`` reads another step's output with."""

SHELL_STEPS = ("evaluate", "summary", "publish", "verdict")
"""The workflow's steps that run runsite, in order; the others install it, or call GitHub."""


@pytest.mark.parametrize(
    ("recipe", "schema"),
    [("github-actions.yml", "vendor.github-workflows"), ("gitlab-ci.yml", "vendor.gitlab-ci")],
)
def test_each_recipe_is_valid_by_its_services_schema(recipe: str, schema: str):
    checked = subprocess.run(
        [BIN / "check-jsonschema", "--builtin-schema", schema, RECIPES / recipe],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _archive(tmp_path: Path, url: str) -> tuple[Path, Path]:
    """A repository holding an archive and the local-model suite pointed at ``url``, pushed to
    a bare ``origin``, and its clone: what the workflow's checkout gives it."""
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(origin)], check=True)
    source = tmp_path / "source"
    subprocess.run(["git", "init", "--quiet", "--initial-branch", "main", str(source)], check=True)
    subprocess.run([BIN / "runsite", "init", str(source)], check=True, capture_output=True)
    shutil.copytree(EXAMPLES / "local-model", source / "evals")
    suite = source / "evals" / "suite.toml"
    suite.write_text(suite.read_text().replace("http://127.0.0.1:11434", url))
    git(source, "add", "evals")
    git(source, "commit", "--quiet", "--message", "The suite")
    git(source, "push", "--quiet", str(origin), "HEAD:refs/heads/main")
    checkout = tmp_path / "checkout"
    subprocess.run(
        ["git", "clone", "--quiet", "--branch", "main", str(origin), str(checkout)], check=True
    )
    return origin, checkout


def _given(env: dict[str, str], outputs: dict[str, str]) -> dict[str, str]:
    """A step's ``env`` as the runner gives it, the earlier steps' ``outputs`` read into it; a
    secret is the test's to give, or none."""
    return {
        key: STEP_OUTPUT.sub(lambda found: outputs[found[2]], value)
        for key, value in env.items()
        if "secrets." not in value
    }


def _outputs(path: Path) -> dict[str, str]:
    lines = path.read_text().splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines)


@pytest.mark.slow
def test_the_workflows_steps_run_the_suite_commit_publish_and_write_the_job_summary(
    tmp_path: Path, git_environment: dict[str, str]
):
    workflow = yaml.safe_load((RECIPES / "github-actions.yml").read_text())
    steps = {step["id"]: step for step in workflow["jobs"]["evaluate"]["steps"] if "id" in step}
    assert tuple(steps) == SHELL_STEPS
    summary = tmp_path / "summary.md"
    with serving() as api:
        origin, checkout = _archive(tmp_path, api.url)
        outputs: dict[str, str] = {}
        for name in SHELL_STEPS:
            step = steps[name]
            given = _given(step.get("env", {}), outputs)
            environment = {
                **os.environ,
                **workflow["env"],
                **given,
                "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
                "SUITE": "evals/suite.toml",
                "OPENAI_BASE_URL": f"{api.url}/v1",
                "GITHUB_OUTPUT": str(tmp_path / f"{name}.out"),
                "GITHUB_STEP_SUMMARY": str(summary),
                "GITHUB_SHA": git(checkout, "rev-parse", "HEAD").strip(),
            }
            ran = subprocess.run(
                ["bash", "-e", "-c", step["run"]],
                cwd=checkout,
                env=environment,
                capture_output=True,
                text=True,
                check=False,
            )
            assert ran.returncode == 0, f"{name}: {ran.stdout}{ran.stderr}"
            outputs |= _outputs(tmp_path / f"{name}.out")
    assert outputs["status"] == "0"
    written = summary.read_text()
    assert written.startswith("### ✓ `acme` · `tutor` · ")
    assert "12 passed, 0 failed, 0 not judged" in written
    assert f"runs/acme/tutor/{outputs['key']}.json" in git(origin, "ls-tree", "-r", "main")
    assert ".nojekyll" in git(origin, "ls-tree", "--name-only", "gh-pages")
