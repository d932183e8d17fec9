"""The parts of an Inspect log the importer reads, as types, and nothing else of it.

Inspect adds fields with every release, so a key these types do not name is passed over; a key
they name must have the type Inspect gives it, and a refusal names the key, never its value.
Payload (inputs, targets, answers, explanations, metadata, tool arguments and results) is typed
``Any``: it is carried into the full document as it is, never interpreted.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

LOG_VERSION = 2
"""The log format inspect_ai has written since 0.3 (``EvalLog.version``)."""

Id = str | int
"""A sample id, as a dataset gives it."""


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="ignore")


class ModelUsage(_Part):
    """Tokens and cost Inspect counted for a call, a sample or the eval."""

    input_tokens: int = 0
    output_tokens: int = 0
    input_tokens_cache_write: int | None = None
    input_tokens_cache_read: int | None = None
    reasoning_tokens: int | None = None
    total_cost: float | None = None


class Scorer(_Part):
    name: str
    options: dict[str, Any] = Field(default_factory=dict)


class EvalConfig(_Part):
    epochs: int | None = None
    epochs_reducer: list[str] | None = None


class Dataset(_Part):
    sample_ids: list[Id] | None = None


class Revision(_Part):
    commit: str | None = None
    dirty: bool | None = None


class EvalSpec(_Part):
    """Who ran what: ``eval`` in the log."""

    eval_id: str
    run_id: str | None = None
    task_id: str | None = None
    task: str
    created: str
    model: str
    model_base_url: str | None = None
    model_generate_config: dict[str, Any] = Field(default_factory=dict)
    dataset: Dataset = Field(default_factory=Dataset)
    config: EvalConfig = Field(default_factory=EvalConfig)
    scorers: list[Scorer] | None = None
    metadata: dict[str, Any] | None = None
    revision: Revision | None = None
    packages: dict[str, str] | None = None


class Metric(_Part):
    value: float | None = None


class EvalScore(_Part):
    """One scorer's metrics over the eval, under one epoch reducer."""

    name: str
    reducer: str | None = None
    metrics: dict[str, Metric] = Field(default_factory=dict)


class Results(_Part):
    scores: list[EvalScore] = Field(default_factory=list)


class ReducedSample(_Part):
    sample_id: Id
    value: Any = None


class Reduction(_Part):
    """One scorer's value per sample id once its epochs were reduced."""

    scorer: str
    reducer: str | None = None
    samples: list[ReducedSample] = Field(default_factory=list)


class Header(_Part):
    """The log without its samples."""

    version: int
    status: str
    eval: EvalSpec
    results: Results | None = None
    reductions: list[Reduction] | None = None


class Score(_Part):
    value: Any = None
    answer: Any = None
    explanation: Any = None
    metadata: dict[str, Any] | None = None


class SampleError(_Part):
    message: str = ""


class SampleLimit(_Part):
    type: str
    limit: float | None = None


class ModelOutput(_Part):
    completion: str | None = None


class Sample(_Part):
    """One sample of one epoch."""

    id: Id
    epoch: int
    input: Any = None
    target: Any = None
    metadata: dict[str, Any] | None = None
    output: ModelOutput | None = None
    scores: dict[str, Score] | None = None
    events: list[dict[str, Any]] = Field(default_factory=list)
    error: SampleError | None = None
    limit: SampleLimit | None = None


class Choice(_Part):
    stop_reason: str | None = None


class CallOutput(_Part):
    choices: list[Choice] = Field(default_factory=list)
    usage: ModelUsage | None = None
    time: float | None = None


class ModelEvent(_Part):
    event: Literal["model"]
    span_id: str | None = None
    model: str
    output: CallOutput | None = None


class ToolError(_Part):
    message: str = ""


class ToolEvent(_Part):
    event: Literal["tool"]
    span_id: str | None = None
    function: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = ""
    error: ToolError | None = None
    failed: bool | None = None


class SpanBegin(_Part):
    event: Literal["span_begin"]
    id: str
    parent_id: str | None = None
    type: str | None = None
    name: str = ""


EVENTS: dict[str, type[ModelEvent | ToolEvent | SpanBegin]] = {
    "model": ModelEvent,
    "tool": ToolEvent,
    "span_begin": SpanBegin,
}
"""The events a run is built from, by kind; the others (state, score, logger, ...) are passed
over."""
