"""How the report is put together: only its reader of the archive holds a full run; its words
are the glossary's in both languages; the package ships its templates."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from generator.report.labels import REPORT
from generator.site.templates import TEMPLATES
from tests.reading.test_glossary import rejected_in
from tests.test_layering import FULL_RUN, PACKAGE, _imports

REPOSITORY = Path(__file__).resolve().parents[2]


def test_only_the_reader_of_the_archive_sees_a_full_run():
    offenders = [
        f"{path.name} imports {name}"
        for path in sorted((PACKAGE / "report").glob("*.py"))
        if path.name != "runs.py"
        for name in sorted(_imports(path))
        if any(name == m or name.startswith(m + ".") for m in FULL_RUN)
    ]
    assert offenders == []
    assert any(
        name.startswith("generator.document.redact")
        for name in _imports(PACKAGE / "report" / "runs.py")
    )


def test_the_report_says_the_same_things_in_both_languages():
    assert REPORT["en"].keys() == REPORT["it"].keys()


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_report_uses_no_word_the_glossary_rejects(language):
    assert rejected_in("\n".join(REPORT[language].values()), language) == []


def test_every_folder_of_templates_is_shipped_whole():
    setuptools = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        ".".join(("generator.site_templates", *path.parent.relative_to(TEMPLATES).parts))
        for path in TEMPLATES.rglob("*")
        if path.is_file() and path.parent != TEMPLATES
    }
    assert "generator.site_templates.report" in folders
    assert folders <= set(setuptools["packages"])
    assert all(setuptools["package-data"].get(folder) == ["*"] for folder in folders)
