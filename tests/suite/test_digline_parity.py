"""Where a digline suite of a few lines once judged otherwise in runsite: each test holds the
answer digline 0.34 gives (read from its source and its documents in the corpus), so a run of
the same suite gives the same statuses, identities and exit code in both tools."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, ClassVar

import pytest

from generator.document.codec import read_run
from tests.suite._suites import answer_json, serving, write_suite


class _Application(BaseHTTPRequestHandler):
    """Answers each POST with the reply set for its path, and keeps the bodies it was sent."""

    replies: ClassVar[dict[str, Any]] = {}
    received: ClassVar[list[Any]] = []

    def do_POST(self) -> None:
        self.received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        answer_json(self, self.replies[self.path])

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def application() -> Iterator[str]:
    _Application.replies, _Application.received = {}, []
    with serving(_Application) as url:
        yield url


def _agent(url: str, calls: list[Any], body: str = 'question = "case.id"') -> str:
    """An http target whose application answers "done" after ``calls``."""
    _Application.replies["/agent"] = {
        "answer": "done",
        "calls": calls,
        "tools": [call.get("tool") for call in calls],
    }
    return (
        f'type = "http"\nurl = "{url}/agent"\noutput_path = "answer"\ntools_path = "tools"\n'
        f'tool_calls_path = "calls"\n[target.body]\n{body}'
    )


TOOL_CHECKS = """
[[assertions]]
type = "tools_called"
expected = ["lookup", "refund"]

[[assertions]]
type = "tool_called_with"
tool = "refund"
arguments = { amount = 12.5 }
match = "subset"

[[assertions]]
type = "contains"
needle = "done"
"""


def _run(runsite, suite: Path, out: Path) -> tuple[int, Any]:
    result = runsite("run", str(suite), "--no-archive", "--out", str(out))
    assert result.exit_code in (0, 1, 2), result.output
    return result.exit_code, read_run(out.read_bytes()).run


def _statuses(run: Any) -> list[tuple[str, str]]:
    return [(v.assertion, v.status) for v in run.results[0].verdicts]


@pytest.mark.parametrize(
    ("amount", "status", "recorded"),
    [
        (12.5000001, "pass", "12.5"),
        (12.5000004, "pass", "12.5"),
        (12.5000006, "fail", "12.500001"),
    ],
)
def test_a_tool_argument_is_compared_and_recorded_at_six_decimals_as_digline_does(
    amount, status, recorded, runsite, tmp_path, application
):
    call = {"tool": "refund", "arguments": {"amount": amount}, "status": "success"}
    lookup = {"tool": "lookup", "arguments": {}, "status": "success"}
    suite = write_suite(
        tmp_path,
        target=_agent(application, [lookup, call]),
        cases=[{"id": "a"}],
        assertions=TOOL_CHECKS,
        suite_extra="record_responses = true",
    )
    code, run = _run(runsite, suite, tmp_path / "run.json")
    assert dict(_statuses(run))["tool_called_with"] == status
    assert code == 0
    calls = (run.results[0].responses or [])[0].tool_calls or []
    assert calls[1].arguments == f'{{"amount":{recorded}}}'


def test_a_call_nobody_named_fails_tools_called_and_leaves_the_other_checks_judged(
    runsite, tmp_path, application
):
    unnamed = {"tool": None, "arguments": {"amount": 12.5}, "status": "success"}
    lookup = {"tool": "lookup", "arguments": {}, "status": "success"}
    suite = write_suite(
        tmp_path,
        target=_agent(application, [lookup, unnamed, lookup]),
        cases=[{"id": "a"}],
        assertions=TOOL_CHECKS,
        suite_extra="record_responses = true",
    )
    _, run = _run(runsite, suite, tmp_path / "run.json")
    # three calls where two are declared: the unnamed one cannot make the sequence right
    assert _statuses(run) == [
        ("tools_called", "fail"),
        ("tool_called_with", "error"),
        ("contains", "pass"),
    ]
    assert (run.results[0].responses or [])[0].tools == ["lookup", None, "lookup"]


def test_a_tool_call_an_application_reports_without_a_status_errors_every_check_of_its_case(
    runsite, tmp_path, application
):
    calls = [{"tool": "lookup", "arguments": {}}, {"tool": "refund", "arguments": {"amount": 1}}]
    suite = write_suite(
        tmp_path,
        target=_agent(application, calls),
        cases=[{"id": "a"}],
        assertions=TOOL_CHECKS,
    )
    code, run = _run(runsite, suite, tmp_path / "run.json")
    assert (code, {status for _, status in _statuses(run)}) == (2, {"error"})
    assert run.results[0].verdicts[0].reason == "metadata.tool_calls[0] has no status"


def test_a_text_check_that_accepts_structured_output_errors_on_it_rather_than_crashing(
    runsite, tmp_path
):
    suite = write_suite(
        tmp_path,
        app="def answer(case):\n    return {'output': {'reply': 'ok'}}\n",
        cases=[{"id": "a"}],
        assertions='[[assertions]]\ntype = "not_contains"\nneedle = "sorry"\n'
        'accepts = ["text", "structured"]',
    )
    code, run = _run(runsite, suite, tmp_path / "run.json")
    assert (code, _statuses(run)) == (2, [("not_contains", "error")])
    assert run.results[0].verdicts[0].reason == (
        "the output is structured, and this check reads it only as text"
    )


def test_a_reference_inside_an_array_of_the_body_is_posted_as_written(
    runsite, tmp_path, application
):
    target = _agent(application, [], body='question = "case.id"\ntags = ["case.id", 1]')
    suite = write_suite(tmp_path, target=target, cases=[{"id": "a"}])
    _run(runsite, suite, tmp_path / "run.json")
    assert _Application.received == [{"question": "a", "tags": ["case.id", 1]}]


def test_a_body_field_a_case_leaves_out_is_posted_as_digline_posts_its_default(
    runsite, tmp_path, application
):
    body = 'context = "case.context"\nexpected = "case.expected"\nid = "case.id"'
    suite = write_suite(
        tmp_path,
        target=_agent(application, [], body=body),
        cases=[{"id": "a", "context": ["c"], "expected": "e"}, {"id": "b"}],
    )
    code, _ = _run(runsite, suite, tmp_path / "run.json")
    assert code == 0
    assert _Application.received == [
        {"context": ["c"], "expected": "e", "id": "a"},
        {"context": [], "expected": None, "id": "b"},
    ]


def test_a_case_without_the_var_its_body_names_errors_and_the_others_run(
    runsite, tmp_path, application
):
    target = _agent(application, [], body='question = "case.vars.question"')
    cases = [{"id": "a", "vars": {"question": "q"}}, {"id": "b"}]
    suite = write_suite(tmp_path, target=target, cases=cases)
    _, run = _run(runsite, suite, tmp_path / "run.json")
    assert [c.verdicts[0].status for c in run.results] == ["fail", "error"]
    assert run.results[1].verdicts[0].reason == (
        "the case has no case.vars.question, which the body asks for"
    )
    assert _Application.received == [{"question": "q"}]


AGGREGATE = (
    '[[assertions]]\ntype = "contains"\nname = "decision"\nneedle = "ok"\n'
    '[[assertions]]\ntype = "accuracy"\nover = "decision"\nthreshold = 0.5\ntolerance = 0.1'
)


@pytest.mark.parametrize("unlabelled", [{"id": "c"}, {"id": "c", "suspended": "being rewritten"}])
def test_a_case_without_a_label_in_a_suite_with_an_aggregate_is_refused(
    unlabelled, runsite, tmp_path
):
    cases = [{"id": "a", "label": "positive"}, unlabelled]
    suite = write_suite(tmp_path, cases=cases, assertions=AGGREGATE)
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 64, result.output
    assert result.stderr.strip().endswith(
        "cases.json: case #2: label: missing, and an aggregate of the suite counts it"
    )
    assert not (tmp_path / "run.json").exists()


def test_a_canary_needs_no_label_in_a_suite_with_an_aggregate(runsite, tmp_path):
    cases = [{"id": "a", "label": "positive"}, {"id": "c", "canary": True}]
    suite = write_suite(
        tmp_path,
        cases=cases,
        assertions=AGGREGATE,
        suite_extra='samples = 2\nmin_agreement = "2/2"',
    )
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 0, result.output


def test_a_floor_width_written_as_an_integer_enters_the_hash_as_digline_enters_its_float(
    runsite, tmp_path
):
    hashes = []
    for width in ("2", "2.0"):
        checks = (
            f'[[assertions]]\ntype = "contains"\nneedle = "ok"\nfloor_standard_errors = {width}'
        )
        suite = write_suite(tmp_path / width, assertions=checks)
        _, run = _run(runsite, suite, tmp_path / width / "run.json")
        hashes.append(run.config_hash)
        assert run.results[0].verdicts[0].floor_standard_errors == 2.0
        assert '"floor_standard_errors": 2.0' in (tmp_path / width / "run.json").read_text()
    assert hashes[0] == hashes[1]


def test_a_provider_whose_target_reads_no_prompt_file_goes_without_one(
    runsite, tmp_path, fake_provider
):
    suite = write_suite(
        tmp_path,
        target='type = "provider"\nprovider = "fake/fake-1"',
        assertions='[[assertions]]\ntype = "contains"\nneedle = "fake-1 answers"',
    )
    code, run = _run(runsite, suite, tmp_path / "run.json")
    assert (code, _statuses(run)) == (0, [("contains", "pass")])


def _python_312() -> str | None:
    """A Python 3.12 that runs (a version manager's shim may stand for one not installed)."""
    found = shutil.which("python3.12")
    ran = found and subprocess.run([found, "-c", ""], capture_output=True, check=False)
    return found if ran and ran.returncode == 0 else None


DIGLINE_PYTHON = _python_312()


@pytest.mark.skipif(
    DIGLINE_PYTHON is None,
    reason="digline 0.34 needs Python 3.12 and this machine has none: the answers it gives "
    "are the ones written in the tests above",
)
def test_digline_itself_judges_the_tool_argument_suite_as_runsite_does(
    runsite, tmp_path, application
):
    venv = tmp_path / "digline"
    subprocess.run([str(DIGLINE_PYTHON), "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin/pip"), "install", "-q", "digline==0.34.0"], check=True)
    call = {"tool": "refund", "arguments": {"amount": 12.5000001}, "status": "success"}
    lookup = {"tool": "lookup", "arguments": {}, "status": "success"}
    suite = write_suite(
        tmp_path / "suite",
        target=_agent(application, [lookup, call]),
        cases=[{"id": "a"}],
        assertions=TOOL_CHECKS,
    )
    digline = [str(venv / "bin/digline"), "run", "--suite", str(suite), "--root", str(tmp_path)]
    subprocess.run(digline, check=False)
    (written,) = (tmp_path / ".digline").rglob("*.json")
    theirs = json.loads(written.read_text())
    _, ours = _run(runsite, suite, tmp_path / "run.json")
    assert ours.config_hash == theirs["config_hash"]
    assert [(v.assertion_id, v.status) for v in ours.results[0].verdicts] == [
        (v["assertion_id"], v["status"]) for v in theirs["results"][0]["verdicts"]
    ]
