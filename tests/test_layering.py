"""The layout follows the data, and a scan of the imports keeps it that way.

The document layer is pure (no files, no clock, no processes); nothing imports the CLI; the
reading and the site see the redacted run only, never the full run model; the leak guard is
beneath every output it checks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
PURE = ["document", "account", "reading"]
IO_MODULES = {"os", "pathlib", "subprocess", "time", "shutil", "socket", "io", "git", "tempfile"}
CLOCK_CALLS = {"now", "today", "utcnow", "time", "monotonic", "perf_counter"}
CLOCKS = {"datetime", "date", "time"}
FULL_RUN = {
    "generator.document.model",
    "generator.document.trajectory",
    "generator.document.codec",
    "generator.document.redact",
    "generator.document.migrate",
}


ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "guard": set(),
    "document": {"errors"},
    "account": {"document"},
    "reading": {"account", "document", "errors"},
    "archive": {"account", "document", "errors"},
    "files": {"archive", "document", "errors"},
    "suite": {"archive", "document", "errors"},
    "providers": {"document", "errors", "suite"},
    "importers": {"archive", "document", "errors", "files"},
    "site": {"account", "document", "errors", "reading"},
    "report": {"account", "archive", "document", "errors", "guard", "reading", "site"},
    "publish": {"account", "archive", "document", "errors", "guard", "reading", "site"},
    "deploy": {"archive", "errors", "guard", "publish", "site"},
    "cli": {
        "archive",
        "deploy",
        "document",
        "errors",
        "files",
        "generator",
        "guard",
        "importers",
        "publish",
        "reading",
        "report",
        "site",
        "suite",
    },
    "generator": {"suite"},
    "__main__": {"cli"},
}
"""The rooms of the house, from the ground up, and the rooms each may import: the document,
its account, the reading of it, and the outputs that format them; and the leak guard, which
every output passes through, handed its payload, and so imports nothing. A room is a folder of
``generator/`` or a module beside them (``generator`` is the package's ``__init__``)."""

SITE_BUILD = {"build", "shell", "rewrite"}
"""The site's build machinery (mkdocs, the theme's shell): a report renders the site's pages,
never builds one; and of the leak guard it asks the entry point (``generator.guard``), never
the build's sieves or the check of its kept pages."""


def _room(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    if len(parts) == 1:
        return "generator" if parts[0] == "__init__.py" else parts[0].removesuffix(".py")
    return parts[0]


def _is_module(name: str) -> bool:
    """Whether ``name`` (dotted, under ``generator``) is a module or a package of the house."""
    place = PACKAGE.parent.joinpath(*name.split("."))
    return place.with_suffix(".py").is_file() or (place / "__init__.py").is_file()


def _modules_imported(path: Path) -> set[str]:
    """The house's modules ``path`` imports, at module level or inside a function alike: of
    ``from package import name``, the module ``name`` where it is one, else the package."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                found.add(inner if _is_module(inner) else node.module)
    return {name for name in found if name.split(".")[0] == "generator"}


def _rooms_imported(path: Path) -> set[str]:
    """The rooms ``path`` imports from."""
    return {name.split(".")[1] if "." in name else "generator" for name in _modules_imported(path)}


def test_every_room_imports_only_the_rooms_beneath_it():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert {_room(path) for path in modules} == ALLOWED.keys()
    offenders = [
        f"{path.relative_to(PACKAGE)} imports {room}"
        for path in modules
        for room in sorted(_rooms_imported(path) - ALLOWED[_room(path)] - {_room(path)})
    ]
    assert offenders == []


def test_no_two_modules_import_each_other_even_inside_a_function():
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(("generator", *path.relative_to(PACKAGE).with_suffix("").parts))
        graph[name.removesuffix(".__init__")] = _modules_imported(path)
    edges = {a: {b for b in found if b != a and b in graph} for a, found in graph.items()}

    def circle_from(start: str) -> list[str] | None:
        path, seen = [start], {start}
        stack = [iter(sorted(edges[start]))]
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                path.pop()
                continue
            if step == start:
                return [*path, start]
            if step not in seen:
                seen.add(step)
                path.append(step)
                stack.append(iter(sorted(edges[step])))
        return None

    circles = [found for name in sorted(graph) if (found := circle_from(name))]
    assert circles == []


def test_the_report_renders_the_sites_pages_and_builds_none():
    offenders = [
        f"{path.name} imports {name}"
        for path in _modules("report")
        for name in _modules_imported(path)
        if (name.startswith("generator.site.") and name.split(".")[2] in SITE_BUILD)
        or name.startswith("generator.guard.")
    ]
    assert offenders == []


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
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr in CLOCK_CALLS
                    and isinstance(node.value, ast.Name)
                    and node.value.id in CLOCKS
                ):
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


def test_starting_the_kept_pages_check_loads_neither_the_search_nor_the_sieve():
    """``runsite build`` starts the check's process before anything else, so that the check's
    imports run beside the build's: the guard's package and the starter import nothing heavy."""
    heavy = ["generator.guard.scan", "generator.guard.sieve", "ahocorasick_rs", "numpy"]
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, generator.guard.kept_check; print([m for m in {heavy!r} if m in sys.modules])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert loaded.strip() == "[]"
