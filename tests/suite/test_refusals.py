"""Every rule a suite can break is refused when it loads: one line naming the file, the entry
and the key, exit 64, nothing run and nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.suite._suites import write_suite

ACCURACY_OVER_SIGNED = (
    '[[assertions]]\ntype = "contains"\nneedle = "ok"\n'
    '[[assertions]]\ntype = "accuracy"\nover = "signed"\nthreshold = "1/2"\ntolerance = 0.1'
)
RUBRIC = '[[assertions]]\ntype = "llm_rubric"\nrubric = "r"\njudge = "judges:score"\n'

REFUSALS: dict[str, tuple[dict[str, Any], str]] = {
    "an unknown key, with the nearest one": (
        {"assertions": '[[assertions]]\ntype = "contains"\nneedle = "ok"\ntreshold = 0.5'},
        "suite.toml: [[assertions]] #1: treshold: not a key of contains; did you mean threshold?",
    ),
    "an unknown key in [suite]": (
        {"suite_extra": "sample = 3"},
        "suite.toml: [suite]: sample: not a key of [suite]; did you mean samples?",
    ),
    "an unknown check type": (
        {"assertions": '[[assertions]]\ntype = "contain"\nneedle = "ok"'},
        "suite.toml: [[assertions]] #1: type: not a check runsite knows; did you mean contains?",
    ),
    "contains with an empty needle": (
        {"assertions": '[[assertions]]\ntype = "contains"\nneedle = ""'},
        "suite.toml: [[assertions]] #1: needle: empty",
    ),
    "samples above 1 without min_agreement": (
        {"suite_extra": "samples = 3"},
        "suite.toml: [suite]: min_agreement: mandatory once samples > 1 (here 3)",
    ),
    "a ratio no sample count can produce": (
        {"suite_extra": 'samples = 5\nmin_agreement = "2/3"'},
        "suite.toml: [suite]: min_agreement: no count of 5 samples gives this share; "
        "one of 1/5, 2/5, 3/5, 4/5, 5/5",
    ),
    "duplicate case ids": (
        {"cases": [{"id": "a"}, {"id": "a"}]},
        "cases.json: case #2: id: the same case id appears twice",
    ),
    "an unknown case key": (
        {"cases": [{"id": "a", "expect": 1}]},
        "cases.json: case #1: expect: not a key of case; did you mean expected?",
    ),
    "no assertions": (
        {"assertions": ""},
        "suite.toml: [[assertions]]: a suite declares at least one check",
    ),
    "a case. reference naming no case field": (
        {
            "target": 'type = "http"\nurl = "http://127.0.0.1:9/"\noutput_path = "a"\n'
            '[target.body]\nquestion = "case.varz.question"',
        },
        "suite.toml: [target]: body.question: a case. reference that names no case field",
    ),
    "a function that cannot be imported": (
        {"target": 'type = "function"\nfunction = "missing_module:answer"'},
        "suite.toml: [target]: function: cannot import missing_module:answer (ModuleNotFoundError:",
    ),
    "a judge that cannot be imported": (
        {"assertions": RUBRIC + "threshold = 0.7\ntolerance = 0.05"},
        "suite.toml: [[assertions]]: judge: cannot import judges:score (ModuleNotFoundError:",
    ),
    "an llm rubric without its limits": (
        {"assertions": RUBRIC},
        "suite.toml: [[assertions]] #1: threshold: missing; tolerance: missing",
    ),
    "a typo beside a missing key: the typo first, then every problem": (
        {"assertions": RUBRIC + "treshold = 0.7"},
        "suite.toml: [[assertions]] #1: treshold: not a key of llm_rubric; did you mean "
        "threshold?; threshold: missing; tolerance: missing",
    ),
    "tools_called with a misspelt sequence, naming the key digline expects": (
        {"assertions": '[[assertions]]\ntype = "tools_called"\ntool = ["a"]'},
        "suite.toml: [[assertions]] #1: tool: not a key of tools_called; did you mean tools?; "
        "expected: missing",
    ),
    "an aggregate over a name two checks share": (
        {
            "assertions": '[[assertions]]\ntype = "contains"\nneedle = "a"\n[[assertions]]\ntype = "contains"\nneedle = "b"\n'
            '[[assertions]]\ntype = "accuracy"\nover = "contains"\nthreshold = 0.5\ntolerance = 0.1'
        },
        "suite.toml: [[assertions]] #3: over: names 2 per-case checks; give the one counted a name of its own",
    ),
    "a limit a repeated check takes from the check it repeats": (
        {
            "assertions": '[[assertions]]\ntype = "repeated"\nsamples = 3\nmin_agreement = "2/3"\nthreshold = 0.5\n'
            '[assertions.inner]\ntype = "contains"\nneedle = "ok"'
        },
        "suite.toml: [[assertions]] #1: threshold: not written in a runsite suite: a repeated "
        "check takes it from the check in inner",
    ),
    "patterns on pii_absent, which digline's file cannot give either": (
        {"assertions": '[[assertions]]\ntype = "pii_absent"\npatterns = ["x"]'},
        "suite.toml: [[assertions]] #1: patterns: not written in a runsite suite: patterns carry "
        "a checksum function",
    ),
    "a disclosure in the suite": (
        {"suite_extra": "disclosure = []"},
        "suite.toml: [suite]: disclosure: not written in a runsite suite: what leaves the "
        "perimeter is declared in runsite.toml",
    ),
    "a judge whose provider is not installed": (
        {
            "assertions": RUBRIC.replace("judges:score", "gemini/gemini-2.5-flash")
            + "threshold = 0.7\ntolerance = 0.05"
        },
        "suite.toml: [[assertions]]: judge: no provider 'gemini' is installed (installed: "
        "anthropic, openai); runsite's own are openai (pip install 'runsite[openai]') and "
        "anthropic (pip install 'runsite[anthropic]'), and another comes from a package that "
        "registers it in the entry-point group runsite.providers",
    ),
    "a provider target whose provider is not installed": (
        {
            "target": 'type = "provider"\nprovider = "mistral/small"\nprompt_file = "p.md"',
            "files": {"p.md": "Hello"},
        },
        "suite.toml: [target]: provider: no provider 'mistral' is installed (installed: "
        "anthropic, openai)",
    ),
    "a key in a provider target": (
        {"target": 'type = "provider"\nprovider = "anthropic/claude-haiku-4-5"\napi_key = "k"'},
        "suite.toml: [target]: api_key: a key never goes in a suite file",
    ),
    "a token in a provider target": (
        {"target": 'type = "provider"\nprovider = "anthropic/claude-haiku-4-5"\nauth_token = "t"'},
        "suite.toml: [target]: auth_token: a key never goes in a suite file",
    ),
    "an aggregate over no check": (
        {"assertions": ACCURACY_OVER_SIGNED},
        "suite.toml: [[assertions]] #2: over: names no per-case check of this suite",
    ),
    "a label that is neither positive nor negative": (
        {
            "assertions": '[[assertions]]\ntype = "contains"\nneedle = "ok"\n[[assertions]]\ntype = "accuracy"\n'
            'over = "contains"\nthreshold = "1/2"\ntolerance = 0.1',
            "cases": [{"id": "a", "label": "yes"}],
        },
        "cases.json: case #1: label: not one of 'positive' or 'negative'",
    ),
    "a regex that does not compile": (
        {"assertions": '[[assertions]]\ntype = "regex"\npattern = "(unclosed"'},
        "suite.toml: [[assertions]] #1: pattern: not a regular expression",
    ),
    "a length with no bound": (
        {"assertions": '[[assertions]]\ntype = "length"'},
        "suite.toml: [[assertions]] #1: minimum: a length check needs minimum, maximum or both",
    ),
    "a missing artifact": (
        {"suite_extra": 'artifacts = ["prompts/missing.txt"]'},
        "suite.toml: [suite]: artifacts: no such file: missing.txt",
    ),
    "a threshold given as a string that is not a count": (
        {"assertions": '[[assertions]]\ntype = "contains"\nneedle = "ok"\nthreshold = "high"'},
        "suite.toml: [[assertions]] #1: threshold: a JSON string, not a number",
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_a_broken_suite_is_refused_naming_the_file_entry_and_key(name, runsite, tmp_path: Path):
    overrides, expected = REFUSALS[name]
    suite = write_suite(tmp_path / "suite", **overrides)
    out = tmp_path / "run.json"

    result = runsite("run", str(suite), "--no-archive", "--out", str(out))

    assert result.exit_code == 64, result.output
    assert result.stdout == ""
    line = result.stderr.removeprefix("runsite: ")
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert line.startswith(str(tmp_path / "suite" / expected.split(":")[0])), line
    assert line.removeprefix(str(tmp_path / "suite") + "/").startswith(expected), line
    assert not out.exists()


def test_toml_that_does_not_parse_is_refused_naming_the_file(runsite, tmp_path: Path):
    suite = write_suite(tmp_path)
    suite.write_text("[suite\n", encoding="utf-8")
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 64
    assert result.stderr.startswith(f"runsite: {suite}: not valid TOML")


def test_meta_without_an_equals_sign_is_refused(runsite, tmp_path: Path):
    result = runsite(
        "run", str(write_suite(tmp_path)), "--meta", "oops", "--no-archive", "--out", "x"
    )
    assert result.exit_code == 64
    assert result.stderr == "runsite: --meta: takes KEY=VALUE\n"
