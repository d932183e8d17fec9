"""The layout follows the data, and a scan of the imports keeps it that way.

The document layer is pure (no files, no clock, no processes); nothing imports the CLI; the
reading and the site see the redacted run only, never the full run model.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
PURE = ["document", "reading"]
IO_MODULES = {"os", "pathlib", "subprocess", "time", "shutil", "socket", "io", "git", "tempfile"}
CLOCK_CALLS = {"now", "today", "utcnow", "time"}
FULL_RUN = {
    "generator.document.model",
    "generator.document.trajectory",
    "generator.document.codec",
    "generator.document.redact",
    "generator.document.migrate",
}


def _modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_the_document_layer_exists_and_is_scanned():
    assert len(_modules("document")) >= 8


def test_pure_layers_do_no_io_and_read_no_clock():
    offenders = []
    for folder in PURE:
        for path in _modules(folder):
            roots = {name.split(".")[0] for name in _imports(path)}
            offenders += [f"{path.name} imports {m}" for m in sorted(roots & IO_MODULES)]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "open"
                ):
                    offenders.append(f"{path.name} opens a file")
                if isinstance(node, ast.Attribute) and node.attr in CLOCK_CALLS:
                    offenders.append(f"{path.name} reads the clock ({node.attr})")
    assert offenders == []


def test_nothing_outside_the_cli_imports_it():
    offenders = [
        path.name
        for path in PACKAGE.rglob("*.py")
        if PACKAGE / "cli" not in path.parents
        and path.name != "__main__.py"
        and any(
            name == "generator.cli" or name.startswith("generator.cli.") for name in _imports(path)
        )
    ]
    assert offenders == []


def test_the_reading_and_the_site_never_see_the_full_run():
    offenders = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for folder in ("reading", "site")
        for path in _modules(folder)
        for name in sorted(_imports(path))
        if any(name == m or name.startswith(m + ".") for m in FULL_RUN)
    ]
    assert offenders == []


def test_the_redacted_types_do_not_import_the_full_run():
    assert not any(
        name.startswith(tuple(FULL_RUN)) for name in _imports(PACKAGE / "document" / "redacted.py")
    )
