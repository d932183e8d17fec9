"""How a model's reply is read, whatever the API: an ending nobody mapped is ``other``, never
``stop``; a refusal is ``filtered``; a judge's object is found wherever the reply puts it."""

from __future__ import annotations

from typing import Any

import pytest

from generator.providers.anthropic_messages import read_message
from generator.providers.completion import Unreadable
from generator.providers.judging import first_object, number
from generator.providers.openai_chat import read_chat


def _chat(message: dict[str, Any], finish: str | None = "stop") -> dict[str, Any]:
    return {"choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def test_an_ending_the_table_does_not_know_is_other_and_a_refusal_is_filtered():
    assert read_chat(_chat({"content": "x"}, "eaten_by_a_grue")).finish == "other"
    assert read_chat(_chat({"content": "x"}, None)).finish is None
    assert read_chat(_chat({"content": None, "refusal": "no"}, "stop")).finish == "filtered"
    assert read_message({"content": [], "stop_reason": "refusal"}).finish == "filtered"
    assert read_message({"content": [], "stop_reason": "pause_turn"}).finish == "other"


def test_a_reply_without_token_counts_has_no_usage_rather_than_zero():
    assert read_chat(_chat({"content": "x"})).usage is None
    assert read_message({"content": [], "usage": {"input_tokens": 3}}).usage is None


@pytest.mark.parametrize(
    "body",
    [{}, {"choices": []}, {"choices": [{"message": "x"}]}, _chat({"content": 3})],
)
def test_a_chat_body_that_is_not_a_reply_is_unreadable(body):
    with pytest.raises(Unreadable):
        read_chat(body)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"score": 1}', {"score": 1}),
        (
            '```json\n{"score": 0.5, "reason": "a {brace} inside"}\n```',
            {"score": 0.5, "reason": "a {brace} inside"},
        ),
        ('Sure. {not json} then {"score": "0.8"} and more', {"score": "0.8"}),
        ("no object at all", None),
        ("[1, 2]", None),
    ],
)
def test_a_judges_object_is_found_wherever_the_reply_puts_it(text, found):
    assert first_object(text) == found


def test_a_number_may_be_written_as_text_but_never_as_a_boolean():
    assert [number(v) for v in (0.8, "0.8", 1, True, "nan", "high", None)] == [
        0.8,
        0.8,
        1.0,
        None,
        None,
        None,
        None,
    ]
