"""The redaction boundary: nothing that is payload survives ``redact``; the skeleton does."""

from __future__ import annotations

import json

import pytest

from generator.document.codec import read_redacted, read_run, redacted_bytes, run_bytes
from generator.document.disclosure import Disclosure
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.errors import DocumentRefused
from tests._helpers import MARKERS, a_planted_run, a_run, a_trajectory_response
from tests.conftest import CORPUS


def _planted():
    return read_run(json.dumps(a_planted_run()).encode()).run


def test_every_planted_marker_is_in_the_document_the_archive_keeps():
    kept = run_bytes(_planted()).decode()
    missing = [field for field, marker in MARKERS.items() if marker not in kept]
    assert missing == []


def test_no_planted_marker_survives_redaction():
    published = redacted_bytes(redact(_planted())).decode()
    leaked = [field for field, marker in MARKERS.items() if marker in published]
    assert leaked == []


def test_redaction_keeps_the_counts_of_responses_and_steps_and_the_skeleton():
    case = redact(_planted()).results[0]
    assert case.responses is not None
    assert len(case.responses) == 2
    steps = case.responses[0].steps or []
    assert [(s.index, s.actor, s.finish, s.tool, s.status) for s in steps] == [
        (0, "model", "tool_use", None, None),
        (1, "tool", None, "tool #1", "success"),
        (2, "tool", None, "tool #2", "error"),
        (3, "model", "tool_use", None, None),
        (4, "tool", None, "tool #1", "success"),
        (5, "model", "end_turn", None, None),
    ]
    assert case.responses[0].tools == ["tool #1", "tool #2", "tool #1"]
    assert case.responses[1].tool_calls == []
    assert case.responses[0].usage is not None
    assert case.responses[0].latency_ms == 812.5


def test_a_withheld_tool_keeps_its_number_in_every_case_of_its_run():
    planted = a_planted_run()
    second = planted["results"][1]
    # The second case calls the first case's second tool first: still tool #2 there.
    second["responses"] = [a_trajectory_response("other", "lookup", "{}", "ok")]
    planted["results"][0]["responses"][0] = a_trajectory_response("lookup", "other", "{}", "ok")
    run = read_run(json.dumps(planted).encode()).run
    for redacted in (redact(run), redact(redact(run))):
        first, then = (case.responses[0].tools for case in redacted.results[:2] if case.responses)
        assert first == ["tool #1", "tool #2", "tool #1"]
        assert then == ["tool #2", "tool #1", "tool #2"]


def test_redaction_keeps_verdict_numbers_and_drops_string_metadata():
    verdict = redact(_planted()).results[0].verdicts[0]
    assert (verdict.score, verdict.status, verdict.threshold) == (0.833333, "pass", 0.8)
    assert (verdict.samples, verdict.sample_min, verdict.sample_max) == ([1.0, 0.5, 1.0], 0.5, 1.0)
    assert verdict.metadata == {"agreement": 1.0}


def test_perimeter_config_moves_to_withheld_and_the_rest_stays():
    config = redact(_planted()).target_config
    assert config.values == {"model": "m-1", "provider": "local", "temperature": 0.2}
    assert config.withheld == ["base_url", "fingerprint", "system_prompt"]


def test_only_known_settings_publish_their_values_the_rest_only_their_names():
    values = {
        "provider": "http",
        "model": "m-1",
        "temperature": 0.2,
        "max_tokens": 512,
        "seed": 7,
        "reasoning_effort": "low",
        "api_key": "sk-MARKapikeyQ34",
        "system_prompt": "You are MARKpromptQ35",
        "top_p": "MARKnotanumberQ36",
        "stream": True,
        "json_mode": True,
        "top_k": False,
    }
    run = read_run(
        json.dumps(a_run(target_config={"values": values, "withheld": ["organisation"]})).encode()
    ).run
    config = redact(run).target_config
    assert config.values == {
        "json_mode": True,
        "max_tokens": 512,
        "model": "m-1",
        "provider": "http",
        "reasoning_effort": "low",
        "seed": 7,
        "temperature": 0.2,
    }
    assert config.withheld == [
        "api_key",
        "organisation",
        "stream",
        "system_prompt",
        "top_k",
        "top_p",
    ]
    assert "MARK" not in redacted_bytes(redact(run)).decode()


def test_a_redacted_file_with_a_setting_that_is_never_published_is_refused():
    published = json.loads(redacted_bytes(redact(_planted())))
    published["judge_config"] = {"values": {"model": "j", "provider": "p", "api_key": "sk-1"}}
    with pytest.raises(DocumentRefused) as refused:
        read_redacted(json.dumps(published).encode())
    assert str(refused.value) == (
        "judge_config.values.#0: a setting whose value is never published"
    )


def test_tool_names_cross_only_when_the_disclosure_names_them():
    run = _planted()
    named = redact(run, Disclosure(tool_names=[MARKERS["tool_name"]])).results[0].responses
    assert named is not None
    assert named[0].tools == [MARKERS["tool_name"], "tool #2", MARKERS["tool_name"]]
    every = redact(run, Disclosure(tool_names=True)).results[0].responses
    assert every is not None
    assert every[0].tools == [
        MARKERS["tool_name"],
        MARKERS["other_tool_name"],
        MARKERS["tool_name"],
    ]


def test_a_disclosure_releases_exactly_the_items_it_names():
    disclosure = Disclosure(
        run_metadata=["ticket"], score_metadata=["unit"], artifacts=["prompts/system.txt"]
    )
    published = redacted_bytes(redact(_planted(), disclosure)).decode()
    released = {"run_metadata_value", "score_metadata", "artifact_text"}
    assert {f for f, marker in MARKERS.items() if marker in published} == released
    assert json.loads(published)["disclosure"]["run_metadata"] == ["ticket"]


def test_a_redacted_run_counts_what_was_taken_out_and_carries_none_of_it():
    # The planted run: a reason on each verdict of its two measured cases (two and one) and on
    # the whole run's, a case set aside with its reason, two keys of metadata, one disclosed.
    run = redact(_planted(), Disclosure(run_metadata=["ticket"]))
    assert run.withheld is not None
    assert run.withheld.model_dump() == {"reasons": 4, "set_aside": 1, "run_metadata": 1}
    narrowed = redact(run, Disclosure())
    assert narrowed.withheld is not None
    assert narrowed.withheld.run_metadata == 2
    assert redact(_planted()).withheld == narrowed.withheld
    unannotated = redact(read_run(json.dumps(a_run(metadata={})).encode()).run)
    assert unannotated.withheld is not None
    assert unannotated.withheld.run_metadata == 0


def test_a_redacted_document_written_before_the_counts_reads_as_not_counting_them():
    doc = json.loads(redacted_bytes(redact(_planted())))
    del doc["withheld"]
    assert redact(RedactedRun.model_validate(doc)).withheld is None


def test_redacting_twice_changes_nothing():
    once = redact(_planted(), Disclosure(tool_names=True, run_metadata=["ticket"]))
    assert redact(once, once.disclosure) == once
    assert read_redacted(redacted_bytes(once)) == once


def test_redacting_again_narrows_and_never_widens():
    wide = redact(_planted(), Disclosure(tool_names=True, run_metadata=["ticket"]))
    narrow = redact(wide, Disclosure())
    assert narrow == redact(_planted())
    assert redact(narrow, Disclosure(tool_names=True, run_metadata=["ticket"])) == narrow


def test_a_digline_redacted_document_redacts_to_the_same_verdicts_as_its_original():
    local = CORPUS / "digline-local"
    original = read_run(
        (
            local / "run2-changed__2026-11-29T22-43-33-810739-00-00-b2a55669ae7e0169.json"
        ).read_bytes()
    )
    already = read_run((local / "run2-changed__redacted-via-run_to_json.json").read_bytes())
    assert already.run.redacted
    ours, theirs = redact(original.run), redact(already.run)
    assert [c.verdicts for c in ours.results] == [c.verdicts for c in theirs.results]
    assert [len(c.responses or ()) for c in ours.results] == [
        len(c.responses or ()) for c in theirs.results
    ]


def test_a_redacted_file_that_carries_payload_is_refused_when_read_back():
    published = json.loads(redacted_bytes(redact(_planted())))
    published["metadata"] = {"ticket": "OPS-1"}
    with pytest.raises(DocumentRefused, match=r"^metadata\.#0: run metadata"):
        read_redacted(json.dumps(published).encode())
    published = json.loads(redacted_bytes(redact(_planted())))
    published["results"][0]["responses"][0]["output"] = "an answer"
    with pytest.raises(DocumentRefused, match=r"responses\[0\]: holds a key") as refused:
        read_redacted(json.dumps(published).encode())
    assert "output" not in str(refused.value)  # a key outside the schema may be payload
    published = json.loads(redacted_bytes(redact(_planted())))
    published["results"][0]["responses"][0]["tools"][0] = "lookup_order"
    with pytest.raises(DocumentRefused, match="a tool name the disclosure does not name"):
        read_redacted(json.dumps(published).encode())


def test_unknown_keys_are_kept_in_the_archive_and_placed_but_never_redacted_through():
    reading = read_run(json.dumps(a_run(x_vendor={"note": "kept"})).encode())
    assert reading.unknown == ("#0",)
    assert b'"x_vendor"' in run_bytes(reading.run)
    assert "x_vendor" not in redacted_bytes(redact(reading.run)).decode()


def test_the_redacted_type_is_not_the_run_type():
    assert not issubclass(RedactedRun, type(_planted()))
