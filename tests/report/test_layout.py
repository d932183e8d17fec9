"""How the report is put together: only its reader of the archive holds a full run; its words
are the glossary's in both languages; the wheel ships its templates."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.report.labels import REPORT
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


def test_the_wheel_ships_the_report_and_its_templates(tmp_path: Path):
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
            str(tmp_path),
        ],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("runsite-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    templates = {
        f"generator/site_templates/report/{path.name}"
        for path in (REPOSITORY / "site_templates" / "report").iterdir()
    }
    code = {f"generator/report/{path.name}" for path in (PACKAGE / "report").glob("*.py")}
    assert templates and templates <= shipped
    assert code <= shipped
    assert "generator/cli/report.py" in shipped
