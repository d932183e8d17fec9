"""Names come from documents anyone can hand over: a tenant, a suite or an environment made of
markup is text on every page, in the navigation and the titles as much as in the body."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from tests._helpers import a_run

INJECTED = '"><img src=x onerror=alert(1)>'


def test_a_tenant_suite_and_environment_of_markup_are_text_on_every_page(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    run = a_run(tenant=INJECTED, suite=f"s{INJECTED}", environment=f"e{INJECTED}")
    assert (
        runsite("import", "--root", str(archive), str(write_json(run, "run.json"))).exit_code == 0
    )
    built = runsite("build", "--root", str(archive), "--out", str(archive / "site"))
    assert built.exit_code == 0, built.output
    pages = list((archive / "site").rglob("*.html"))
    assert len(pages) >= 6
    for page in pages:
        assert "<img src=x" not in page.read_text(encoding="utf-8"), page
    home = (archive / "site" / "index.html").read_text(encoding="utf-8")
    assert "&#34;&gt;&lt;img src=x" in home or "&quot;&gt;&lt;img src=x" in home
