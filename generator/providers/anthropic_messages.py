"""The ``anthropic`` provider: Anthropic's Messages API through the ``anthropic`` SDK.

The key is the SDK's: it reads ``ANTHROPIC_API_KEY`` (or its other credentials) itself, and a
suite cannot hold one; where it finds none, the suite is refused naming the variable. The
Messages API takes no seed and, since the SDK's 2.x, no temperature, top_p or top_k: a suite
that sets one is refused rather than run without it, and ``max_tokens``, which the API
requires, is the one sampling setting. Usage is recorded
as the API reports it: a cache read and a cache write are counted apart from ``input_tokens``,
each priced at its own rate.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from generator.providers.completion import Completion, ToolRequest, Unreadable, counts, finish_of
from generator.providers.judging import ClaimJudge, ScoreJudge
from generator.providers.sdk import ClientSettings, SdkCall, SdkProvider
from generator.suite.target_spec import ToolSpec

if TYPE_CHECKING:
    import anthropic

FINISH = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_use",
    "refusal": "filtered",
    "pause_turn": "other",
}
"""``stop_reason`` in digline's vocabulary."""


class TargetSettings(ClientSettings):
    """What an ``anthropic`` target takes besides the prompt; the API requires ``max_tokens``."""

    max_tokens: Annotated[int, Field(ge=1)]


class Messages(SdkCall):
    """One Messages call."""

    official = "api.anthropic.com"

    def connect(self, settings: ClientSettings) -> anthropic.Anthropic:
        try:
            import anthropic
        except ImportError:
            raise ValueError("its SDK is not installed: pip install 'runsite[anthropic]'") from None
        missing = ValueError(
            "no key: the anthropic SDK reads it from ANTHROPIC_API_KEY, which is not set"
        )
        try:
            client = anthropic.Anthropic(**settings.options())
        except anthropic.AnthropicError:
            raise missing from None
        if client.api_key is None and client.auth_token is None and client.credentials is None:
            raise missing
        return client

    def __call__(self, system: str | None, user: str, tools: tuple[ToolSpec, ...]) -> Completion:
        import anthropic

        request = self.request | {"messages": [{"role": "user", "content": user}]}
        if system is not None:
            request["system"] = system
        if tools:
            request["tools"] = [_tool(tool) for tool in tools]
        return read_message(self.ask(anthropic, lambda: self.client.messages.create(**request)))


def _tool(tool: ToolSpec) -> dict[str, Any]:
    described = {"description": tool.description} if tool.description else {}
    return {"name": tool.name, **described, "input_schema": tool.parameters}


def read_message(body: Mapping[str, Any]) -> Completion:
    """A message's JSON body, read as one call. Both kinds of tool block count as a tool the
    model called: ``tool_use`` for the application to run, ``server_tool_use`` run by the API."""
    content = body.get("content")
    if not isinstance(content, list) or not all(isinstance(block, dict) for block in content):
        raise Unreadable("the API's reply holds no list of content blocks")
    text = "".join(
        block["text"]
        for block in content
        if block.get("type") == "text" and isinstance(block.get("text"), str)
    )
    requested = tuple(
        ToolRequest(
            block["name"] if isinstance(block.get("name"), str) and block["name"] else None,
            block.get("input"),
        )
        for block in content
        if block.get("type") in ("tool_use", "server_tool_use")
    )
    found = body.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    model = body.get("model")
    return Completion(
        text,
        counts(
            usage.get("input_tokens"),
            usage.get("output_tokens"),
            usage.get("cache_read_input_tokens"),
            usage.get("cache_creation_input_tokens"),
        ),
        finish_of(body.get("stop_reason"), FINISH),
        requested,
        model if isinstance(model, str) and model else None,
    )


class AnthropicJudge(ScoreJudge):
    """``llm_rubric``'s judge: named as digline-anthropic names it, since the class name
    enters the check's identity."""


class AnthropicClaimJudge(ClaimJudge):
    """``faithfulness``'s judge, named as digline-anthropic names it."""


class AnthropicProvider(SdkProvider):
    """The object registered as ``anthropic`` in ``runsite.providers``."""

    name = "anthropic"
    settings = TargetSettings
    why_not = dict.fromkeys(
        ("seed", "temperature", "top_p", "top_k"), "the Anthropic Messages API takes none"
    )
    call = Messages
    judges = (AnthropicJudge, AnthropicClaimJudge)


provider = AnthropicProvider()
