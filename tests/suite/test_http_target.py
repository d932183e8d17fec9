"""The http target against a real server on 127.0.0.1: answers, a timeout and an HTTP 500."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from generator.document.codec import read_run
from tests.suite._suites import answer_json, serving, write_suite


class _Application(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/slow":
            time.sleep(1.0)
        if self.path == "/anonymous":
            config: dict[str, object] = {"model": "m-7"}
        elif self.path == "/switching":
            config = {"provider": "acme-llm", "model": body["question"]}
        else:
            config = {"provider": "acme-llm", "model": "m-7", "temperature": 0.1}
        if self.path == "/broken":
            self.send_response(500)
            self.end_headers()
            return
        answer = {
            "data": {"answer": f"ok {body['question']}"},
            "usage": {"cost_usd": 0.0004, "elapsed_ms": 12.5},
            "config": config,
            "echo": {"channel": body["channel"], "auth": self.headers.get("X-Team")},
        }
        answer_json(self, answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    with serving(_Application) as url:
        yield url


def _target(url: str, timeout: float = 5.0) -> str:
    return (
        f'type = "http"\nurl = "{url}"\noutput_path = "data.answer"\ncost_path = "usage.cost_usd"\n'
        'latency_from_response = "usage.elapsed_ms"\nconfig_path = "config"\n'
        f'timeout = {timeout}\nheaders = {{ X-Team = "qa" }}\n'
        '[target.body]\nquestion = "case.vars.question"\nchannel = "email"'
    )


CASES = [{"id": "a", "vars": {"question": "where"}}]
CHECKS = '[[assertions]]\ntype = "contains"\nneedle = "ok where"\n[[assertions]]\ntype = "cost_budget"\nmax_usd = 0.001\ntolerance = 0.1'


def _measure(runsite, tmp_path: Path, url: str, timeout: float = 5.0):
    suite = write_suite(
        tmp_path,
        target=_target(url, timeout),
        cases=CASES,
        assertions=CHECKS,
        suite_extra="record_responses = true",
    )
    out = tmp_path / "run.json"
    result = runsite("run", str(suite), "--no-archive", "--out", str(out))
    return result, read_run(out.read_bytes()).run


def test_the_body_is_built_from_the_case_and_the_answer_read_from_its_paths(
    runsite, tmp_path, server
):
    result, run = _measure(runsite, tmp_path, f"{server}/answer")
    assert result.exit_code == 0
    assert [(v.assertion, v.status) for v in run.results[0].verdicts] == [
        ("contains", "pass"),
        ("cost_budget", "pass"),
    ]
    response = (run.results[0].responses or [])[0]
    assert (response.cost_usd, response.latency_ms, response.input) == (
        0.0004,
        12.5,
        '{"channel": "email", "question": "where"}',
    )
    # only what the application reported: neither the url nor a provider "http"
    assert run.target_config.values == {"model": "m-7", "provider": "acme-llm", "temperature": 0.1}


def test_a_timeout_is_an_error_not_a_fail(runsite, tmp_path, server):
    result, run = _measure(runsite, tmp_path, f"{server}/slow", timeout=0.2)
    assert result.exit_code == 2
    verdict = run.results[0].verdicts[0]
    assert (verdict.status, verdict.reason) == ("error", "the target did not answer within 0.2 s")
    assert run.results[0].error_kind == "raised"


def test_an_http_500_is_an_error_not_a_fail(runsite, tmp_path, server):
    result, run = _measure(runsite, tmp_path, f"{server}/broken")
    assert result.exit_code == 2
    assert {v.status for v in run.results[0].verdicts} == {"error"}
    assert run.results[0].verdicts[0].reason == "the target answered HTTP 500"


def _first_case(runsite, tmp_path: Path, target: str):
    """The first case of a run of the default checks against ``target``."""
    suite = write_suite(tmp_path, target=target, cases=CASES)
    runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "r.json"))
    return read_run((tmp_path / "r.json").read_bytes()).run.results[0]


def test_an_answer_without_the_output_path_is_an_error_of_shape(runsite, tmp_path, server):
    target = _target(f"{server}/answer")
    case = _first_case(
        runsite,
        tmp_path,
        target.replace('output_path = "data.answer"', 'output_path = "data.reply"'),
    )
    assert (case.error_kind, case.verdicts[0].reason) == ("shape", "the response has no data.reply")


def test_a_configuration_that_names_no_provider_is_refused_as_digline_refuses_it(
    runsite, tmp_path, server
):
    result, run = _measure(runsite, tmp_path, f"{server}/anonymous")
    assert result.exit_code == 2
    assert run.results[0].verdicts[0].reason == "the reported configuration names no provider"
    assert run.target_config.values is None


def test_an_application_that_contradicts_expect_config_errors_its_case(runsite, tmp_path, server):
    expecting = 'config_path = "config"\nexpect_config = { model = "m-8" }'
    target = _target(f"{server}/answer").replace('config_path = "config"', expecting)
    assert _first_case(runsite, tmp_path, target).verdicts[0].reason == (
        "the application reported a model the suite does not expect"
    )


def test_a_model_that_changes_part_way_through_errors_the_later_case(runsite, tmp_path, server):
    cases = [{"id": "a", "vars": {"question": "m-1"}}, {"id": "b", "vars": {"question": "m-2"}}]
    suite = write_suite(tmp_path, target=_target(f"{server}/switching"), cases=cases)
    runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "r.json"))
    run = read_run((tmp_path / "r.json").read_bytes()).run
    assert [c.verdicts[0].status for c in run.results] == ["pass", "error"]
    assert run.target_config.values == {"model": "m-1", "provider": "acme-llm"}
