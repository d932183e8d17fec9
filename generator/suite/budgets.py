"""The two budgets: a graded ceiling on what each answer cost and on how long it took.

A rise moves the score long before it breaks the cap: 1.0 at zero, 0.5 at the cap, falling
beyond it and never reaching 0, so three and ten times over the cap still read apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from generator.document.numbers import at_precision, within
from generator.suite.checks import (
    ALL_KINDS,
    Answer,
    AnswerCheck,
    Judge,
    Judgement,
    Positive,
    Tolerance,
    Unit,
)

STORAGE_STEP = 1e-6


def budget_score(measured: float, cap: float, threshold: float) -> float:
    """``cap / (cap + measured)`` at storage precision, kept on the side of ``threshold`` that
    the measurement lands on against the cap, so rounding never turns a call within budget into
    a failing one, nor one over it into a pass."""
    score = at_precision(cap / (cap + measured))
    limit = at_precision(threshold)
    if within(measured, cap):
        return max(score, limit)
    return min(score, max(0.0, at_precision(limit - STORAGE_STEP)))


class Budget(AnswerCheck):
    """A ceiling on a measurement of each answer. Subclasses name the measurement and the cap."""

    default_accepts = ALL_KINDS
    measured: ClassVar[str]
    """The attribute of the answer that holds the measurement."""
    cap_key: ClassVar[str]
    threshold: Unit = 0.5
    tolerance: Tolerance

    def missing(self, answer: Answer) -> str:
        raise NotImplementedError

    def judge(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        measured: float | None = getattr(answer, self.measured)
        if measured is None:
            return Judgement.error(self.missing(answer))
        cap: float = getattr(self, self.cap_key)
        score = budget_score(measured, cap, self.threshold)
        return Judgement(
            score,
            f"{measured:.6f} against a cap of {cap:.6f}",
            {self.measured: measured, self.cap_key: cap, "ratio": at_precision(measured / cap)},
        )


class CostBudget(Budget):
    """What a call cost, in USD, graded against ``max_usd``."""

    kind = "cost_budget"
    identity_type = "CostBudget"
    measured = "cost_usd"
    cap_key = "max_usd"
    type: Literal["cost_budget"]
    max_usd: Positive

    def missing(self, answer: Answer) -> str:
        return answer.unpriced or "the target reported no cost for this answer"


class LatencyBudget(Budget):
    """How long a call took, in milliseconds, graded against ``max_ms``."""

    kind = "latency_budget"
    identity_type = "LatencyBudget"
    measured = "latency_ms"
    cap_key = "max_ms"
    type: Literal["latency_budget"]
    max_ms: Positive

    def missing(self, answer: Answer) -> str:
        return "no latency was measured for this answer"
