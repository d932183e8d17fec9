"""The run-level checks: accuracy, precision, recall and F1 over a per-case check and labels.

A case labelled ``positive`` or ``negative`` counts once, by whether the check named in ``over``
passed on it (predicted positive) or failed (predicted negative). Suspended cases, cases whose
check errored and unlabelled cases are left out and counted as such. An empty denominator is an
error, never a perfect score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from generator.document.numbers import at_precision
from generator.suite.checks import Judgement, Needle, Rule, Tolerance, Unit


@dataclass(frozen=True)
class CaseOutcome:
    """What an aggregate reads of one case."""

    label: str | None
    suspended: bool
    status: str | None
    """The status of the ``over`` check's verdict on the case; None when it was not measured."""


@dataclass(frozen=True)
class Confusion:
    true_positive: int = 0
    false_positive: int = 0
    true_negative: int = 0
    false_negative: int = 0
    suspended_excluded: int = 0
    errored_excluded: int = 0
    unlabelled_excluded: int = 0

    @property
    def considered(self) -> int:
        return self.true_positive + self.false_positive + self.true_negative + self.false_negative


def confusion_of(outcomes: Sequence[CaseOutcome]) -> Confusion:
    counts = dict.fromkeys(Confusion.__dataclass_fields__, 0)
    for case in outcomes:
        if case.suspended:
            counts["suspended_excluded"] += 1
        elif case.label not in ("positive", "negative"):
            counts["unlabelled_excluded"] += 1
        elif case.status not in ("pass", "fail"):
            counts["errored_excluded"] += 1
        else:
            predicted = "positive" if case.status == "pass" else "negative"
            truth = "true" if predicted == case.label else "false"
            counts[f"{truth}_{predicted}"] += 1
    return Confusion(**counts)


class Aggregate(Rule):
    """A run-level check; its limits have no defaults, and may be written as counts (``"9/10"``)."""

    over: Needle
    """The name of the per-case check whose verdicts are counted."""
    threshold: Unit
    tolerance: Tolerance

    def ratio(self, c: Confusion) -> tuple[int, int]:
        raise NotImplementedError

    def judge(self, outcomes: Sequence[CaseOutcome]) -> Judgement:
        counts = confusion_of(outcomes)
        metadata = {**counts.__dict__, "considered": counts.considered}
        top, bottom = self.ratio(counts)
        if bottom == 0:
            return Judgement.error(
                f"{self.type} has nothing to count: its denominator is 0", **metadata
            )
        score = at_precision(top / bottom)
        reason = f"{self.type} {score:.6f} = {top}/{bottom} over {counts.considered} labelled cases"
        return Judgement(score, reason, metadata)


class Accuracy(Aggregate):
    kind: ClassVar[str] = "accuracy"
    type: Literal["accuracy"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return c.true_positive + c.true_negative, c.considered


class Precision(Aggregate):
    kind: ClassVar[str] = "precision"
    type: Literal["precision"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return c.true_positive, c.true_positive + c.false_positive


class Recall(Aggregate):
    kind: ClassVar[str] = "recall"
    type: Literal["recall"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return c.true_positive, c.true_positive + c.false_negative


class F1(Aggregate):
    kind: ClassVar[str] = "f1"
    type: Literal["f1"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return 2 * c.true_positive, 2 * c.true_positive + c.false_positive + c.false_negative


AGGREGATES: dict[str, type[Aggregate]] = {a.kind: a for a in (Accuracy, Precision, Recall, F1)}
"""Every run-level check, by the ``type`` a suite writes."""
