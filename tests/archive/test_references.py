"""RUN references: every form names one run, and one that names several is refused with the
candidates listed."""

from __future__ import annotations

import json

import pytest

from tests._helpers import a_run_at


@pytest.fixture
def filled(runsite, archive, write_json):
    """Three support runs and one of another tenant's support, seconds 1 to 4."""
    paths = [write_json(a_run_at(second), f"run{second}.json") for second in (1, 2, 3)]
    paths.append(write_json(a_run_at(4, tenant="globex"), "run4.json"))
    result = runsite("import", "--root", str(archive), *map(str, paths))
    assert result.exit_code == 0, result.output
    return archive


def _key(second: int) -> str:
    return f"2026-12-01T10-00-{second:02d}-000000-00-00-b2a55669ae7e0169"


def _shown(runsite, root, ref):
    result = runsite("show", ref, "--json", "--root", str(root))
    assert result.exit_code == 0, result.output
    facts = json.loads(result.stdout)
    return facts["tenant"], facts["key"]


@pytest.mark.parametrize(
    ("ref", "tenant", "second"),
    [
        ("latest", "globex", 4),
        ("latest~0", "globex", 4),
        ("latest~1", "acme", 3),
        ("latest~3", "acme", 1),
        ("acme/support@latest", "acme", 3),
        ("globex/support@latest", "globex", 4),
        ("acme/support@latest~2", "acme", 1),
        (_key(2), "acme", 2),
        (f"runs/acme/support/{_key(1)}.json", "acme", 1),
    ],
)
def test_each_form_of_reference_names_its_run(runsite, filled, monkeypatch, ref, tenant, second):
    monkeypatch.chdir(filled)
    assert _shown(runsite, filled, ref) == (tenant, _key(second))


def test_a_path_is_read_from_the_current_folder(runsite, filled, monkeypatch):
    monkeypatch.chdir(filled / "runs" / "acme")
    assert _shown(runsite, filled, f"support/{_key(2)}.json") == ("acme", _key(2))


def test_a_suite_two_tenants_share_is_ambiguous_and_both_are_named(runsite, filled):
    result = runsite("show", "support@latest", "--root", str(filled))
    assert result.exit_code == 64
    assert result.stderr == ("runsite: support: ambiguous, it names acme/support, globex/support\n")


def test_a_key_two_tenants_share_is_ambiguous_and_both_paths_are_named(runsite, filled, write_json):
    runsite("import", "--root", str(filled), str(write_json(a_run_at(1, tenant="globex"))))
    result = runsite("show", _key(1), "--root", str(filled))
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: {_key(1)}: ambiguous, it names runs/acme/support/{_key(1)}.json, "
        f"runs/globex/support/{_key(1)}.json\n"
    )


@pytest.mark.parametrize(
    ("ref", "problem"),
    [
        ("latest~4", "latest~4: only 4 runs are archived"),
        (
            "acme/support@latest~3",
            "acme/support@latest~3: only 3 runs of acme/support are archived",
        ),
        ("support@yesterday", "support@yesterday: after the @ comes latest or latest~N"),
        ("nightly@latest", "nightly: no archived suite has this name"),
        (_key(9), f"{_key(9)}: no archived run has this key"),
        (
            "elsewhere/run.json",
            "elsewhere/run.json: not an archived run; runsite import archives it",
        ),
    ],
)
def test_a_reference_that_names_no_run_is_refused_with_exit_64(runsite, filled, ref, problem):
    result = runsite("show", ref, "--root", str(filled))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {problem}\n"


def test_latest_in_an_empty_archive_says_no_runs_are_archived(runsite, archive):
    result = runsite("show", "latest", "--root", str(archive))
    assert result.exit_code == 64
    assert result.stderr == "runsite: latest: no runs are archived\n"
