"""The user's mkdocs.yml gives the site its look and nothing else: what would make a published
page fetch from outside, or run code at build time, is refused by name; text stays text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from tests._helpers import a_run

REFUSED = {
    "extra_javascript: [https://cdn.example.com/x.js]": "extra_javascript",
    "extra_css: [https://cdn.example.com/x.css]": "extra_css",
    "extra_css: 5": "extra_css",
    "hooks: [hooks.py]": "hooks",
    "INHERIT: base.yml": "INHERIT",
    "repo_url: https://github.com/acme/evals": "repo_url",
    "theme:\n  custom_dir: overrides": "theme.custom_dir",
    "theme:\n  logo: https://cdn.example.com/logo.png": "theme.logo",
    "theme:\n  logo: ../../etc/passwd": "theme.logo",
    "theme:\n  features: [navigation.instant]": "theme.features",
    "theme:\n  palette:\n    primary: 'red; background: url(x)'": "theme.palette.primary",
    "extra:\n  analytics:\n    provider: google\n    property: G-1": "extra.analytics",
    "plugins: [search]": "plugins",
    "site_url: javascript:alert(1)": "site_url",
    "copyright: [1, 2]": "copyright",
    "- a list": "not a mapping",
}


@pytest.fixture
def one_run(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
) -> Path:
    assert (
        runsite("import", "--root", str(archive), str(write_json(a_run(), "run.json"))).exit_code
        == 0
    )
    return archive


@pytest.mark.parametrize("text", REFUSED)
def test_a_setting_beyond_the_look_is_refused_by_name_and_nothing_is_built(
    one_run: Path, runsite: Callable[..., Result], text: str
):
    (one_run / "mkdocs.yml").write_text(text + "\n", encoding="utf-8")
    result = runsite("build", "--root", str(one_run), "--out", str(one_run / "site"))
    assert result.exit_code == 64, result.output
    assert result.stderr.count("\n") == 1
    assert f"mkdocs.yml: {REFUSED[text]}" in result.stderr
    assert not (one_run / "site").exists()


def test_a_mkdocs_yml_that_is_a_folder_is_refused_not_passed_over(
    one_run: Path, runsite: Callable[..., Result]
):
    (one_run / "mkdocs.yml").mkdir()
    result = runsite("build", "--root", str(one_run), "--out", str(one_run / "site"))
    assert (result.exit_code, result.stderr) == (
        64,
        f"runsite: {one_run / 'mkdocs.yml'}: not a file; it holds the site's look (or leave "
        "it out)\n",
    )
    assert not (one_run / "site").exists()


def test_text_of_the_look_stays_text_and_a_logo_beside_it_is_shipped(
    one_run: Path, runsite: Callable[..., Result]
):
    (one_run / "brand").mkdir()
    (one_run / "brand" / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    (one_run / "mkdocs.yml").write_text(
        "copyright: '<script>alert(1)</script> Acme'\n"
        "site_description: '\"><img src=x onerror=alert(1)>'\n"
        "theme:\n  logo: brand/logo.svg\n  palette:\n    - scheme: slate\n      primary: teal\n",
        encoding="utf-8",
    )
    result = runsite("build", "--root", str(one_run), "--out", str(one_run / "site"))
    assert result.exit_code == 0, result.output
    pages = list((one_run / "site").rglob("index.html"))
    assert len(pages) >= 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in text and "<img src=x" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt; Acme" in text
        assert "images/user/brand/logo.svg" in text
    assert (one_run / "site" / "images" / "user" / "brand" / "logo.svg").is_file()


@pytest.mark.parametrize("where", ["runs/site", "runs", "."])
def test_the_site_never_goes_in_or_around_the_runs_folder(
    one_run: Path, runsite: Callable[..., Result], where: str
):
    result = runsite("build", "--root", str(one_run), "--out", str(one_run / where))
    assert result.exit_code == 64
    assert "give --out another folder" in result.stderr
    assert runsite("list", "--root", str(one_run)).exit_code == 0
