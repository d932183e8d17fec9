"""The per-case checks: what a suite declares under ``[[assertions]]``, and how each one judges.
This module holds what every check shares; the checks themselves are in ``text_checks``,
``budgets``, ``judged``, ``pii`` and ``agent_checks``.

Each check is a frozen model of its parameters (so an unknown or missing key is refused when
the suite loads) with a pure ``judge`` from one answer to a judgement. A judgement is a score
in [0, 1], or no score when the check could not judge (an error, never a fail: the target
raised, the output was not of a kind the check reads, a value it needs was not reported).

Parameter names, defaults and outcomes are digline's, so a digline suite loads as it is and
judges as digline judged it; ``identity_fields`` gives the fields digline's class of each check
declares, from which ``identity`` derives the check's ``assertion_id``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

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


class AnswerCheck(Rule):
    """A check judged on each case's answer. Subclasses declare their parameters and defaults."""

    default_accepts: ClassVar[frozenset[str]] = TEXT_ONLY

    accepts: Annotated[tuple[OutputKind, ...], BeforeValidator(_kinds)] = ()
    """The output kinds the check reads; another kind is an error. Empty means its default."""
    floor_standard_errors: Annotated[float, Field(gt=0)] | None = None
    """The declared width of the noise floor a comparison reads this check against: a float
    however it is written, as digline hashes and records it (``2`` is ``2.0``)."""

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
        """The check's finding, or the error for an output of a kind it does not read (or
        declares in ``accepts`` and cannot read: digline errors such a verdict too)."""
        refused = self.refusal(answer)
        if refused is not None:
            return refused
        try:
            return self.read(answer, case, judges)
        except NotText as error:
            return Judgement.error(str(error))

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        raise NotImplementedError


class NotText(ValueError):
    """A check that reads text met another kind of output that its ``accepts`` admitted."""


def text_of(answer: Answer) -> str:
    """The output of an answer as text, or ``NotText``."""
    if not isinstance(answer.output, str):
        raise NotText(f"the output is {answer.kind}, and this check reads it only as text")
    return answer.output
