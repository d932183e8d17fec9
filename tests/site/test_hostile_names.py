"""Names come from documents anyone can hand over: a tenant, a suite or an environment made of
markup is text on every page, in the navigation and the titles as much as in the body."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from tests._helpers import a_run

INJECTED = '"><img src=x onerror=alert(1)>'
QUOTED = "t' onmouseover='alert(1)"
"""A folder name cannot hold ``<``, ``>`` or ``"`` (Windows refuses them): a tenant's markup can
only break out of an attribute in single quotes, or be an entity a page decodes."""
ENTITY = "s&lt;img src=x onerror=alert(1)&gt;"


def test_a_tenant_suite_and_environment_of_markup_are_text_on_every_page(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    run = a_run(tenant=QUOTED, suite=ENTITY, environment=f"e{INJECTED}")
    assert (
        runsite("import", "--root", str(archive), str(write_json(run, "run.json"))).exit_code == 0
    )
    built = runsite("build", "--root", str(archive), "--out", str(archive / "site"))
    assert built.exit_code == 0, built.output
    pages = list((archive / "site").rglob("*.html"))
    assert len(pages) >= 6
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<img src=x" not in text, page
        assert "' onmouseover='" not in text, page
        assert ENTITY not in text, page
    home = (archive / "site" / "index.html").read_text(encoding="utf-8")
    assert "s&amp;lt;img src=x" in home
    assert "t&#39; onmouseover=&#39;alert(1)" in home or "t&#x27; onmouseover=" in home


def test_a_tenant_or_suite_of_markup_with_angle_brackets_or_double_quotes_is_refused(
    archive: Path, runsite: Callable[..., Result], write_json: Callable[[Any, str], Path]
):
    for key in ("tenant", "suite"):
        path = write_json(a_run(**{key: INJECTED}), f"{key}.json")
        refused = runsite("import", "--root", str(archive), str(path))
        assert refused.exit_code == 64
        assert f"{path}: {key}: cannot name a folder in runs/: holds " in refused.stderr
        assert "<img" not in refused.stderr
