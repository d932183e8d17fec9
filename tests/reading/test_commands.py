"""``runsite explain`` and ``runsite diff`` as a user runs them: output, JSON, exit codes."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest
from scipy import stats

from tests._helpers import MARKERS, a_planted_run, a_run, a_verdict
from tests.reading import _documents as documents

RUN1, RUN2 = str(documents.RUN1), str(documents.RUN2)
BASELINE, REDACTED_RUN2 = str(documents.BASELINE), str(documents.REDACTED_RUN2)


def test_explain_against_a_reference_that_got_worse_exits_1(runsite):
    result = runsite("explain", RUN2, "--against", BASELINE)
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(
        "Run 2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169 read against the reference "
    )
    assert "- contains on case invoice went from passing to failing: 1.00 to 0.20" in (
        result.stdout
    )
    assert result.stderr == (
        "runsite: exit 1: contains on case waterproof went from passing to failing: 1.00 to "
        "0.40, against a threshold of 1.00.\n"
    )


def test_explain_of_a_run_alone_exits_0_even_with_failing_checks(runsite):
    result = runsite("explain", RUN2, "--locale", "it")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "- contains sul caso invoice non è stato superato: 0,20 con soglia 1,00." in (
        result.stdout
    )


def test_explain_of_a_run_with_a_check_that_could_not_be_judged_exits_2(runsite, write_json):
    run = a_run()
    run["results"][1]["verdicts"][0] |= {"score": None, "status": "error"}
    result = runsite("explain", str(write_json(run)))
    assert result.exit_code == 2, result.output
    assert "- 1 check could not be judged, so on that point the run says nothing." in result.stdout
    assert result.stderr == (
        "runsite: exit 2: 1 check could not be judged, so on that point the run says nothing.\n"
    )
    italian = runsite("explain", str(write_json(run)), "--locale", "it")
    assert italian.stderr.startswith("runsite: exit 2: 1 controllo non ")


def test_explain_json_has_the_documented_shape_and_the_same_exit_code(runsite):
    result = runsite("explain", RUN2, "--against", RUN1, "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert list(doc) == [
        "exit_code",
        "facts",
        "gate",
        "output_version",
        "reference_key",
        "run_key",
        "scope",
        "tests",
    ]
    assert doc["output_version"] == 2
    assert doc["scope"] == "reference"
    assert doc["run_key"] == "2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169"
    assert doc["reference_key"] == "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169"
    assert doc["exit_code"] == 1
    assert doc["facts"][0] == {"kind": "tally.cases", "params": {"count": 5}, "section": "ran"}


def test_explain_json_of_a_run_alone_has_no_reference_key(runsite):
    doc = json.loads(runsite("explain", RUN2, "--json").stdout)
    assert doc["scope"] == "run"
    assert "reference_key" not in doc


def test_the_same_command_prints_the_same_bytes(runsite):
    first = runsite("explain", RUN2, "--against", BASELINE, "--json")
    second = runsite("explain", RUN2, "--against", BASELINE, "--json")
    assert first.stdout_bytes == second.stdout_bytes


def test_a_document_digline_redacted_reads_like_the_one_runsite_redacts(runsite):
    # digline's redacted copy of run 2 keeps every number the reading uses.
    ours = runsite("explain", RUN2, "--against", RUN1)
    theirs = runsite("explain", REDACTED_RUN2, "--against", RUN1)
    assert theirs.exit_code == ours.exit_code == 1
    assert theirs.stdout == ours.stdout


def test_no_payload_reaches_the_reading_in_prose_or_json(runsite, write_json):
    path = str(write_json(a_planted_run()))
    outputs = [
        runsite("explain", path, *flags).stdout
        for flags in ([], ["--locale", "it"], ["--json"], ["--against", path])
    ]
    outputs.append(runsite("diff", path, path, "--json").stdout)
    assert not [m for m in MARKERS.values() for out in outputs if m in out]


def test_an_unknown_locale_exits_64_naming_the_available_ones(runsite):
    result = runsite("explain", RUN2, "--locale", "fr")
    assert result.exit_code == 64
    assert result.stderr == "runsite: --locale: no catalog for 'fr'; available: en, it\n"


def test_references_and_the_baseline_are_resolved_in_the_archive(runsite, archive):
    root = str(archive)
    assert runsite("import", "--root", root, RUN1, RUN2).exit_code == 0
    run1_key = documents.RUN1.name.split("__")[1].removesuffix(".json")
    assert runsite("baseline", "set", run1_key, "--root", root).exit_code == 0
    by_path = runsite("explain", RUN2, "--against", RUN1, "--json")
    by_reference = runsite("explain", "support@latest", "--baseline", "--root", root, "--json")
    assert by_reference.exit_code == 1, by_reference.output
    assert by_reference.stdout == by_path.stdout


def test_baseline_of_a_suite_without_one_is_refused_in_one_line(runsite, archive):
    assert runsite("import", "--root", str(archive), RUN2).exit_code == 0
    result = runsite("explain", "latest", "--baseline", "--root", str(archive))
    assert result.exit_code == 64
    assert (
        result.stderr == "runsite: acme/support: no baseline; runsite baseline set RUN makes one\n"
    )


def test_a_run_that_names_nothing_is_refused_in_one_line(runsite, archive):
    result = runsite("explain", "nothing@latest", "--root", str(archive))
    assert result.exit_code == 64
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("runsite: ")


def test_a_broken_reference_is_refused_naming_its_file_and_key(runsite, write_json):
    path = write_json(a_run(tenant=7), "broken.json")
    result = runsite("explain", RUN2, "--against", str(path))
    assert result.exit_code == 64
    assert result.stderr.startswith(f"runsite: {path}: tenant: ")
    assert len(result.stderr.splitlines()) == 1


def test_diff_prints_the_symmetric_report_and_exits_0_even_when_one_side_is_worse(runsite):
    result = runsite("diff", RUN1, RUN2)
    assert result.exit_code == 0, result.output
    assert "- Differences in favour of the left run: 4; in favour of the right run: 0." in (
        result.stdout
    )


def test_diff_json_names_its_left_and_right_runs(runsite):
    doc = json.loads(runsite("diff", RUN1, RUN2, "--json").stdout)
    assert doc["scope"] == "diff"
    assert doc["left_key"] == "2026-11-29T22-43-20-961326-00-00-b2a55669ae7e0169"
    assert doc["right_key"] == "2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169"
    assert doc["exit_code"] == 0


def test_diff_of_runs_under_different_rules_exits_64_in_one_line(runsite):
    left = str(documents.DIGLINE / "classifier__expense-triage__d0e01e4.json")
    right = str(documents.DIGLINE / "classifier__expense-triage__0106ccd.json")
    result = runsite("diff", left, right)
    assert result.exit_code == 64
    assert len(result.stderr.splitlines()) == 1
    assert ": config_hash: they follow different rules" in result.stderr
    assert result.stdout == ""


SCHEMA = json.loads(files("generator.reading").joinpath("reading.schema.json").read_text())


@pytest.mark.parametrize(
    "args",
    [
        ("explain", RUN2),
        ("explain", RUN2, "--against", RUN1),
        ("explain", RUN2, "--against", RUN1, "--gate", "significant"),
        ("diff", RUN2, RUN1),
    ],
    ids=["alone", "against", "significant", "diff"],
)
def test_the_json_is_what_its_schema_says(runsite, args):
    doc = json.loads(runsite(*args, "--json").stdout)
    jsonschema.validate(doc, SCHEMA)
    assert ("tests" in doc) == (doc["scope"] != "run")


def test_explain_json_carries_the_tests_of_the_recorded_pair(runsite):
    """contains: two of the four judged cases went from passing to failing (exact McNemar,
    p = 0.5); invoice's contains samples went from 5 of 5 to 1 of 5 (Fisher's exact test)."""
    tests = json.loads(runsite("explain", RUN2, "--against", RUN1, "--json").stdout)["tests"]
    contains = next(c for c in tests["checks"] if c["check"] == "contains")
    assert (contains["pairs"], contains["worse"], contains["better"]) == (4, 2, 0)
    assert contains["mcnemar"]["p"] == 0.5
    assert contains["worse_beyond_chance"] is False
    [invoice] = [c for c in tests["cases"] if (c["case"], c["check"]) == ("invoice", "contains")]
    fisher = stats.fisher_exact([[1, 4], [5, 0]]).pvalue
    assert invoice == {
        "case": "invoice",
        "check": "contains",
        "p": round(fisher, 6),
        "test": "fisher",
    }


def test_the_significant_gate_exits_1_only_for_a_change_beyond_chance(runsite, write_json):
    """Four worse cases of four exit 1 past their tolerance and 0 under the significant gate;
    eight worse cases of eight exit 1 under both."""

    def runs(cases: int) -> tuple[str, str]:
        def run(status: str, at: str) -> str:
            score = 1.0 if status == "pass" else 0.0
            results = [
                {
                    "case_id": f"c{n}",
                    "suspended": False,
                    "verdicts": [a_verdict(score=score, status=status)],
                }
                for n in range(cases)
            ]
            return str(write_json(a_run(results=results, created_at=at), f"{status}{cases}.json"))

        return run("pass", "2026-11-29T10:00:00+00:00"), run("fail", "2026-11-30T10:00:00+00:00")

    for cases, significant in ((4, 0), (8, 1)):
        before, now = runs(cases)
        assert runsite("explain", now, "--against", before).exit_code == 1
        gated = runsite("explain", now, "--against", before, "--gate", "significant")
        assert gated.exit_code == significant, gated.output
        said = "got worse beyond chance" if significant else "Too few verdicts changed"
        assert said in gated.stdout
