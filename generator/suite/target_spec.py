"""``[target]``: the three forms a suite names its system under test in.

``http`` and ``provider`` are digline's, with its keys; ``function`` (a Python function in the
suite's folder) is runsite's own. A provider target is resolved through an installed provider
(see ``providers``) when the suite loads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from generator.suite.text_checks import check_schema

Name = Annotated[str, Field(min_length=1)]
Reference = Annotated[str, Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")]
"""``module.path:attribute``, relative to the suite's folder."""
Rate = Annotated[float, Field(ge=0)]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class Price(_Strict):
    """What a model charges, in USD per million tokens; an absent cache rate is not zero."""

    input_per_mtok: Rate
    output_per_mtok: Rate
    cache_read_per_mtok: Rate | None = None
    cache_write_per_mtok: Rate | None = None

    def cost(self, usage: Mapping[str, int]) -> float | None:
        """The price of one call's tokens; None when it used a tier with no declared rate."""
        total = usage.get("input_tokens", 0) * self.input_per_mtok
        total += usage.get("output_tokens", 0) * self.output_per_mtok
        for key, rate in (
            ("cache_read_tokens", self.cache_read_per_mtok),
            ("cache_write_tokens", self.cache_write_per_mtok),
        ):
            if usage.get(key, 0):
                if rate is None:
                    return None
                total += usage[key] * rate
        return total / 1_000_000


class FunctionTarget(_Strict):
    """A Python function in the suite's folder, called with each case as a mapping."""

    type: Literal["function"]
    function: Reference
    prices: dict[str, Price] = Field(default_factory=dict)
    """Per model: what the calls an agent hands to ``record_call`` cost."""


class HttpTarget(_Strict):
    """An application behind a URL, sent a JSON body built from each case."""

    type: Literal["http"]
    url: Annotated[str, Field(pattern=r"^https?://[^/\s]")]
    body: dict[str, JsonValue]
    output_path: Name
    cost_path: Name | None = None
    latency_from_response: Name | None = None
    config_path: Name | None = None
    expect_config: dict[str, str | int | float | bool] | None = None
    """What the application must report under ``config_path``; a contradiction errors the case."""
    tools_path: Name | None = None
    tool_calls_path: Name | None = None
    usage_path: Name | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    timeout: Annotated[float, Field(gt=0)] = 30.0


NO_ARGUMENTS: dict[str, JsonValue] = {"type": "object", "properties": {}}
"""The schema of a tool declared without ``parameters``."""


class ToolSpec(_Strict):
    """A tool the model may call, declared in the suite: a name, what it does, and the JSON
    Schema of its arguments. Each provider sends it in its own API's form."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    description: Name | None = None
    parameters: dict[str, JsonValue] = Field(default_factory=lambda: dict(NO_ARGUMENTS))

    @model_validator(mode="after")
    def _valid_schema(self) -> ToolSpec:
        check_schema(self.parameters, "parameters")
        return self


class ProviderTarget(_Strict):
    """A model named by coordinates, ``provider = "PROVIDER/MODEL"``, called through the
    installed provider with a prompt file templated from each case's ``vars``; the keys not
    declared here are the provider's own settings."""

    model_config = ConfigDict(frozen=True, strict=True, extra="allow")

    type: Literal["provider"]
    provider: Annotated[str, Field(pattern=r"^[\w.-]+/\S+$")]
    prompt_file: Name | None = None
    """The user message, relative to the suite; ``{name}`` is replaced by ``vars.name``. A
    provider whose target reads no prompt file (a plugin's) goes without."""
    system: Name | None = None
    system_file: Name | None = None
    tools: list[ToolSpec] = Field(default_factory=list)
    pricing: Price | None = None

    @model_validator(mode="after")
    def _one_system(self) -> ProviderTarget:
        if self.system is not None and self.system_file is not None:
            raise ValueError("system_file: give system or system_file, not both")
        names = [tool.name for tool in self.tools]
        if len(set(names)) != len(names):
            raise ValueError("tools: two tools share a name")
        return self

    def settings(self) -> dict[str, Any]:
        """The keys the suite wrote for the provider itself."""
        return dict(self.model_extra or {})


Target = FunctionTarget | HttpTarget | ProviderTarget
TARGETS: dict[str, type[Target]] = {
    "http": HttpTarget,
    "provider": ProviderTarget,
    "function": FunctionTarget,
}

READABLE = ("id", "vars", "expected", "context", "metadata", "label", "group")
"""The case fields an http body may read (``case.vars.question``)."""

MISSING = object()


def read_reference(case: Mapping[str, Any], parts: Sequence[str]) -> Any:
    """The value a ``case.`` reference names in ``case``, or ``MISSING``."""
    value: Any = case
    for part in parts:
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value
