"""The checks a judge scores: ``llm_rubric``, ``faithfulness``, and ``repeated`` around either.

A judge is named by reference: ``PROVIDER/MODEL`` (digline's spelling, resolved through an
installed provider, see ``providers``) or ``module:function`` in the suite's folder (runsite's
own). A judge enters the check's identity as its class name only: which judge is wired in is a
property of where the suite runs, not of what the check asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from generator.document.numbers import at_precision
from generator.suite.checks import (
    TEXT_ONLY,
    Answer,
    AnswerCheck,
    Judge,
    Judgement,
    Needle,
    Tolerance,
    Unit,
)
from generator.suite.sampling import agreement_share, fold

JudgeReference = Annotated[str, Field(alias="judge", pattern=r"^(?:[\w.]+:\w+|[\w.-]+/[^/\s].*)$")]
"""``provider/model``, or ``module:function`` relative to the suite's folder."""


def _asked(judge: Judge, **arguments: Any) -> Mapping[str, Any] | Judgement:
    """What a judge replied, as a mapping (a bare number is its score), or the error it made:
    it raised, or it said why its reply could not be read (``error``)."""
    try:
        reply = judge(**arguments)
    except Exception as error:
        return Judgement.error(f"the judge raised {type(error).__name__}: {error}")
    if not isinstance(reply, Mapping):
        return {"score": reply}
    if "error" in reply:
        return Judgement.error(str(reply["error"]))
    return reply


class LlmRubric(AnswerCheck):
    """A judge grades the output against ``rubric``; its limits have no defaults."""

    kind = "llm_rubric"
    identity_type = "LlmRubric"
    judged_by_model = True
    default_accepts = frozenset({"text", "conversation"})
    type: Literal["llm_rubric"]
    rubric: Needle
    judge_: JudgeReference
    threshold: Unit
    tolerance: Tolerance

    def identity_fields(self, instruments: Mapping[str, str]) -> dict[str, Any]:
        return super().identity_fields(instruments) | {"judge": f"<{instruments[self.judge_]}>"}

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        reply = _asked(
            judges[self.judge_], rubric=self.rubric, output=answer.output, case=dict(case)
        )
        if isinstance(reply, Judgement):
            return reply
        score = reply.get("score")
        if not (isinstance(score, int | float) and not isinstance(score, bool) and 0 <= score <= 1):
            return Judgement.error("the judge returned no score in [0, 1]")
        reason = reply.get("reason")
        return Judgement(at_precision(score), str(reason) if reason else "scored by the judge")


CLAIMS = "#claims"
"""Suffix of the key a claim judge is held under: one ``provider/model`` may name both a judge
and a claim judge, which are different instruments."""


class Faithfulness(AnswerCheck):
    """The share of the output's claims that the case's ``context`` supports, as a judge counts
    them; an empty context or an output with no claim is an error, never a score."""

    kind = "faithfulness"
    identity_type = "Faithfulness"
    judged_by_model = True
    default_accepts = TEXT_ONLY
    type: Literal["faithfulness"]
    judge_: JudgeReference
    threshold: Unit
    tolerance: Tolerance

    def identity_fields(self, instruments: Mapping[str, str]) -> dict[str, Any]:
        judge = instruments[self.judge_ + CLAIMS]
        return super().identity_fields(instruments) | {"judge": f"<{judge}>"}

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        context = case.get("context")
        if not context:
            return Judgement.error("the case has no context to be faithful to")
        reply = _asked(
            judges[self.judge_ + CLAIMS], output=answer.output, context=context, case=dict(case)
        )
        if isinstance(reply, Judgement):
            return reply
        supported, total = reply.get("supported"), reply.get("total")
        if not (isinstance(supported, int) and isinstance(total, int)) or supported < 0:
            return Judgement.error("the judge returned no count of claims")
        if total == 0:
            return Judgement.error("the judge found no claim in the output: no share to report")
        if supported > total:
            return Judgement.error("the judge counted more supported claims than claims")
        reason = reply.get("reason")
        return Judgement(
            at_precision(supported / total),
            str(reason) if reason else f"{supported} of {total} claims supported",
            {"claims_total": total, "claims_supported": supported},
        )


class Repeated(AnswerCheck):
    """One answer judged ``samples`` times by the check in ``inner``, folded like the samples
    of a suite; the limits, floor and name are the inner check's."""

    kind = "repeated"
    identity_type = "Repeated"
    derived = frozenset({"threshold", "tolerance", "floor_standard_errors", "accepts"})
    """Copied from ``inner``."""
    type: Literal["repeated"]
    inner: AnswerCheck
    samples: Annotated[int, Field(ge=2)]
    min_agreement: str | float

    @model_validator(mode="before")
    @classmethod
    def _from_inner(cls, values: Any) -> Any:
        inner = values.get("inner") if isinstance(values, dict) else None
        if isinstance(inner, AnswerCheck):
            copied = {key: getattr(inner, key) for key in cls.derived}
            values = values | copied
        return values

    @model_validator(mode="after")
    def _reachable(self) -> Repeated:
        if agreement_share(self.min_agreement, self.samples) is None:
            counts = ", ".join(f"{k}/{self.samples}" for k in range(1, self.samples + 1))
            raise ValueError(
                f"min_agreement: no count of {self.samples} samples gives this share; "
                f"one of {counts}"
            )
        return self

    identity_skips = frozenset({"type", "inner"})

    @property
    def judged(self) -> bool:
        return self.inner.judged

    @property
    def label(self) -> str:
        return self.name or self.inner.label

    @property
    def accepted(self) -> frozenset[str]:
        return self.inner.accepted

    def identity_fields(self, instruments: Mapping[str, str]) -> dict[str, Any]:
        inner = self.inner.identity_fields(instruments)
        inner.pop("floor_standard_errors", None)
        share = agreement_share(self.min_agreement, self.samples)
        return super().identity_fields(instruments) | {
            "inner": inner,
            "samples": self.samples,
            "min_agreement": share,
        }

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        share = agreement_share(self.min_agreement, self.samples) or 1.0
        judged = [self.inner.judge(answer, case, judges) for _ in range(self.samples)]
        return fold(judged, self.threshold, share)
