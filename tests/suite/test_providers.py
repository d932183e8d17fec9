"""Provider targets and judges through the real SDKs, against stub APIs on 127.0.0.1 that speak
each API's wire format: what a run records of a real model's answer, its tools, its tokens and
its cost; the SDK's retries on 429 and 5xx; an error, never a fail, for every call that gave no
answer; a judge's score read from its reply; and a replay giving the live verdicts back."""

from __future__ import annotations

import json
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.document.codec import read_run
from generator.document.redact import redact
from tests.suite._model_api import (
    ANTHROPIC_USAGE,
    OPENAI_CACHED,
    OPENAI_USAGE,
    Stub,
    _judging,
    serving,
)
from tests.suite._suites import write_suite

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = [
    {"id": "capital", "vars": {"question": "What is the capital of France?"}},
    {"id": "order", "vars": {"question": "[tool] Where is order 4821?"}},
    {"id": "throttled", "vars": {"question": "[throttle] And the capital of France?"}},
    {"id": "broken", "vars": {"question": "[broken] Anything?"}},
    {"id": "garbled", "vars": {"question": "[garbled] Anything?"}},
    {"id": "mumble", "vars": {"question": "[mumble] Anything?"}},
]
CHECKS = """
[[assertions]]
type = "llm_rubric"
rubric = "Does the answer name the capital?"
judge = "{provider}/m-1"
threshold = 0.5
tolerance = 0.1

[[assertions]]
type = "never"
tool = "refund"

[[assertions]]
type = "cost_budget"
max_usd = 0.01
tolerance = 0.1
"""
TOOLS = """
  [[target.tools]]
  name = "lookup_order"
  description = "Find an order by its number"
  parameters = { type = "object", properties = { order = { type = "integer" } }, required = ["order"] }
"""
PRICES = {"input_per_mtok": 2.0, "output_per_mtok": 8.0, "cache_read_per_mtok": 0.5}
PROVIDERS: dict[str, dict[str, Any]] = {
    "openai": {
        "settings": 'base_url = "{url}/v1"\ntemperature = 0.0\nseed = 7',
        "pricing": PRICES,
        "usage": {
            "input_tokens": OPENAI_USAGE["prompt_tokens"] - OPENAI_CACHED,
            "output_tokens": OPENAI_USAGE["completion_tokens"],
            "cache_read_tokens": OPENAI_CACHED,
        },
        "judge_tokens": {"input_tokens": 50, "output_tokens": 10},
        "tool_text": "",
    },
    "anthropic": {
        "settings": 'base_url = "{url}"',
        "pricing": PRICES | {"cache_write_per_mtok": 2.5},
        "usage": {
            "input_tokens": ANTHROPIC_USAGE["input_tokens"],
            "output_tokens": ANTHROPIC_USAGE["output_tokens"],
            "cache_read_tokens": ANTHROPIC_USAGE["cache_read_input_tokens"],
            "cache_write_tokens": ANTHROPIC_USAGE["cache_creation_input_tokens"],
        },
        "judge_tokens": {"input_tokens": 50, "output_tokens": 10},
        "tool_text": "Let me look.",
    },
}


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Stub]:
    """The stub APIs, with the judges pointed at them the way a user points an SDK: by its own
    environment variables. OpenAI's key is left unset (a server of one's own needs none);
    Anthropic's SDK is handed a dummy, and no profile of the machine's."""
    with serving() as stub:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        monkeypatch.setenv("OPENAI_BASE_URL", f"{stub.url}/v1")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path / "no-profiles"))
        yield stub


def _suite(folder: Path, provider: str, url: str, **overrides: Any) -> Path:
    case = PROVIDERS[provider]
    rates = "".join(f"\n  {key} = {value}" for key, value in case["pricing"].items())
    target = (
        f'type = "provider"\nprovider = "{provider}/m-1"\nprompt_file = "prompt.md"\n'
        'system = "Answer in one sentence."\nmax_tokens = 200\n'
        f"max_retries = 2\n{case['settings'].format(url=url)}\n"
        f"{overrides.pop('extra', '')}\n  [target.pricing]{rates}\n{TOOLS}"
    )
    return write_suite(
        folder,
        target=target,
        cases=overrides.pop("cases", CASES),
        assertions=overrides.pop("assertions", CHECKS.format(provider=provider)),
        suite_extra="record_responses = true",
        files={"prompt.md": "Question: {question}"},
    )


def _run(runsite, suite: Path, out: Path, *extra: str) -> dict[str, Any]:
    result = runsite("run", str(suite), "--no-archive", "--out", str(out), *extra)
    assert result.exit_code == 0, result.output
    run: dict[str, Any] = json.loads(out.read_text())
    return run


def _by_case(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {case["case_id"]: case for case in run["results"]}


def _statuses(case: dict[str, Any]) -> list[str]:
    return [verdict["status"] for verdict in case["verdicts"]]


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_a_provider_run_records_the_answer_its_tools_its_tokens_and_its_cost(
    provider, runsite, api, tmp_path
):
    expected = PROVIDERS[provider]
    run = _run(runsite, _suite(tmp_path / "s", provider, api.url), tmp_path / "run.json")
    cases = _by_case(run)

    capital = cases["capital"]
    answer = capital["responses"][0]
    assert answer["output"] == "Paris, as asked: Question: What is the capital of France?"
    assert answer["input"] == "Question: What is the capital of France?"
    assert answer["usage"] == expected["usage"]
    assert (answer["finish"], answer["tools"], answer["tool_calls"]) == ("stop", [], [])
    assert answer["steps"] == [{"index": 0, "actor": "model", "finish": "stop"}]
    rates = expected["pricing"]
    cost = sum(
        answer["usage"].get(tokens, 0) * rates.get(rate, 0) / 1_000_000
        for tokens, rate in (
            ("input_tokens", "input_per_mtok"),
            ("output_tokens", "output_per_mtok"),
            ("cache_read_tokens", "cache_read_per_mtok"),
            ("cache_write_tokens", "cache_write_per_mtok"),
        )
    )
    assert answer["cost_usd"] == round(cost, 6)
    assert _statuses(capital) == ["pass", "pass", "pass"]
    rubric = capital["verdicts"][0]
    assert (rubric["score"], rubric["reason"], rubric["judged"]) == (0.9, "graded 0.9", True)

    order = cases["order"]["responses"][0]
    call = {
        "tool": "lookup_order",
        "arguments": '{"order":4821}',
        "result_absence": "not_reported",
        "status": "not_reported",
    }
    assert (order["output"], order["finish"]) == (expected["tool_text"], "tool_use")
    assert (order["tools"], order["tool_calls"]) == (["lookup_order"], [call])
    assert order["steps"] == [
        {"index": 0, "actor": "model", "finish": "tool_use"},
        {"index": 1, "actor": "tool", "call": call},
    ]
    assert _statuses(cases["order"]) == ["fail", "pass", "pass"]

    assert api.asked("[throttle]") == 2
    assert _statuses(cases["throttled"]) == ["pass", "pass", "pass"]

    assert api.asked("[broken]") == 3
    broken = cases["broken"]
    assert (_statuses(broken), broken["error_kind"]) == (["error"] * 3, "raised")
    assert (
        broken["verdicts"][0]["reason"]
        == "the API answered HTTP 500 after 2 retries: stub says 500"
    )
    assert set(broken["responses"][0]) == {"latency_ms"}

    garbled = cases["garbled"]
    assert (_statuses(garbled), garbled["error_kind"]) == (["error"] * 3, "shape")
    assert garbled["verdicts"][0]["reason"] == "the API's reply is not JSON"

    mumbled = cases["mumble"]["verdicts"][0]
    assert (mumbled["status"], mumbled["reason"]) == (
        "error",
        "the judge's reply holds no JSON object: 'I cannot decide.'",
    )

    config = run["target_config"]["values"]
    assert config == {
        "provider": provider,
        "model": "m-1",
        "resolved_model": "m-1-2026-01-01",
        "base_url": api.url.removeprefix("http://"),
        "max_tokens": 200,
        **({"temperature": 0.0, "seed": 7} if provider == "openai" else {}),
        **rates,
    }
    assert run["artifacts"]["prompt.md"]["text"] == "Question: {question}"
    target, judge = run["usage"]["target"], run["usage"]["judge"]
    assert (target["calls"], target["counted"], target["every_cost_known"]) == (6, 4, False)
    assert target["tokens"] == {key: 4 * count for key, count in expected["usage"].items()}
    assert (judge["calls"], judge["counted"], judge["every_cost_known"]) == (4, 4, True)
    assert judge["tokens"] == {key: 4 * n for key, n in expected["judge_tokens"].items()}
    assert judge["spent_usd"] == round(4 * (50 * 2.0 + 10 * 8.0) / 1_000_000, 6)
    assert run["judge_config"]["identities"] == [f"{provider}/m-1"]


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_the_api_is_asked_in_its_own_form(provider, runsite, api, tmp_path):
    _run(runsite, _suite(tmp_path / "s", provider, api.url), tmp_path / "run.json")
    path, sent = next(
        (path, body) for path, body in api.requests if "capital of France?" in str(body)
    )
    schema = {
        "type": "object",
        "properties": {"order": {"type": "integer"}},
        "required": ["order"],
    }
    tool = {"name": "lookup_order", "description": "Find an order by its number"}
    if provider == "openai":
        assert path == "/v1/chat/completions"
        assert sent["messages"] == [
            {"role": "system", "content": "Answer in one sentence."},
            {"role": "user", "content": "Question: What is the capital of France?"},
        ]
        assert (sent["max_tokens"], sent["temperature"], sent["seed"]) == (200, 0.0, 7)
        assert sent["tools"] == [{"type": "function", "function": tool | {"parameters": schema}}]
    else:
        assert path == "/v1/messages"
        assert sent["system"] == "Answer in one sentence."
        assert sent["messages"] == [
            {"role": "user", "content": "Question: What is the capital of France?"}
        ]
        assert sent["max_tokens"] == 200
        assert sent["tools"] == [tool | {"input_schema": schema}]


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_a_replay_gives_the_live_verdicts_back(provider, runsite, api, tmp_path):
    suite = _suite(tmp_path / "s", provider, api.url)
    live = _run(runsite, suite, tmp_path / "live.json")
    asked = api.asked("")
    replayed = tmp_path / "replayed.json"
    result = runsite(
        "replay",
        str(suite),
        "--run",
        str(tmp_path / "live.json"),
        "--no-archive",
        "--out",
        str(replayed),
    )
    assert result.exit_code == 0, result.output
    again = json.loads(replayed.read_text())

    def verdicts(run: dict[str, Any]) -> list[tuple[str, str, str, float | None]]:
        return [
            (case["case_id"], v["assertion_id"], v["status"], v["score"])
            for case in run["results"]
            for v in case["verdicts"]
        ]

    assert verdicts(again) == verdicts(live)
    assert api.asked("") == asked
    assert again["usage"]["target"]["calls"] == 0
    assert again["usage"]["judge"]["calls"] == live["usage"]["judge"]["calls"]


def test_a_call_that_times_out_is_an_error_after_the_sdks_own_timeout(runsite, api, tmp_path):
    suite = _suite(
        tmp_path / "s",
        "openai",
        api.url,
        extra="timeout = 0.2\nmax_retries = 0",
        cases=[{"id": "slow", "vars": {"question": "[slow] Anything?"}}],
        assertions='[[assertions]]\ntype = "contains"\nneedle = "Paris"',
    ).read_text()
    path = tmp_path / "s" / "suite.toml"
    path.write_text(suite.replace("max_retries = 2\n", ""))
    out = tmp_path / "run.json"
    result = runsite("run", str(path), "--no-archive", "--out", str(out))
    assert result.exit_code == 2, result.output
    slow = json.loads(out.read_text())["results"][0]
    assert slow["verdicts"][0]["reason"] == "the API did not answer within 0.2 s"
    assert slow["error_kind"] == "raised"


def test_calls_run_side_by_side_up_to_the_concurrency(runsite, api, tmp_path):
    """Each [pair] call is answered only while the other is in flight: with one call at a time
    neither would be."""
    cases = [{"id": f"p{n}", "vars": {"question": f"[pair] {n}"}} for n in (1, 2)]
    suite = _suite(
        tmp_path / "s",
        "openai",
        api.url,
        cases=cases,
        assertions='[[assertions]]\ntype = "contains"\nneedle = "Paris"',
    )
    run = _run(runsite, suite, tmp_path / "run.json", "--concurrency", "2")
    assert [(c["case_id"], _statuses(c)) for c in run["results"]] == [
        ("p1", ["pass"]),
        ("p2", ["pass"]),
    ]


def test_without_a_price_the_cost_is_unknown_and_says_why(runsite, api, tmp_path):
    suite = _suite(tmp_path / "s", "openai", api.url, cases=CASES[:1])
    suite.write_text(suite.read_text().replace("[target.pricing]", "[target.unpriced]"))
    suite.write_text(
        "\n".join(
            line
            for line in suite.read_text().splitlines()
            if "[target.unpriced]" not in line and "_per_mtok" not in line
        )
    )
    run = _run(runsite, suite, tmp_path / "run.json")
    case = run["results"][0]
    assert "cost_usd" not in case["responses"][0]
    budget = case["verdicts"][2]
    assert (budget["status"], budget["reason"]) == (
        "error",
        "no price is declared for this model: [target.pricing] is absent",
    )
    assert run["usage"]["target"]["every_cost_known"] is False
    assert run["usage"]["judge"]["every_cost_known"] is False
    assert "input_per_mtok" not in run["target_config"]["values"]


def test_a_claim_judge_counts_the_claims_from_its_reply(runsite, api, tmp_path):
    checks = (
        '[[assertions]]\ntype = "faithfulness"\njudge = "anthropic/m-2"\n'
        "threshold = 0.5\ntolerance = 0.1"
    )
    cases = [{"id": "grounded", "vars": {"question": "Capital?"}, "context": ["Paris is it."]}]
    suite = _suite(tmp_path / "s", "openai", api.url, cases=cases, assertions=checks)
    run = _run(runsite, suite, tmp_path / "run.json")
    verdict = run["results"][0]["verdicts"][0]
    assert (verdict["score"], verdict["status"]) == (0.5, "pass")
    assert verdict["metadata"] == {"claims_total": 2, "claims_supported": 1}
    judge = run["usage"]["judge"]
    assert (judge["calls"], judge["counted"], judge["every_cost_known"]) == (1, 1, False)
    assert run["judge_config"] == {
        "identities": ["anthropic/m-2"],
        "values": {
            "provider": "anthropic",
            "model": "m-2",
            "max_tokens": 400,
            "base_url": api.url.removeprefix("http://"),
        },
    }


REFUSED: dict[str, tuple[str, str, dict[str, str | None], str]] = {
    "an SDK that is not installed": (
        "openai",
        "max_tokens = 5",
        {"sdk": "openai"},
        "openai refused this set-up (its SDK is not installed: pip install 'runsite[openai]')",
    ),
    "no OpenAI key for OpenAI's own endpoint": (
        "openai",
        "max_tokens = 5",
        {"OPENAI_BASE_URL": None},
        "openai refused this set-up (no key: the openai SDK reads it from OPENAI_API_KEY, "
        "which is not set)",
    ),
    "no Anthropic key": (
        "anthropic",
        "max_tokens = 5",
        {"ANTHROPIC_API_KEY": None},
        "anthropic refused this set-up (no key: the anthropic SDK reads it from "
        "ANTHROPIC_API_KEY, which is not set)",
    ),
    "a parameter Anthropic's API does not take": (
        "anthropic",
        "max_tokens = 5\ntemperature = 0.2\nseed = 3",
        {},
        "anthropic refused this set-up (it takes no seed, temperature: the Anthropic Messages "
        "API takes none)",
    ),
    "a parameter OpenAI's API does not take": (
        "openai",
        "max_tokens = 5\ntop_k = 3",
        {},
        "openai refused this set-up (it takes no top_k)",
    ),
    "no max_tokens": ("anthropic", "", {}, "anthropic refused this set-up (max_tokens: missing)"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_provider_refuses_what_it_cannot_run_before_anything_runs(
    name, runsite, api, tmp_path, monkeypatch
):
    provider, settings, environment, expected = REFUSED[name]
    for variable, value in environment.items():
        if variable == "sdk":
            monkeypatch.setitem(sys.modules, str(value), None)
        elif value is None:
            monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    target = f'type = "provider"\nprovider = "{provider}/m-1"\nprompt_file = "p.md"\n{settings}'
    suite = write_suite(tmp_path / "s", target=target, files={"p.md": "Hello"})
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 64, result.output
    assert result.stderr == f"runsite: {suite}: [target]: provider: {expected}\n"
    assert api.requests == []


PROMPT_REFUSED: dict[str, tuple[str, str]] = {
    "a slot no case fills": (
        'prompt_file = "p.md"\nsystem = "Speak as {persona}."',
        "[target]: system: the case 'a' gives no vars.persona, which system asks for",
    ),
    "a prompt file that is not there": (
        'prompt_file = "missing.md"',
        "[target]: prompt_file: no such file: missing.md",
    ),
    "two system prompts": (
        'prompt_file = "p.md"\nsystem = "s"\nsystem_file = "p.md"',
        "[target]: system_file: give system or system_file, not both",
    ),
    "a tool whose parameters are not a JSON Schema": (
        'prompt_file = "p.md"\n[[target.tools]]\nname = "t"\nparameters = { type = 3 }',
        "[target]: tools[0]: parameters: not a valid JSON Schema",
    ),
    "no prompt file, which runsite's own providers send as the user message": (
        "",
        "[target]: provider: openai refused this set-up (it sends prompt_file as the user "
        "message, and none is declared)",
    ),
}


@pytest.mark.parametrize("name", list(PROMPT_REFUSED))
def test_a_prompt_that_cannot_be_sent_is_refused_naming_its_key(name, runsite, api, tmp_path):
    keys, expected = PROMPT_REFUSED[name]
    target = f'type = "provider"\nprovider = "openai/m-1"\nmax_tokens = 5\n{keys}'
    suite = write_suite(tmp_path / "s", target=target, files={"p.md": "Hello"})
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 64, result.output
    assert result.stderr.startswith(f"runsite: {suite}: {expected}"), result.stderr


def test_the_local_model_example_runs_against_an_openai_compatible_server(runsite, api, tmp_path):
    folder = tmp_path / "local-model"
    shutil.copytree(EXAMPLES / "local-model", folder)
    suite = folder / "suite.toml"
    suite.write_text(suite.read_text().replace("http://127.0.0.1:11434", api.url))
    run = _run(runsite, suite, tmp_path / "run.json")
    assert [(c["case_id"], _statuses(c)) for c in run["results"]] == [
        (case, ["pass"] * 4) for case in ("france", "seine", "louvre")
    ]
    asked = next(body for _, body in api.requests if not _judging(body))
    assert asked["model"] == "llama3.2"
    assert asked["messages"][-1]["content"] == (
        "A student asks a question about geography:\n\nWhat is the capital of France?\n"
    )
    assert set(run["artifacts"]) == {"prompts/question.md", "prompts/system.md"}
    assert run["usage"]["target"]["every_cost_known"] is True
    assert run["target_config"]["values"]["resolved_model"] == "llama3.2-2026-01-01"
    published = redact(read_run((tmp_path / "run.json").read_bytes()).run)
    assert published.target_config.withheld == [
        "base_url",
        "cache_read_per_mtok",
        "input_per_mtok",
        "output_per_mtok",
        "resolved_model",
    ]


def test_a_run_ends_with_its_tally_and_the_first_reason_a_model_could_not_be_reached(
    runsite, api, tmp_path, monkeypatch
):
    folder = tmp_path / "local-model"
    shutil.copytree(EXAMPLES / "local-model", folder)
    suite = folder / "suite.toml"
    suite.write_text(suite.read_text().replace("http://127.0.0.1:11434", api.url))
    answered = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "one.json"))
    assert answered.exit_code == 0, answered.output
    assert answered.stderr == "12 passed, 0 failed, 0 not judged\n"
    with socket.socket() as taken:  # a port nothing listens on once it is let go
        taken.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{taken.getsockname()[1]}"
    settings = suite.read_text().replace(api.url, closed)
    suite.write_text(settings.replace("seed = 7", "seed = 7\nmax_retries = 0"))
    monkeypatch.setenv("OPENAI_BASE_URL", f"{closed}/v1")
    down = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "two.json"))
    assert down.exit_code == 2
    assert down.stdout.count("\n") == 1  # the key alone, for a script to read
    assert down.stderr == (
        "0 passed, 0 failed, 12 not judged\n"
        f"runsite: the first check not judged: the API could not be reached at {closed[7:]}\n"
    )


def test_a_judge_without_its_key_is_refused_naming_the_variable(
    runsite, api, tmp_path, monkeypatch
):
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    checks = (
        '[[assertions]]\ntype = "llm_rubric"\nrubric = "r"\njudge = "anthropic/m-1"\n'
        "threshold = 0.5\ntolerance = 0.1"
    )
    suite = write_suite(tmp_path / "s", assertions=checks)
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    assert result.exit_code == 64, result.output
    assert result.stderr == (
        f"runsite: {suite}: [[assertions]]: judge: anthropic cannot judge with 'm-1' (no key: "
        "the anthropic SDK reads it from ANTHROPIC_API_KEY, which is not set)\n"
    )


def test_the_same_answers_make_the_same_document_whatever_the_concurrency(runsite, api, tmp_path):
    suite = _suite(tmp_path / "s", "anthropic", api.url)
    one = _run(runsite, suite, tmp_path / "one.json")
    four = _run(runsite, suite, tmp_path / "four.json", "--concurrency", "4")

    def measured(run: dict[str, Any]) -> Any:
        for case in run["results"]:
            for response in case.get("responses", []):
                del response["latency_ms"]
        return run["results"], run["usage"], run["target_config"], run["config_hash"]

    assert measured(four) == measured(one)
