"""Writing small suites into a test's folder: a suite.toml, its cases and its code."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

BASE = """
[suite]
tenant = "acme"
environment = "ci"
name = "probe"
cases = "cases.json"
{suite_extra}

[target]
{target}

{assertions}
"""

FUNCTION_TARGET = 'type = "function"\nfunction = "app:answer"'
CONTAINS = '[[assertions]]\ntype = "contains"\nneedle = "ok"'


def write_suite(
    folder: Path,
    *,
    assertions: str = CONTAINS,
    cases: Any = None,
    app: str = "def answer(case):\n    return 'ok ' + case['id']\n",
    target: str = FUNCTION_TARGET,
    suite_extra: str = "",
    files: dict[str, str] | None = None,
) -> Path:
    """A suite in ``folder``; returns the path of its suite.toml."""
    folder.mkdir(parents=True, exist_ok=True)
    toml = BASE.format(suite_extra=suite_extra, target=target, assertions=assertions)
    (folder / "suite.toml").write_text(textwrap.dedent(toml), encoding="utf-8")
    cases = cases if cases is not None else [{"id": "a"}, {"id": "b"}]
    (folder / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (folder / "app.py").write_text(textwrap.dedent(app), encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder / "suite.toml"
