"""The archive as a folder: init, finding it from below, its runsite.toml, show's redacted view,
migrate and log."""

from __future__ import annotations

import json

import pytest

from tests._helpers import MARKERS, a_planted_run, a_run_at, git
from tests.conftest import CORPUS

OLD = CORPUS / "digline" / "classifier__expense-triage__d0e01e4.json"


def test_init_makes_a_git_repository_with_runs_and_a_runsite_toml_in_one_commit(archive):
    assert git(archive, "log", "--format=%s") == "Start a runsite archive\n"
    assert git(archive, "ls-files") == ".gitignore\nruns/.gitkeep\nrunsite.toml\n"
    assert 'language = "en"' in (archive / "runsite.toml").read_text()


def test_what_a_build_leaves_in_the_archive_shows_nowhere_in_git_status(
    runsite, archive, write_json
):
    runsite("import", "--root", str(archive), str(write_json(a_run_at(1))))
    assert runsite("build", "--root", str(archive)).exit_code == 0
    assert (archive / "site").is_dir() and (archive / ".site.runsite-lock").exists()
    assert git(archive, "status", "--porcelain", "--ignored=no") == ""


def _nobody(monkeypatch, home):
    """A machine where git knows no identity: no global or system configuration, no
    identity in the environment, a home of its own."""
    home.mkdir()
    for name in (
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("EMAIL", "")


def test_init_without_a_git_identity_gives_the_new_repository_its_own_and_says_so(
    runsite, tmp_path, monkeypatch, git_environment
):
    _nobody(monkeypatch, tmp_path / "home")
    result = runsite("init", str(tmp_path / "evals"))
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "runsite: git has no identity, so this archive commits as runsite "
        f"<runsite@archive.invalid>; git -C {tmp_path / 'evals'} config user.name (and "
        "user.email) changes it\n"
    )
    assert git(tmp_path / "evals", "log", "--format=%an <%ae>") == (
        "runsite <runsite@archive.invalid>\n"
    )
    assert not (tmp_path / "home" / "gitconfig").exists()


def test_init_in_a_repository_without_a_git_identity_says_how_to_name_one_and_makes_nothing(
    runsite, tmp_path, monkeypatch, git_environment
):
    _nobody(monkeypatch, tmp_path / "home")
    (tmp_path / "project").mkdir()
    git(tmp_path / "project", "init", "--quiet")
    before = sorted((tmp_path / "project").rglob("*"))
    result = runsite("init", str(tmp_path / "project" / "evals"))
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: {tmp_path / 'project' / 'evals'}: git has no identity to commit as; name "
        "one: git config --global user.name NAME, then git config --global user.email EMAIL; "
        "nothing was made\n"
    )
    assert sorted((tmp_path / "project").rglob("*")) == before


def test_init_inside_a_git_repository_uses_it_instead_of_making_another(runsite, archive, tmp_path):
    result = runsite("init", str(archive / "nested"))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{archive / 'nested'}: an archive\n"
    assert not (archive / "nested" / ".git").exists()
    assert "nested/runsite.toml" in git(archive, "ls-files")


def test_init_of_an_archive_is_refused(runsite, archive):
    result = runsite("init", str(archive))
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: {archive / 'runsite.toml'}: already there; this folder is an archive\n"
    )


def test_commands_find_the_archive_from_a_folder_inside_it(
    runsite, archive, write_json, monkeypatch
):
    runsite("import", "--root", str(archive), str(write_json(a_run_at(1))))
    monkeypatch.chdir(archive / "runs" / "acme")
    result = runsite("list")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1


def test_a_command_outside_any_archive_is_refused_in_one_line(runsite, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runsite("list")
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: {tmp_path}: no runsite.toml here or in any folder above; "
        "runsite init makes an archive\n"
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[disclosure]\ntool_nams = true\n", "disclosure.tool_nams: not a key of this record"),
        ("[disclosure]\nartifacts = 'a'\n", "disclosure.artifacts: a TOML string, not an array"),
        ("[publish]\n", "publish: not a key of this record"),
        (
            "[disclosure\n",
            "not valid TOML (Expected ']' at the end of a table declaration "
            "(at line 3, column 12))",
        ),
    ],
)
def test_a_bad_runsite_toml_is_refused_naming_the_file_and_the_key(runsite, archive, text, problem):
    config = archive / "runsite.toml"
    config.write_text(f'[site]\nname = "evals"\n{text}')
    result = runsite("list", "--root", str(archive))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {config}: {problem}\n"


def test_a_site_language_other_than_en_or_it_is_refused(runsite, archive):
    config = archive / "runsite.toml"
    config.write_text('[site]\nname = "evals"\nlanguage = "fr"\n')
    result = runsite("list", "--root", str(archive))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {config}: site.language: not one of 'en' or 'it'\n"


def test_show_summarises_the_redacted_view_and_says_what_was_released(runsite, archive, write_json):
    runsite("import", "--root", str(archive), str(write_json(a_planted_run())))
    with (archive / "runsite.toml").open("a") as config:
        config.write("tool_names = true\n")
    for flag in ((), ("--json",)):
        result = runsite("show", "latest", "--root", str(archive), *flag)
        assert result.exit_code == 0, result.output
        assert not [field for field, m in MARKERS.items() if m in result.stdout]
    facts = json.loads(result.stdout)
    assert facts["verdicts"] == {"pass": 2, "fail": 1, "error": 0}
    assert facts["cases"] == 3
    assert facts["suspended"] == 1
    assert facts["disclosure"]["tool_names"] is True
    text = runsite("show", "latest", "--root", str(archive)).stdout
    assert "released     tool_names: all" in text.splitlines()


def test_migrate_dry_run_lists_what_it_would_rewrite_and_writes_nothing(runsite, archive):
    runsite("import", "--root", str(archive), str(OLD))
    head = git(archive, "rev-parse", "HEAD")
    result = runsite("migrate", "--dry-run", "--root", str(archive))
    assert result.exit_code == 0
    place = "runs/northwind/expense-triage/2026-08-27T09-45-38-769454-00-00-758fbcef8cb4789a.json"
    assert result.stdout.splitlines() == [
        f"would migrate {place} from schema 7",
        "1 would migrate, 0 already at schema 23, 0 refused",
    ]
    assert git(archive, "rev-parse", "HEAD") == head


def test_migrate_rewrites_old_documents_at_schema_23_in_one_commit(runsite, archive):
    runsite(
        "import",
        "--root",
        str(archive),
        str(OLD),
        str(CORPUS / "digline" / "rag__rag__0106ccd.json"),
    )
    result = runsite("migrate", "--root", str(archive))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "2 migrated, 0 already at schema 23, 0 refused"
    assert git(archive, "log", "-1", "--format=%s") == "Migrate 2 runs to schema 23\n"
    listed = json.loads(runsite("list", "--json", "--root", str(archive)).stdout)
    assert {entry["schema_version"] for entry in listed} == {23}
    assert git(archive, "status", "--porcelain") == ""
    again = runsite("migrate", "--root", str(archive))
    assert again.stdout.splitlines() == ["0 migrated, 2 already at schema 23, 0 refused"]


def test_the_original_document_is_already_there_after_migrate(runsite, archive):
    runsite("import", "--root", str(archive), str(OLD))
    runsite("migrate", "--root", str(archive))
    result = runsite("import", "--root", str(archive), str(OLD))
    assert result.stdout.splitlines()[-1] == "0 archived, 1 already there"


def test_log_says_what_arrived_when_from_git_history(runsite, archive, write_json):
    runsite("import", "--root", str(archive), str(write_json(a_run_at(1))))
    runsite("baseline", "set", "latest", "--root", str(archive))
    result = runsite("log", "--json", "--root", str(archive))
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)
    key = "2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169"
    assert [(e["subject"], e["added"]) for e in entries] == [
        (f"Set the baseline of acme/support to {key}", ["runs/acme/support/baseline"]),
        ("Import 1 run", [f"runs/acme/support/{key}.json"]),
        ("Start a runsite archive", ["runs/.gitkeep"]),
    ]
    assert entries[0]["date"] == "2026-12-01T09:00:00+00:00"
    text = runsite("log", "--root", str(archive)).stdout.splitlines()
    assert text[-1] == "  + runs/.gitkeep"
