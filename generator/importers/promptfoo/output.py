"""The parts of a promptfoo output the importer reads, as types, and nothing else of it.

promptfoo adds fields with its releases, so a key these types do not name is passed over; a key
they name must have the type promptfoo gives it, and a refusal names the key, never its value.
Payload (vars, prompts, outputs, reasons, grader prompts, error text) is typed ``Any`` or
``str``: it is carried into the full document as it is, never interpreted.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

RESULTS_VERSION = 3
"""The shape of ``results`` promptfoo writes since it keeps one row per test × prompt ×
provider (``results.version``); 0.123.1 writes it."""


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="ignore")


class Tokens(_Part):
    """Tokens counted for a call, a row, or a grader's calls."""

    prompt: int | None = None
    completion: int | None = None
    cached: int | None = None
    numRequests: int | None = None
    completionDetails: dict[str, Any] | None = None


class RowTokens(Tokens):
    """A row's tokens, the grader's among them."""

    assertions: Tokens | None = None


class Assertion(_Part):
    type: str
    value: Any = None
    metric: str | None = None
    threshold: float | None = None
    weight: float | None = None


class Component(_Part):
    """One assertion's result on one row."""

    pass_: bool = Field(alias="pass")
    score: float
    reason: Any = None
    assertion: dict[str, Any] | None = None
    tokensUsed: Tokens | None = None
    metadata: dict[str, Any] | None = None


class Grading(_Part):
    """The test's result on one row, and each assertion's."""

    componentResults: list[Component] | None = None


class Prompt(_Part):
    raw: Any = None
    label: str | None = None


class Provider(_Part):
    id: str
    label: str | None = None


class TestCase(_Part):
    description: str | None = None
    vars: dict[str, Any] | None = None
    assert_: list[dict[str, Any]] | None = Field(default=None, alias="assert")
    threshold: float | None = None
    options: dict[str, Any] | None = None


class Response(_Part):
    output: Any = None
    finishReason: str | None = None


class Row(_Part):
    """One test on one prompt × provider (and one repeat of it)."""

    testIdx: int
    promptIdx: int
    provider: Provider
    testCase: TestCase
    vars: dict[str, Any] | None = None
    prompt: Prompt | None = None
    success: bool
    score: float
    latencyMs: float | None = None
    cost: float | None = None
    tokenUsage: RowTokens | None = None
    response: Response | None = None
    error: Any = None
    failureReason: int | None = None
    gradingResult: Grading | None = None


class Column(_Part):
    """One prompt × provider of the eval, as ``results.prompts`` summarises it."""

    raw: Any = None
    label: str | None = None
    provider: str
    metrics: dict[str, Any] | None = None


class Results(_Part):
    version: int
    timestamp: str
    prompts: list[Column] = Field(default_factory=list)
    results: list[Row]


class Config(_Part):
    description: str | None = None


class Metadata(_Part):
    promptfooVersion: str | None = None


class Output(_Part):
    """What ``promptfoo eval -o FILE.json`` writes, and ``promptfoo export eval``."""

    evalId: str
    results: Results
    config: Config = Field(default_factory=Config)
    metadata: Metadata = Field(default_factory=Metadata)
