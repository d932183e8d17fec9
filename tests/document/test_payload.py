"""The payload: every string of the full run that no page may show, and nothing a page shows."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from generator.document.codec import read_run
from generator.document.disclosure import NOTHING, Disclosure
from generator.document.model import Run
from generator.document.payload import (
    payload_candidates,
    payload_strings,
    payload_texts,
    unshown,
)
from generator.document.redact import redact
from generator.errors import DocumentRefused
from tests._helpers import MARKERS, a_planted_run, a_run
from tests._hostile import documents
from tests.document.test_corpus import DOCUMENTS


def _run(document):
    return read_run(json.dumps(document).encode()).run


def _shown(run: Run, disclosure: Disclosure = NOTHING) -> list[str]:
    """Every string of the redacted run's JSON, keys included."""
    found: list[str] = []

    def walk(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            found.extend(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(redact(run, disclosure).model_dump(mode="json"))
    return found


def test_every_planted_marker_is_payload():
    payload = payload_strings(_run(a_planted_run()), NOTHING)
    assert [field for field, marker in MARKERS.items() if marker not in payload] == []


def test_each_marker_is_named_by_the_field_it_came_from():
    payload = payload_strings(_run(a_planted_run()), NOTHING)
    response = "results[0].responses[0]"
    assert {field: payload[marker] for field, marker in MARKERS.items()} == {
        "output": f"{response}.output",
        "input": f"{response}.input",
        "reason": "results[0].verdicts[0].reason",
        "aggregate_reason": "aggregate[0].reason",
        "suspended_reason": "results[2].suspended_reason",
        "tool_name": f"{response}.tool_calls[0].tool",
        "other_tool_name": f"{response}.tool_calls[1].tool",
        "arguments": f"{response}.tool_calls[0].arguments.#0",
        "result": f"{response}.tool_calls[0].result",
        "artifact_text": "artifacts.#0.text",
        "run_metadata_value": "metadata.#0",
        "run_metadata_key": "metadata.#1 (key)",
        "score_metadata": "results[0].verdicts[0].metadata.#1",
        "base_url": "target_config.values.base_url",
        "fingerprint": "target_config.values.fingerprint",
        "conversation_output": "results[0].responses[1].output",
        "unknown_key_value": "results[0].#0",
        "config_value": "target_config.values.#0",
    }
    assert payload['{"q":"MARKargumentsQ8"}'] == f"{response}.tool_calls[0].arguments"


def test_nothing_the_redacted_run_shows_is_payload():
    run = _run(a_planted_run())
    payload = payload_strings(run, NOTHING)
    shown = _shown(run)
    assert [s for s in payload if any(s in part for part in shown)] == []


@pytest.mark.parametrize("shown_as", [str, str.swapcase], ids=["as it is", "in another case"])
def test_a_string_the_page_shows_is_not_payload_even_where_it_is_an_output_too(shown_as):
    """The build's scan folds case, so a string the page shows in any case is on it by right."""
    document = a_planted_run()
    document["results"][0]["case_id"] = shown_as("MARKoutputQ1")
    document["results"][1]["case_id"] = shown_as("prefix-MARKinputQ2-suffix")
    payload = payload_strings(_run(document), NOTHING)
    assert "MARKoutputQ1" not in payload
    assert "MARKinputQ2" not in payload
    assert MARKERS["reason"] in payload


def test_disclosed_items_are_not_payload():
    disclosure = Disclosure(
        run_metadata=["ticket"],
        score_metadata=["unit", "names"],
        artifacts=["prompts/system.txt"],
        tool_names=[MARKERS["tool_name"]],
    )
    payload = payload_strings(_run(a_planted_run()), disclosure)
    released = {"run_metadata_value", "score_metadata", "artifact_text", "tool_name"}
    assert {field for field, marker in MARKERS.items() if marker not in payload} == released
    every_tool = payload_strings(_run(a_planted_run()), Disclosure(tool_names=True))
    assert MARKERS["tool_name"] not in every_tool
    assert MARKERS["other_tool_name"] not in every_tool


def test_short_strings_do_not_count_and_surrounding_whitespace_is_trimmed():
    document = a_planted_run()
    document["metadata"]["ticket"] = "OPS-1"
    document["results"][0]["responses"][0]["output"] = "  \n MARKoutputQ1 padded \n"
    document["results"][0]["responses"][0]["input"] = " " * 12
    payload = payload_strings(_run(document), NOTHING)
    assert "MARKoutputQ1 padded" in payload
    assert all(len(s) >= 8 and s == s.strip() for s in payload)
    assert "OPS-1" not in payload


def test_unknown_keys_are_payload_at_any_depth_and_named_by_their_place():
    document = a_run(x_vendor={"trace": [{"MARKnestedkeyQ20": "MARKnestedvalueQ21"}]})
    document["results"][0]["responses"][0]["steps"][1]["x_raw"] = "MARKrawcallQ22"
    document["aggregate"][0]["x_judge"] = {"prompt": "MARKjudgepromptQ23"}
    payload = payload_strings(_run(document), NOTHING)
    assert payload["MARKnestedkeyQ20"] == "#0.#0[0].#0 (key)"
    assert payload["MARKnestedvalueQ21"] == "#0.#0[0].#0"
    assert payload["MARKrawcallQ22"] == "results[0].responses[0].steps[1].#0"
    assert payload["MARKjudgepromptQ23"] == "aggregate[0].#0.#0"


def test_priced_config_is_payload_only_beside_a_base_url():
    values = {"model": "m-1", "provider": "local", "resolved_model": "MARKresolvedQ24"}
    assert "MARKresolvedQ24" not in payload_strings(
        _run(a_run(target_config={"values": values})), NOTHING
    )
    values |= {"base_url": "https://MARKhostQ25.invalid/v1"}
    payload = payload_strings(_run(a_run(judge_config={"values": values})), NOTHING)
    assert payload["MARKresolvedQ24"] == "judge_config.values.resolved_model"
    assert payload["https://MARKhostQ25.invalid/v1"] == "judge_config.values.base_url"


def test_a_structured_output_is_payload_in_its_strings_too():
    document = a_run()
    document["results"][0]["responses"][0]["output"] = json.dumps(
        {"answer": "MARKstructuredQ26", "items": ["MARKitemQ27 first"]}
    )
    payload = payload_strings(_run(document), NOTHING)
    assert payload["MARKstructuredQ26"] == "results[0].responses[0].output.#0"
    assert payload["MARKitemQ27 first"] == "results[0].responses[0].output.#1[0]"


@pytest.mark.slow
@settings(max_examples=1_500, deadline=None)
@given(documents())
def test_the_sieve_is_given_every_payload_string_the_fields_are_found_for(data):
    try:
        reading = read_run(data)
    except DocumentRefused:
        return
    run, undeclared = reading.run, bool(reading.unknown)
    for disclosure in (
        NOTHING,
        Disclosure(tool_names=True, run_metadata=["ticket"]),
        Disclosure(tool_names=["lookup_order", MARKERS["tool_name"]]),
    ):
        texts = payload_texts(run, disclosure, undeclared)
        assert texts == set(payload_candidates(run, disclosure))
        unshown_texts = unshown(texts, redact(run, disclosure))
        assert unshown_texts == set(payload_strings(run, disclosure))


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_the_sieve_is_given_every_payload_string_of_the_corpus(path):
    reading = read_run(path.read_bytes())
    texts = payload_texts(reading.run, NOTHING, bool(reading.unknown))
    assert texts == set(payload_candidates(reading.run, NOTHING))
    assert unshown(texts, redact(reading.run, NOTHING)) == set(
        payload_strings(reading.run, NOTHING)
    )


def test_a_string_shown_beside_a_lone_surrogate_is_still_shown():
    """A disclosed metadata value may hold a lone surrogate, which JSON cannot write: what the
    redacted run shows is still found, and an answer it shows is no payload."""
    document = a_run(metadata={"ticket": "T-\ud800 MARKshownQ99 exactly"})
    document["results"][0]["responses"][0]["output"] = "MARKshownQ99 exactly"
    run = _run(document)
    disclosure = Disclosure(run_metadata=["ticket"])
    assert "MARKshownQ99 exactly" in payload_candidates(run, disclosure)
    assert "MARKshownQ99 exactly" not in payload_strings(run, disclosure)
    texts = payload_texts(run, disclosure, False)
    assert "MARKshownQ99 exactly" not in unshown(texts, redact(run, disclosure))
