"""Every refusal and every error of the trajectory checks, on the line a user reads."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.document.codec import read_run
from tests.suite._suites import write_suite


def _checks(*entries: str) -> str:
    return "\n".join(f"[[assertions]]\n{textwrap.dedent(entry).strip()}" for entry in entries)


BUILD = {
    "an empty subsequence": (
        _checks('type = "subsequence"\ntools = []'),
        "[[assertions]] #1: tools: empty",
    ),
    "an empty name": (_checks('type = "never"\ntool = ""'), "[[assertions]] #1: tool: empty"),
    "an empty name in a list, in runsite's spelling": (
        _checks('type = "tools_called"\ntools = ["a", ""]'),
        "[[assertions]] #1: expected[1]: empty",
    ),
    "tools_called without its sequence, named as digline names it": (
        _checks('type = "tools_called"'),
        "[[assertions]] #1: expected: missing",
    ),
    "before a tool and itself": (
        _checks('type = "before"\nfirst = "a"\nthen = "a"'),
        "[[assertions]] #1: then: the same tool as first; a tool cannot come before itself",
    ),
    "a limit below 1": (
        _checks('type = "max_steps"\nlimit = 0\ncount = "model"'),
        "[[assertions]] #1: limit: below 1",
    ),
    "max_steps without count": (
        _checks('type = "max_steps"\nlimit = 3'),
        "[[assertions]] #1: count: missing",
    ),
    "tool_called_with with nothing to match": (
        _checks('type = "tool_called_with"\ntool = "a"\narguments = {}'),
        "[[assertions]] #1: arguments: empty",
    ),
    "a threshold other than 1": (
        _checks('type = "never"\ntool = "a"\nthreshold = 0.5'),
        "[[assertions]] #1: threshold: below 1.0",
    ),
    "never beside a subsequence that requires the tool": (
        _checks('type = "subsequence"\ntools = ["a", "b"]', 'type = "never"\ntool = "b"'),
        "[[assertions]] #2: tool: never calling a tool that another check requires (check #1)",
    ),
    "never beside tools_called that requires the tool": (
        _checks('type = "never"\ntool = "a"', 'type = "tools_called"\nexpected = ["a"]'),
        "[[assertions]] #2: expected: never calling a tool that another check requires (check #1)",
    ),
    "never beside tool_called_with on the tool": (
        _checks(
            'type = "tool_called_with"\ntool = "a"\narguments = { x = 1 }\nmatch = "subset"',
            'type = "never"\ntool = "a"',
        ),
        "[[assertions]] #2: tool: never calling a tool that another check requires (check #1)",
    ),
    "never beside before(_, x)": (
        _checks('type = "before"\nfirst = "a"\nthen = "b"', 'type = "never"\ntool = "b"'),
        "[[assertions]] #2: tool: never calling a tool that a before check orders (check #1)",
    ),
    "never beside before(x, _)": (
        _checks('type = "never"\ntool = "a"', 'type = "before"\nfirst = "a"\nthen = "b"'),
        "[[assertions]] #2: then: never calling a tool that a before check orders (check #1)",
    ),
    "before both ways": (
        _checks(
            'type = "before"\nfirst = "a"\nthen = "b"',
            'type = "before"\nname = "back"\nfirst = "b"\nthen = "a"',
        ),
        "[[assertions]] #2: then: two before checks that order the same tools both ways (check #1)",
    ),
    "a tool-step limit below a subsequence": (
        _checks(
            'type = "subsequence"\ntools = ["a", "b", "c"]',
            'type = "max_steps"\nlimit = 2\ncount = "tool"',
        ),
        "[[assertions]] #2: limit: a tool-step limit below the number of calls another check requires (check #1)",
    ),
}


@pytest.mark.parametrize("name", list(BUILD))
def test_a_trajectory_check_that_cannot_hold_is_refused_when_the_suite_loads(
    name, runsite, tmp_path: Path
):
    checks, expected = BUILD[name]
    suite = write_suite(tmp_path, assertions=checks)
    result = runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "r.json"))
    assert result.exit_code == 64
    assert result.stderr == f"runsite: {suite}: {expected}\n"


def test_a_tool_step_limit_that_leaves_room_is_accepted(runsite, tmp_path: Path):
    checks = _checks(
        'type = "subsequence"\ntools = ["a", "b"]', 'type = "max_steps"\nlimit = 2\ncount = "tool"'
    )
    result = runsite(
        "run",
        str(write_suite(tmp_path, assertions=checks)),
        "--no-archive",
        "--out",
        str(tmp_path / "r.json"),
    )
    assert result.exit_code == 2, (
        result.output
    )  # nothing reported a trajectory, so every check errored


def _verdict(runsite, tmp_path: Path, metadata: str, check: str, app: str | None = None):
    app = app or f"def answer(case):\n    return {{'output': 'x', 'metadata': {metadata}}}\n"
    suite = write_suite(tmp_path, app=app, assertions=_checks(check), cases=[{"id": "a"}])
    runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "r.json"))
    verdict = read_run((tmp_path / "r.json").read_bytes()).run.results[0].verdicts[0]
    return verdict.status, verdict.reason


ERRORS = {
    "nothing reported, for a check on names": (
        "{}",
        'type = "tools_called"\ntools = ["a"]',
        "the target reported no steps, tools or tool_calls: return them in its metadata, "
        "or hand each model call to generator.record_call",
    ),
    "nothing but tools, for max_steps": (
        "{'tools': ['a']}",
        'type = "max_steps"\nlimit = 2\ncount = "model"',
        "the target reported no steps: return metadata.steps, or hand each model call to generator.record_call",
    ),
    "nothing with arguments, for tool_called_with": (
        "{'tools': ['a']}",
        'type = "tool_called_with"\ntool = "a"\narguments = { q = 1 }\nmatch = "exact"',
        "the target reported neither tool_calls nor steps: return them in its metadata, or hand each "
        "model call to generator.record_call",
    ),
    "a model step on tool use with no tool step after it": (
        "{'steps': [{'index': 0, 'actor': 'model', 'finish': 'tool_use'}, {'index': 1, 'actor': 'model', 'finish': 'end_turn'}]}",
        'type = "never"\ntool = "a"',
        "step 0 finished on tool use and no tool step follows it",
    ),
    "arguments that are not JSON": (
        "{'tool_calls': [{'tool': 'a', 'arguments': '{not json'}]}",
        'type = "tool_called_with"\ntool = "a"\narguments = { q = 1 }\nmatch = "subset"',
        "no readable call of the tool had the declared arguments, and a call with no name, or "
        "with arguments that are not a JSON object, may be the one",
    ),
    "an unnamed call the verdict turns on": (
        "{'tool_calls': [{'tool': None}, {'tool': 'b'}]}",
        'type = "before"\nfirst = "a"\nthen = "b"',
        "a call nobody named decides this verdict",
    ),
    "steps and tool_calls that disagree": (
        "{'steps': [{'index': 0, 'actor': 'model'}, {'index': 1, 'actor': 'tool', 'tool': 'a'}], 'tool_calls': [{'tool': 'b'}]}",
        'type = "never"\ntool = "c"',
        "metadata.steps and metadata.tool_calls name different tool calls",
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_what_a_trajectory_check_cannot_judge_is_an_error_with_its_sentence(
    name, runsite, tmp_path: Path
):
    metadata, check, reason = ERRORS[name]
    assert _verdict(runsite, tmp_path, metadata, check) == ("error", reason)


def test_an_unnamed_call_that_cannot_change_the_verdict_is_judged(runsite, tmp_path: Path):
    metadata = "{'tool_calls': [{'tool': 'a'}, {'tool': None}, {'tool': 'b'}]}"
    assert (
        _verdict(runsite, tmp_path, metadata, 'type = "before"\nfirst = "a"\nthen = "b"')[0]
        == "pass"
    )
    assert _verdict(runsite, tmp_path, metadata, 'type = "never"\ntool = "b"')[0] == "fail"


def test_steps_reported_beside_recorded_calls_that_differ_error_naming_the_disagreement(
    runsite, tmp_path: Path
):
    app = (
        "from generator import record_call\n\ndef answer(case):\n"
        "    record_call(finish='end_turn')\n"
        "    return {'output': 'x', 'metadata': {'steps': [{'index': 0, 'actor': 'model', 'finish': 'stop'}]}}\n"
    )
    status, reason = _verdict(runsite, tmp_path, "", 'type = "never"\ntool = "a"', app=app)
    assert (status, reason) == (
        "error",
        "the steps the target reported differ from the calls it recorded",
    )


def test_a_replay_whose_check_needs_what_the_run_did_not_record_is_refused_by_name(
    runsite, tmp_path: Path
):
    app = "def answer(case):\n    return {'output': 'x', 'metadata': {'tools': ['a']}}\n"
    live = write_suite(
        tmp_path / "live",
        app=app,
        assertions=_checks('type = "never"\ntool = "b"'),
        suite_extra="record_responses = true",
    )
    runsite("run", str(live), "--no-archive", "--out", str(tmp_path / "run.json"))
    key = read_run((tmp_path / "run.json").read_bytes()).run.key
    now = write_suite(
        tmp_path / "now",
        app=app,
        assertions=_checks(
            'type = "never"\ntool = "b"', 'type = "max_steps"\nlimit = 2\ncount = "model"'
        ),
    )
    result = runsite(
        "replay",
        str(now),
        "--run",
        str(tmp_path / "run.json"),
        "--no-archive",
        "--out",
        str(tmp_path / "r.json"),
    )
    assert result.exit_code == 64
    assert result.stderr == (
        f"runsite: [[assertions]] #2 (max_steps): needs steps, and run {key} recorded none "
        "(record_responses records them from schema 23)\n"
    )
    assert not (tmp_path / "r.json").exists()


def test_a_replay_of_a_run_measured_without_record_responses_is_refused(runsite, tmp_path: Path):
    suite = write_suite(tmp_path)
    runsite("run", str(suite), "--no-archive", "--out", str(tmp_path / "run.json"))
    result = runsite(
        "replay",
        str(suite),
        "--run",
        str(tmp_path / "run.json"),
        "--no-archive",
        "--out",
        str(tmp_path / "r.json"),
    )
    assert result.exit_code == 64
    assert (
        "has no recorded answers; a replay needs a run measured with record_responses = true"
        in result.stderr
    )
