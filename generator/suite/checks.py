"""The per-case checks: what a suite declares under ``[[assertions]]``, and how each one judges.

Each check is a frozen model of its parameters (so an unknown or missing key is refused when
the suite loads) with a pure ``judge`` from one answer to a judgement. A judgement is a score
in [0, 1], or no score when the check could not judge (an error, never a fail: the target
raised, the output was not of a kind the check reads, a value it needs was not reported).

Parameter names, defaults and outcomes are digline's, so a digline suite loads as it is and
judges as digline judged it; ``identity_fields`` gives the fields digline's class of each check
declares, from which ``identity`` derives the check's ``assertion_id``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

import jsonschema
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)

from generator.document.numbers import at_precision
from generator.suite.trajectory import Trajectory


def _fraction(value: Any) -> Any:
    """Thresholds may be written as a count of cases, ``"9/10"``."""
    if isinstance(value, str) and re.fullmatch(r"\d+/[1-9]\d*", value):
        top, bottom = value.split("/")
        return int(top) / int(bottom)
    return value


def _as_written(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A number checked as a float and kept as written: digline hashes ``1`` and ``1.0`` apart."""
    checked = handler(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else checked


Unit = Annotated[float, Field(ge=0, le=1), WrapValidator(_as_written), BeforeValidator(_fraction)]
Tolerance = Annotated[float, Field(ge=0), WrapValidator(_as_written), BeforeValidator(_fraction)]
Positive = Annotated[float, Field(gt=0), WrapValidator(_as_written)]
Needle = Annotated[str, Field(min_length=1)]
OutputKind = Literal["text", "structured", "conversation"]
ALL_KINDS: frozenset[str] = frozenset({"text", "structured", "conversation"})
TEXT_ONLY: frozenset[str] = frozenset({"text"})


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
    input: str | None = None
    """What the target was asked, where it said (a judge may be shown it)."""


@dataclass(frozen=True)
class Judgement:
    """A check's finding on one answer; ``score`` is None when it could not judge.

    ``samples`` holds the scores a check folded into this one (a ``repeated`` check).
    """

    score: float | None
    reason: str
    metadata: dict[str, JsonValue] = field(default_factory=dict)
    samples: tuple[float, ...] | None = None

    @classmethod
    def of(cls, passed: bool, reason: str, **metadata: JsonValue) -> Judgement:
        return cls(1.0 if passed else 0.0, reason, dict(metadata))

    @classmethod
    def error(cls, reason: str, **metadata: JsonValue) -> Judgement:
        return cls(None, reason, dict(metadata))


Judge = Callable[..., Any]
"""A judge: called with keyword arguments (``rubric``, ``output``, ``case`` for a rubric;
``output``, ``context``, ``case`` for a claim judge)."""


class Rule(BaseModel):
    """What every check declares, per case or per run: its type, name and limits."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    kind: ClassVar[str]
    """The ``type`` a suite writes."""
    identity_type: ClassVar[str]
    """The class name digline's identity of this check is derived under."""
    judged_by_model: ClassVar[bool] = False
    identity_skips: ClassVar[frozenset[str]] = frozenset({"type"})
    derived: ClassVar[frozenset[str]] = frozenset()
    """Fields a suite may not write: they are set from elsewhere."""

    type: str
    name: Annotated[str, Field(min_length=1)] | None = None
    threshold: Unit = 1.0
    tolerance: Tolerance = 0.0

    @property
    def label(self) -> str:
        """The check's name in a run: its declared ``name``, else its type's default."""
        return self.name or self.kind

    @property
    def judged(self) -> bool:
        """Whether a model produces this check's score."""
        return self.judged_by_model

    def identity_fields(self, instruments: Mapping[str, str]) -> dict[str, Any]:
        """Every field digline's class of this check declares, with its value.

        ``instruments`` names the class of each judge the suite resolved, by reference: a
        judge enters an identity as its class name only.
        """
        values = self.model_dump(by_alias=True, exclude=set(self.identity_skips))
        return values | {"name": self.label}


def _kinds(value: Any) -> Any:
    """``accepts`` is written as a non-empty array of output kinds; duplicates say nothing more."""
    if value == []:
        raise ValueError("an empty list accepts no output at all")
    return tuple(sorted(set(value))) if isinstance(value, list) else value


class Check(Rule):
    """A check judged on each case's answer. Subclasses declare their parameters and defaults."""

    default_accepts: ClassVar[frozenset[str]] = TEXT_ONLY

    accepts: Annotated[tuple[OutputKind, ...], BeforeValidator(_kinds)] = ()
    """The output kinds the check reads; another kind is an error. Empty means its default."""
    floor_standard_errors: Positive | None = None
    """The declared width of the noise floor a comparison reads this check against."""

    @property
    def accepted(self) -> frozenset[str]:
        return frozenset(self.accepts) or self.default_accepts

    def identity_fields(self, instruments: Mapping[str, str]) -> dict[str, Any]:
        return super().identity_fields(instruments) | {"accepts": sorted(self.accepted)}

    def refusal(self, answer: Answer) -> Judgement | None:
        """The error for an output of a kind this check does not read, else None."""
        if answer.kind in self.accepted:
            return None
        return Judgement.error(
            f"{self.label} does not read {answer.kind} output "
            f"(reads: {', '.join(sorted(self.accepted))})"
        )

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        """The check's finding, or the error for an output of a kind it does not read."""
        return self.refusal(answer) or self.read(answer, case, judges)

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        raise NotImplementedError


def _text(answer: Answer) -> str:
    """The output of an answer ``refusal`` admitted as text."""
    assert isinstance(answer.output, str)
    return answer.output


def _folded(text: str, needle: str, case_sensitive: bool) -> tuple[str, str]:
    return (text, needle) if case_sensitive else (text.casefold(), needle.casefold())


class Equals(Check):
    """The output is exactly the case's ``expected``, on the same kind of output."""

    kind = "equals"
    identity_type = "Equals"
    default_accepts = ALL_KINDS
    type: Literal["equals"]

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        expected = case.get("expected")
        if expected is None:
            return Judgement.error("the case has no expected value to compare with")
        if isinstance(expected, str) != (answer.kind == "text"):
            return Judgement.error("the output and the expected value are of different kinds")
        same = answer.output == expected
        return Judgement.of(same, "identical to expected" if same else "differs from expected")


class Contains(Check):
    """The output contains ``needle``."""

    kind = "contains"
    identity_type = "Contains"
    negated: ClassVar[bool] = False
    type: Literal["contains"]
    needle: Needle
    case_sensitive: bool = True

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text, needle = _folded(_text(answer), self.needle, self.case_sensitive)
        found = needle in text
        return Judgement.of(
            found != self.negated,
            "the needle is in the output" if found else "the needle is absent",
        )


class NotContains(Contains):
    """The output does not contain ``needle``."""

    kind = "not_contains"
    identity_type = "NotContains"
    negated = True
    type: Literal["not_contains"]  # type: ignore[assignment]


class Affix(Check):
    """The output starts (``at = "start"``) or ends (``at = "end"``) with ``affix``."""

    kind = "affix"
    identity_type = "Affix"
    type: Literal["affix"]
    affix: Needle
    at: Literal["start", "end"] = "start"
    case_sensitive: bool = True

    @property
    def label(self) -> str:
        return self.name or ("starts_with" if self.at == "start" else "ends_with")

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text, affix = _folded(_text(answer), self.affix, self.case_sensitive)
        found = text.startswith(affix) if self.at == "start" else text.endswith(affix)
        return Judgement.of(found, f"the affix is {'' if found else 'not '}at the {self.at}")


class Regex(Check):
    """The output matches ``pattern`` somewhere (``re.search``)."""

    kind = "regex"
    identity_type = "Regex"
    type: Literal["regex"]
    pattern: Needle

    @model_validator(mode="after")
    def _compiles(self) -> Regex:
        try:
            re.compile(self.pattern)
        except re.error as error:
            raise ValueError(f"pattern: not a regular expression ({error.msg})") from None
        return self

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        found = re.search(self.pattern, _text(answer)) is not None
        return Judgement.of(found, "the pattern matches" if found else "the pattern does not match")


class IsJson(Check):
    """The text output decodes as JSON (of the given top-level kind); undecodable text fails."""

    kind = "is_json"
    identity_type = "IsJson"
    type: Literal["is_json"]
    top_level: Literal["any", "object", "array"] = "any"

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        try:
            value = json.loads(_text(answer))
        except ValueError:
            return Judgement.of(False, "the output is not JSON", json_kind="invalid")
        found = (
            "object"
            if isinstance(value, dict)
            else "array"
            if isinstance(value, list)
            else "scalar"
        )
        passed = self.top_level in ("any", found)
        return Judgement.of(passed, f"the output is JSON of kind {found}", json_kind=found)


def check_schema(schema: Mapping[str, Any], key: str) -> None:
    """``ValueError`` naming ``key`` when ``schema`` is not a valid JSON Schema."""
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        raise ValueError(f"{key}: not a valid JSON Schema ({error.message})") from None


class JsonSchema(Check):
    """The output is JSON that a JSON Schema accepts; text that is not JSON is an error."""

    kind = "json_schema"
    identity_type = "JsonSchema"
    default_accepts = frozenset({"text", "structured"})
    type: Literal["json_schema"]
    schema_: dict[str, JsonValue] = Field(alias="schema")

    @model_validator(mode="after")
    def _valid_schema(self) -> JsonSchema:
        check_schema(self.schema_, "schema")
        return self

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        value = answer.output
        if answer.kind == "text":
            try:
                value = json.loads(_text(answer))
            except ValueError:
                return Judgement.error("the output is not decodable as JSON")
        errors = list(jsonschema.Draft202012Validator(self.schema_).iter_errors(value))
        return Judgement.of(not errors, f"{len(errors)} schema violations")


class Length(Check):
    """The output's length lies within ``minimum`` and ``maximum`` (characters or words)."""

    kind = "length"
    identity_type = "Length"
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

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text = _text(answer)
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


def edit_distance(a: str, b: str) -> int:
    """Insertions, deletions and substitutions that turn ``a`` into ``b``."""
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i]
        for j, right in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (left != right))
            )
        previous = current
    return previous[-1]


class Levenshtein(Check):
    """How close the output is to the case's ``expected``: 1 − distance / the longer length."""

    kind = "levenshtein"
    identity_type = "Levenshtein"
    type: Literal["levenshtein"]
    threshold: Unit = 0.9

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        expected = case.get("expected")
        if expected is None:
            return Judgement.error("the case has no expected value to compare with")
        if not isinstance(expected, str):
            return Judgement.error("the expected value is not text")
        text = _text(answer)
        longest = max(len(text), len(expected))
        if longest == 0:
            return Judgement(1.0, "both empty", {"distance": 0, "length": 0})
        distance = edit_distance(text, expected)
        return Judgement(
            at_precision(1.0 - distance / longest),
            f"{distance} edits over {longest} characters",
            {"distance": distance, "length": longest},
        )
