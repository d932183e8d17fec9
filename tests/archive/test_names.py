"""The door's rules on names: a tenant, suite or key that would not stay one name on every file
system, or that is or looks like a name already there, is refused in one line naming the rule
or the name it collides with, exit 64, the archive as it was; names of one script arrive."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from generator.archive.names import folded, skeleton
from tests._helpers import a_run_at, git
from tests.suite._suites import write_suite

Runsite = Callable[..., Result]
WriteJson = Callable[[Any, str], Path]


def _import(runsite: Runsite, archive: Path, *paths: Path) -> Result:
    return runsite("import", "--root", str(archive), *map(str, paths))


def _refused_alone(result: Result, archive: Path, head: str) -> str:
    """The one refusal line of a refused import, the archive's HEAD as it was."""
    assert result.exit_code == 64, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and lines[1].startswith("runsite: nothing archived")
    assert git(archive, "rev-parse", "HEAD") == head
    return lines[0]


NFC_CAFE = unicodedata.normalize("NFC", "café")
NFD_CAFE = unicodedata.normalize("NFD", "café")

COLLISIONS = [
    pytest.param("suite", "Support", "support", "runs/acme/Support/", "folded", id="case"),
    pytest.param("tenant", "acme", "ACME", "runs/acme/", "folded", id="tenant-case"),
    pytest.param("suite", NFC_CAFE, NFD_CAFE, f"runs/acme/{NFC_CAFE}/", "folded", id="nfd"),
    pytest.param("suite", "strasse", "straße", "runs/acme/strasse/", "folded", id="sharp-s"),
    pytest.param(
        "suite", "kelvin-k", "kelvin-\u212a", "runs/acme/kelvin-k/", "folded", id="kelvin"
    ),
    pytest.param("suite", "id", "\u0131d", "runs/acme/id/", "folded", id="dotless-i"),
    pytest.param("suite", "support", "\u0455upport", "runs/acme/support/", "looks", id="cyrillic"),
    pytest.param(
        "suite", "ape", "\u0430\u0440\u0435", "runs/acme/ape/", "looks", id="all-cyrillic"
    ),
    pytest.param("suite", "support", "\uff53upport", "runs/acme/support/", "looks", id="fullwidth"),
    pytest.param("tenant", "paypal", "paypa1", "runs/paypal/", "looks", id="digit-one"),
]


@pytest.mark.parametrize(("role", "archived", "arriving", "named", "why"), COLLISIONS)
def test_a_name_that_is_or_looks_like_an_archived_one_is_refused_naming_it(
    runsite: Runsite,
    archive: Path,
    write_json: WriteJson,
    role: str,
    archived: str,
    arriving: str,
    named: str,
    why: str,
) -> None:
    first = {"tenant": "acme", role: archived}
    assert _import(runsite, archive, write_json(a_run_at(1, **first), "first.json")).exit_code == 0
    head = git(archive, "rev-parse", "HEAD")
    second = write_json(a_run_at(2, **{**first, role: arriving}), "second.json")
    line = _refused_alone(_import(runsite, archive, second), archive, head)
    said = (
        "is the same name once case and Unicode are folded" if why == "folded" else "looks the same"
    )
    assert line.startswith(f"runsite: {second}: {role}: {named} {said}"), line


def test_two_names_of_one_batch_that_collide_are_refused_naming_the_other_file(
    runsite: Runsite, archive: Path, write_json: WriteJson
) -> None:
    head = git(archive, "rev-parse", "HEAD")
    first = write_json(a_run_at(1, suite="Support"), "first.json")
    second = write_json(a_run_at(2, suite="SUPPORT"), "second.json")
    line = _refused_alone(_import(runsite, archive, first, second), archive, head)
    assert line == (
        f"runsite: {second}: suite: {first} is the same name once case and Unicode are folded"
    )


def test_a_name_already_archived_as_it_is_takes_more_runs(
    runsite: Runsite, archive: Path, write_json: WriteJson
) -> None:
    for second in (1, 2):
        run = a_run_at(second, tenant="Acme", suite=NFC_CAFE)
        assert _import(runsite, archive, write_json(run, f"{second}.json")).exit_code == 0
    assert len(list((archive / "runs" / "Acme" / NFC_CAFE).glob("*.json"))) == 2


UNPORTABLE = [
    ("CON", "a device name on Windows"),
    ("aux", "a device name on Windows"),
    ("Com1", "a device name on Windows"),
    ("lpt\u00b9", "a device name on Windows"),
    ("nul.tar.gz", "a device name on Windows"),
    ("conin$", "a device name on Windows"),
    ("a:b", "holds :, which Windows refuses"),
    ("a|b", "holds |, which Windows refuses"),
    ('say "hi"', 'holds ", which Windows refuses'),
    ("<b>", "holds <, which Windows refuses"),
    ("what?", "holds ?, which Windows refuses"),
    ("support.", "ends with a dot"),
    ("support ", "starts or ends with a space"),
    ("support\u3000", "starts or ends with a space"),
    (" support", "starts or ends with a space"),
    (NFD_CAFE, "not in Unicode's composed form (NFC)"),
    ("\u0455upport", "mixes scripts (Cyrillic and Latin)"),
    ("\u03b1lpha-team", "mixes scripts (Greek and Latin)"),
]


@pytest.mark.parametrize(("name", "rule"), UNPORTABLE)
@pytest.mark.parametrize("role", ["tenant", "suite"])
def test_a_name_no_file_system_keeps_or_that_mixes_scripts_is_refused(
    runsite: Runsite, archive: Path, write_json: WriteJson, role: str, name: str, rule: str
) -> None:
    head = git(archive, "rev-parse", "HEAD")
    path = write_json(a_run_at(1, **{role: name}), "run.json")
    line = _refused_alone(_import(runsite, archive, path), archive, head)
    assert line.startswith(f"runsite: {path}: {role}: cannot name a folder in runs/: {rule}"), line
    if "device" not in rule:  # the rule lists the device names
        assert name.strip() not in line.removeprefix(f"runsite: {path}: {role}:")


ONE_SCRIPT = [
    "assistenza-più",
    "サポート窓口",
    "東京タワー2",
    "고객지원",
    "客服",
    "Υποστήριξη",
    "поддержка",
    "دعم",
    "support-2026",
    "index.html",
    "404.html",
]


def test_names_of_one_script_or_japanese_korean_and_chinese_as_written_arrive(
    runsite: Runsite, archive: Path, write_json: WriteJson
) -> None:
    paths = [
        write_json(a_run_at(n, tenant=name, suite=name), f"{n}.json")
        for n, name in enumerate(ONE_SCRIPT)
    ]
    result = _import(runsite, archive, *paths)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (archive / "runs").iterdir() if p.is_dir()) == sorted(ONE_SCRIPT)


def test_keys_runsite_and_digline_make_pass_the_door(corpus: Path) -> None:
    from generator.archive.names import unportable
    from generator.files import read_document

    keys = {read_document(path).run.key for path in sorted((corpus / "digline").glob("*.json"))}
    assert len(keys) >= 20
    assert [key for key in keys if unportable(key)] == []
    assert len({folded(key) for key in keys}) == len({skeleton(key) for key in keys}) == len(keys)


def test_an_inspect_tenant_or_suite_given_on_the_command_line_is_refused_before_reading(
    runsite: Runsite, archive: Path, tmp_path: Path
) -> None:
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("import", "--root", str(archive), "--suite", "COM1", str(tmp_path))
    assert result.exit_code == 64
    assert result.stderr == (
        "runsite: --suite: cannot name a folder in runs/: a device name on Windows "
        "(CON, PRN, AUX, NUL, COM1, LPT1...), with or without a dot\n"
    )
    assert git(archive, "rev-parse", "HEAD") == head


def _app_that_records_calls(folder: Path) -> str:
    called = folder / "called"
    return f"def answer(case):\n    open({str(called)!r}, 'a').write('x')\n    return 'ok'\n"


SUITES_REFUSED = [
    pytest.param(
        "acme.",
        "tenant: cannot name a folder in runs/: ends with a dot, which Windows drops from a file "
        "name",
        id="when-it-loads",
    ),
    pytest.param(
        "acme",
        "name: runs/acme/Probe/ is the same name once case and Unicode are folded",
        id="as-an-archived-one",
    ),
]


@pytest.mark.parametrize(("tenant", "said"), SUITES_REFUSED)
def test_a_suite_whose_names_the_door_would_refuse_is_refused_before_it_runs(
    runsite: Runsite,
    archive: Path,
    tmp_path: Path,
    write_json: WriteJson,
    tenant: str,
    said: str,
) -> None:
    archived = a_run_at(1, tenant="acme", suite="Probe")
    assert _import(runsite, archive, write_json(archived, "archived.json")).exit_code == 0
    head = git(archive, "rev-parse", "HEAD")
    suite = write_suite(tmp_path / "s", app=_app_that_records_calls(tmp_path))
    suite.write_text(suite.read_text().replace('tenant = "acme"', f'tenant = "{tenant}"'))
    result = runsite("run", str(suite), "--root", str(archive))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {suite}: [suite]: {said}\n"
    assert not (tmp_path / "called").exists()
    assert git(archive, "rev-parse", "HEAD") == head


def test_the_folded_form_is_the_case_insensitive_file_systems_and_no_more() -> None:
    assert folded("Straße") == folded("STRASSE") == "strasse"
    assert folded("\u0130stanbul") != folded("istanbul")
    assert folded("\u0131") == folded("I") == "i"
    assert folded(NFD_CAFE) == folded(NFC_CAFE.upper())
    assert skeleton("mail") != skeleton("mall")
    assert skeleton("Support") != skeleton("support")
    assert json.dumps(skeleton("\u0430\u0440\u0435")) == json.dumps(skeleton("ape"))
