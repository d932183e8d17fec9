"""The ``openai`` provider: OpenAI's Chat Completions API through the ``openai`` SDK, at
api.openai.com or at any server that speaks it at another ``base_url`` (vLLM, Ollama,
llama.cpp's server, LM Studio).

The key is the SDK's: it reads ``OPENAI_API_KEY`` itself, and a suite cannot hold one. At a
``base_url`` of its own (in the suite, or in ``OPENAI_BASE_URL``) a server may take no key, so
where the SDK finds none the client is built with a placeholder that is plainly not a key; a
server that wants one refuses it, which is the right error. At OpenAI's own endpoint a missing
key refuses the suite, naming the variable.

``max_tokens`` is sent as ``max_completion_tokens`` at OpenAI's endpoint, which refuses the old
name for its reasoning models, and as ``max_tokens`` elsewhere, since compatible servers ignore
the new one (digline's rule). Usage is recorded with the cached prompt tokens apart: OpenAI
counts them inside ``prompt_tokens``, so ``input_tokens`` is the uncached rest, and each token
is priced once, at its own rate.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from generator.providers.completion import Completion, ToolRequest, Unreadable, counts, finish_of
from generator.providers.judging import ClaimJudge, ScoreJudge
from generator.providers.sdk import ClientSettings, SdkCall, SdkProvider
from generator.suite.target_spec import ToolSpec

if TYPE_CHECKING:
    import openai

FINISH = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "content_filter": "filtered",
}
"""``finish_reason`` in digline's vocabulary; a refusal is read from the message instead."""

NO_KEY = "runsite-no-key"
"""Sent to a server of one's own when the SDK found no key: a placeholder, never a credential."""


class TargetSettings(ClientSettings):
    """What an ``openai`` target takes besides the prompt."""

    max_tokens: Annotated[int, Field(ge=1)]
    temperature: Annotated[float, Field(ge=0, le=2)] | None = None
    top_p: Annotated[float, Field(gt=0, le=1)] | None = None
    seed: int | None = None


class Chat(SdkCall):
    """One Chat Completions call."""

    official = "api.openai.com"

    def connect(self, settings: ClientSettings) -> openai.OpenAI:
        try:
            import openai
        except ImportError:
            raise ValueError("its SDK is not installed: pip install 'runsite[openai]'") from None
        options = settings.options()
        try:
            return openai.OpenAI(**options)
        except openai.OpenAIError:
            if settings.base_url is None and "OPENAI_BASE_URL" not in os.environ:
                raise ValueError(
                    "no key: the openai SDK reads it from OPENAI_API_KEY, which is not set"
                ) from None
            return openai.OpenAI(api_key=NO_KEY, **options)

    def sent(self, sampling: Mapping[str, Any]) -> Mapping[str, Any]:
        cap = "max_tokens" if self.host else "max_completion_tokens"
        return {cap if key == "max_tokens" else key: value for key, value in sampling.items()}

    def __call__(self, system: str | None, user: str, tools: tuple[ToolSpec, ...]) -> Completion:
        import openai

        messages = [{"role": "system", "content": system}] if system is not None else []
        request = self.request | {"messages": [*messages, {"role": "user", "content": user}]}
        if tools:
            request["tools"] = [{"type": "function", "function": _function(t)} for t in tools]
        return read_chat(self.ask(openai, lambda: self.client.chat.completions.create(**request)))


def _function(tool: ToolSpec) -> dict[str, Any]:
    described = {"description": tool.description} if tool.description else {}
    return {"name": tool.name, **described, "parameters": tool.parameters}


def read_chat(body: Mapping[str, Any]) -> Completion:
    """A chat completion's JSON body, read as one call."""
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise Unreadable("the API's reply holds no choices")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise Unreadable("the API's reply holds no message in its first choice")
    text = message.get("content") or ""
    calls = message.get("tool_calls") or []
    if not isinstance(text, str) or not isinstance(calls, list):
        raise Unreadable("the API's reply holds a message that is neither text nor tool calls")
    requested = tuple(_requested(call) for call in calls)
    if not requested and isinstance(message.get("function_call"), dict):
        requested = (_requested({"function": message["function_call"]}),)
    found = body.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    details = usage.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else 0
    prompt = usage.get("prompt_tokens")
    uncached = (
        prompt - (cached or 0) if isinstance(prompt, int) and isinstance(cached or 0, int) else None
    )
    finish = (
        "filtered" if message.get("refusal") else finish_of(choice.get("finish_reason"), FINISH)
    )
    model = body.get("model")
    return Completion(
        text,
        counts(uncached, usage.get("completion_tokens"), cached),
        finish,
        requested,
        model if isinstance(model, str) and model else None,
    )


def _requested(call: Any) -> ToolRequest:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        raise Unreadable("the API's reply holds a tool call with no function")
    name = function.get("name")
    return ToolRequest(name if isinstance(name, str) and name else None, function.get("arguments"))


class OpenAIJudge(ScoreJudge):
    """``llm_rubric``'s judge: named as digline-openai names it, since the class name enters
    the check's identity."""


class OpenAIClaimJudge(ClaimJudge):
    """``faithfulness``'s judge, named as digline-openai names it."""


class OpenAIProvider(SdkProvider):
    """The object registered as ``openai`` in ``runsite.providers``."""

    name = "openai"
    settings = TargetSettings
    call = Chat
    judges = (OpenAIJudge, OpenAIClaimJudge)


provider = OpenAIProvider()
