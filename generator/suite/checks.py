"""The per-case checks: what a suite declares under ``[[assertions]]``, and how each one judges.

Each check is a frozen model of its parameters (so an unknown or missing key is refused when
the suite loads) with a pure ``judge`` from one answer to a judgement. A judgement is a score
in [0, 1], or no score when the check could not judge (an error, never a fail: the target
raised, the output was not of a kind the check reads, a value it needs was not reported).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

import jsonschema
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, model_validator

from generator.document.numbers import at_precision, meets, within
from generator.suite.trajectory import Trajectory


def _fraction(value: Any) -> Any:
    """Thresholds may be written as a count of cases, ``"9/10"``."""
    if isinstance(value, str) and re.fullmatch(r"\d+/[1-9]\d*", value):
        top, bottom = value.split("/")
        return int(top) / int(bottom)
    return value


Unit = Annotated[float, BeforeValidator(_fraction), Field(ge=0, le=1)]
Tolerance = Annotated[float, BeforeValidator(_fraction), Field(ge=0)]
Needle = Annotated[str, Field(min_length=1)]


@dataclass(frozen=True)
class Answer:
    """One sample's answer, as every check reads it."""

    output: JsonValue
    kind: Literal["text", "structured"]
    cost_usd: float | None = None
    latency_ms: float | None = None
    trajectory: Trajectory = field(default_factory=Trajectory)
    """How the target reached the answer, as far as it reported it."""
    unpriced: str | None = None
    """Why ``cost_usd`` is unknown, where runsite knows why."""


@dataclass(frozen=True)
class Judgement:
    """A check's finding on one answer; ``score`` is None when it could not judge."""

    score: float | None
    reason: str
    metadata: dict[str, JsonValue] = field(default_factory=dict)

    @classmethod
    def of(cls, passed: bool, reason: str, **metadata: JsonValue) -> Judgement:
        return cls(1.0 if passed else 0.0, reason, dict(metadata))

    @classmethod
    def error(cls, reason: str, **metadata: JsonValue) -> Judgement:
        return cls(None, reason, dict(metadata))


Judge = Callable[..., Any]
"""A judge function: called with ``rubric``, ``output`` and ``case`` as keyword arguments."""


class Rule(BaseModel):
    """What every check declares, per case or per run: its type, name and limits."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    kind: ClassVar[str]
    judged_by_model: ClassVar[bool] = False
    identity_excludes: ClassVar[frozenset[str]] = frozenset({"name", "threshold", "tolerance"})

    type: str
    name: Annotated[str, Field(min_length=1)] | None = None
    threshold: Unit = 1.0
    tolerance: Tolerance = 0.0

    @property
    def label(self) -> str:
        """The check's name in a run: its declared ``name``, else its type."""
        return self.name or self.type

    def parameters(self) -> dict[str, Any]:
        """What makes this check this check, for its identity: not its name or its limits."""
        return self.model_dump(mode="json", by_alias=True, exclude=set(self.identity_excludes))


class Check(Rule):
    """A check judged on each case's answer. Subclasses declare their parameters and defaults."""

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        raise NotImplementedError


def _text(answer: Answer) -> str | None:
    return answer.output if isinstance(answer.output, str) else None


_NOT_TEXT = "the output is structured, and this check reads text"


class Equals(Check):
    """The output is exactly the case's ``expected``."""

    kind = "equals"
    type: Literal["equals"]

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        if "expected" not in case:
            return Judgement.error("the case has no expected value to compare with")
        return Judgement.of(answer.output == case["expected"], "compared with the expected value")


class Contains(Check):
    """The output contains ``needle``."""

    kind = "contains"
    negated: ClassVar[bool] = False
    type: Literal["contains"]
    needle: Needle
    case_sensitive: bool = True

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text = _text(answer)
        if text is None:
            return Judgement.error(_NOT_TEXT)
        found = _find(self.needle, text, self.case_sensitive)
        return Judgement.of(
            found != self.negated,
            "the needle is in the output" if found else "the needle is absent",
        )


class NotContains(Contains):
    """The output does not contain ``needle``."""

    kind = "not_contains"
    negated = True
    type: Literal["not_contains"]  # type: ignore[assignment]


def _find(needle: str, text: str, case_sensitive: bool) -> bool:
    return needle in text if case_sensitive else needle.casefold() in text.casefold()


class Regex(Check):
    """The output matches ``pattern`` somewhere (``re.search``)."""

    kind = "regex"
    type: Literal["regex"]
    pattern: Needle

    @model_validator(mode="after")
    def _compiles(self) -> Regex:
        try:
            re.compile(self.pattern)
        except re.error as error:
            raise ValueError(f"pattern: not a regular expression ({error.msg})") from None
        return self

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text = _text(answer)
        if text is None:
            return Judgement.error(_NOT_TEXT)
        found = re.search(self.pattern, text) is not None
        return Judgement.of(found, "the pattern matches" if found else "the pattern does not match")


def _parsed(answer: Answer) -> tuple[bool, Any]:
    if answer.kind == "structured":
        return True, answer.output
    try:
        return True, json.loads(str(answer.output))
    except ValueError:
        return False, None


def _json_kind(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number"
    )


class IsJson(Check):
    """The output parses as JSON (of the given top-level kind)."""

    kind = "is_json"
    type: Literal["is_json"]
    top_level: Literal["any", "object", "array"] = "any"

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        parsed, value = _parsed(answer)
        found = _json_kind(value) if parsed else "invalid"
        passed = parsed and self.top_level in ("any", found)
        return Judgement.of(passed, f"the output is JSON of kind {found}", json_kind=found)


class JsonSchema(Check):
    """The output is JSON that a JSON Schema accepts."""

    kind = "json_schema"
    type: Literal["json_schema"]
    schema_: dict[str, JsonValue] = Field(alias="schema")

    @model_validator(mode="after")
    def _valid_schema(self) -> JsonSchema:
        try:
            jsonschema.validators.validator_for(self.schema_).check_schema(self.schema_)
        except jsonschema.SchemaError as error:
            raise ValueError(f"schema: not a valid JSON Schema ({error.message})") from None
        return self

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        parsed, value = _parsed(answer)
        if not parsed:
            return Judgement.of(False, "the output is not JSON")
        errors = list(
            jsonschema.validators.validator_for(self.schema_)(self.schema_).iter_errors(value)
        )
        return Judgement.of(not errors, f"{len(errors)} schema violations", violations=len(errors))


class Length(Check):
    """The output's length lies within ``minimum`` and ``maximum`` (characters or words)."""

    kind = "length"
    type: Literal["length"]
    minimum: Annotated[int, Field(ge=0)] | None = None
    maximum: Annotated[int, Field(ge=0)] | None = None
    unit: Literal["characters", "words"] = "characters"

    @model_validator(mode="after")
    def _bounded(self) -> Length:
        if self.minimum is None and self.maximum is None:
            raise ValueError("minimum: a length check needs minimum, maximum or both")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError("minimum: above maximum")
        return self

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text = _text(answer)
        if text is None:
            return Judgement.error(_NOT_TEXT)
        length = len(text.split()) if self.unit == "words" else len(text)
        passed = (self.minimum is None or length >= self.minimum) and (
            self.maximum is None or length <= self.maximum
        )
        bounds = {
            k: v for k, v in (("minimum", self.minimum), ("maximum", self.maximum)) if v is not None
        }
        return Judgement.of(
            passed, f"{length} {self.unit}", length=length, unit=self.unit, **bounds
        )


def budget_score(measured: float, cap: float) -> float:
    """A graded budget: 1.0 at zero, 0.5 at the cap, falling beyond it.

    The stored score lands on the side of the 0.5 threshold that the measurement lands on
    against the cap, so rounding never turns a call within budget into a failing sample.
    """
    score = at_precision(cap / (cap + measured)) if measured > 0 else 1.0
    if within(measured, cap) and not meets(score, 0.5):
        return 0.5
    if not within(measured, cap) and meets(score, 0.5):
        return 0.499999
    return score


class Budget(Check):
    """A graded ceiling on something each answer measured: a creeping rise moves the score
    long before it breaks the cap. Subclasses name the measurement and the cap."""

    measured: ClassVar[str]
    """The attribute of the answer that holds the measurement."""
    cap_key: ClassVar[str]
    threshold: Unit = 0.5
    tolerance: Tolerance

    def missing(self, answer: Answer) -> str:
        raise NotImplementedError

    def describe(self, measured: float, cap: float) -> str:
        raise NotImplementedError

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        measured: float | None = getattr(answer, self.measured)
        if measured is None:
            return Judgement.error(self.missing(answer))
        cap: float = getattr(self, self.cap_key)
        return Judgement(
            budget_score(measured, cap),
            self.describe(measured, cap),
            {self.measured: measured, self.cap_key: cap, "ratio": at_precision(measured / cap)},
        )


class CostBudget(Budget):
    """What a call cost, graded against ``max_usd``."""

    kind = "cost_budget"
    measured = "cost_usd"
    cap_key = "max_usd"
    type: Literal["cost_budget"]
    max_usd: Annotated[float, Field(gt=0)]

    def missing(self, answer: Answer) -> str:
        return answer.unpriced or "the target reported no cost for this answer"

    def describe(self, measured: float, cap: float) -> str:
        return f"cost {measured:.6f} USD against a cap of {cap:.6f}"


class LatencyBudget(Budget):
    """How long a call took, graded against ``max_ms``."""

    kind = "latency_budget"
    measured = "latency_ms"
    cap_key = "max_ms"
    type: Literal["latency_budget"]
    max_ms: Annotated[float, Field(gt=0)]

    def missing(self, answer: Answer) -> str:
        return "no latency was measured for this answer"

    def describe(self, measured: float, cap: float) -> str:
        return f"{measured:.1f} ms against a cap of {cap:.1f}"


class LlmRubric(Check):
    """A judge function grades the output against ``rubric``; its limits have no defaults."""

    kind = "llm_rubric"
    judged_by_model = True
    type: Literal["llm_rubric"]
    rubric: Needle
    judge_: Annotated[str, Field(alias="judge", pattern=r"^[\w.]+:\w+$")]
    threshold: Unit
    tolerance: Tolerance

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        try:
            reply = judges[self.judge_](rubric=self.rubric, output=answer.output, case=dict(case))
        except Exception as error:
            return Judgement.error(f"the judge raised {type(error).__name__}: {error}")
        score, reason = (
            (reply.get("score"), reply.get("reason"))
            if isinstance(reply, Mapping)
            else (reply, None)
        )
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 1:
            return Judgement.error("the judge returned no score in [0, 1]")
        return Judgement(
            at_precision(score), str(reason) if reason is not None else "scored by the judge"
        )


CHECKS: dict[str, type[Check]] = {
    check.kind: check
    for check in (
        Equals,
        Contains,
        NotContains,
        Regex,
        IsJson,
        JsonSchema,
        Length,
        CostBudget,
        LatencyBudget,
        LlmRubric,
    )
}
"""Every per-case check, by the ``type`` a suite writes."""
