"""The run-level checks: accuracy, precision, recall and F1 over a per-case check and labels.

The check named in ``over`` answers "does this case agree with its human mark": a case
labelled ``positive`` whose check passed is a true positive, one whose check failed a false
negative; a ``negative`` case whose check passed is a true negative, one whose check failed a
false positive. A canary, a suspended case, a case whose check errored and an unlabelled case
are left out, in that order, and counted as such. An empty denominator is an error, never a
perfect score.

``by_group = true`` adds one more of the same aggregate per group the cases declare, named
``name[group=G]`` and counting only that group's cases; the whole-run one stays as it was.
With sampled cases, each aggregate is also computed once per sample index, and those values
are its samples: how far it moves, while its score stays the one over the folded verdicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from generator.document.numbers import at_precision, meets
from generator.suite.checks import Judgement, Needle, Rule, Tolerance, Unit


@dataclass(frozen=True)
class CaseOutcome:
    """What an aggregate reads of one case."""

    label: str | None
    suspended: bool
    status: str | None
    """The status of the ``over`` check's verdict on the case; None when it was not measured."""
    canary: bool = False
    samples: tuple[float, ...] = ()
    threshold: float = 1.0


@dataclass(frozen=True)
class Confusion:
    true_positive: int = 0
    false_positive: int = 0
    true_negative: int = 0
    false_negative: int = 0
    suspended_excluded: int = 0
    errored_excluded: int = 0
    unlabelled_excluded: int = 0
    canary_excluded: int = 0

    @property
    def considered(self) -> int:
        return self.true_positive + self.false_positive + self.true_negative + self.false_negative

    def metadata(self) -> dict[str, Any]:
        return {**self.__dict__, "considered": self.considered}


_CELLS = {
    ("positive", "pass"): "true_positive",
    ("positive", "fail"): "false_negative",
    ("negative", "pass"): "true_negative",
    ("negative", "fail"): "false_positive",
}


def confusion_of(outcomes: Sequence[CaseOutcome]) -> Confusion:
    counts = dict.fromkeys(Confusion.__dataclass_fields__, 0)
    for case in outcomes:
        if case.canary:
            counts["canary_excluded"] += 1
        elif case.suspended or case.status is None:
            counts["suspended_excluded"] += 1
        elif case.status == "error":
            counts["errored_excluded"] += 1
        elif case.label not in ("positive", "negative"):
            counts["unlabelled_excluded"] += 1
        else:
            counts[_CELLS[(str(case.label), case.status)]] += 1
    return Confusion(**counts)


def _per_sample(outcomes: Sequence[CaseOutcome]) -> list[list[CaseOutcome]]:
    """The cases as each sample index alone saw them; none unless every judged case has the
    same number (two or more) of samples."""
    counted = [o for o in outcomes if o.status in ("pass", "fail") and not o.canary]
    lengths = {len(o.samples) for o in counted}
    if len(lengths) != 1 or (total := lengths.pop()) < 2:
        return []
    return [
        [
            CaseOutcome(
                o.label, o.suspended, "pass" if meets(o.samples[n], o.threshold) else "fail"
            )
            if o in counted and o.samples
            else o
            for o in outcomes
        ]
        for n in range(total)
    ]


class Aggregate(Rule):
    """A run-level check; its limits have no defaults, and may be written as counts (``"9/10"``)."""

    over: Needle
    """The name of the per-case check whose verdicts are counted."""
    threshold: Unit
    tolerance: Tolerance
    derived: ClassVar[frozenset[str]] = frozenset({"group"})
    by_group: bool = False
    group: str | None = None
    """The group an expanded copy counts; set by ``expanded`` only, never by a suite."""

    def ratio(self, c: Confusion) -> tuple[int, int]:
        raise NotImplementedError

    def expanded(self, groups: Sequence[str]) -> list[Aggregate]:
        """This aggregate, then (with ``by_group``) one copy per group, in the order given."""
        copies = [
            self.model_copy(update={"name": f"{self.label}[group={g}]", "group": g}) for g in groups
        ]
        return [self, *copies] if self.by_group else [self]

    def judge(self, outcomes: Sequence[CaseOutcome]) -> Judgement:
        found = self._value(outcomes)
        if found.score is None:
            return found
        values = [v.score for v in map(self._value, _per_sample(outcomes)) if v.score is not None]
        return Judgement(found.score, found.reason, found.metadata, tuple(values) or None)

    def _value(self, outcomes: Sequence[CaseOutcome]) -> Judgement:
        counts = confusion_of(outcomes)
        top, bottom = self.ratio(counts)
        excluded = (
            f"{counts.considered} counted, {counts.suspended_excluded} suspended, "
            f"{counts.errored_excluded} could not be judged"
        )
        if bottom == 0:
            return Judgement(
                None,
                f"nothing to measure: {self.kind} has an empty denominator ({excluded})",
                counts.metadata(),
            )
        score = at_precision(top / bottom)
        return Judgement(
            score, f"{self.kind} {score:.6f} = {top}/{bottom} ({excluded})", counts.metadata()
        )


class Accuracy(Aggregate):
    kind: ClassVar[str] = "accuracy"
    identity_type: ClassVar[str] = "Accuracy"
    type: Literal["accuracy"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return c.true_positive + c.true_negative, c.considered


class Precision(Aggregate):
    kind: ClassVar[str] = "precision"
    identity_type: ClassVar[str] = "Precision"
    type: Literal["precision"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return c.true_positive, c.true_positive + c.false_positive


class Recall(Aggregate):
    kind: ClassVar[str] = "recall"
    identity_type: ClassVar[str] = "Recall"
    type: Literal["recall"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return c.true_positive, c.true_positive + c.false_negative


class F1(Aggregate):
    kind: ClassVar[str] = "f1"
    identity_type: ClassVar[str] = "F1"
    type: Literal["f1"]

    def ratio(self, c: Confusion) -> tuple[int, int]:
        return 2 * c.true_positive, 2 * c.true_positive + c.false_positive + c.false_negative


AGGREGATES: dict[str, type[Aggregate]] = {a.kind: a for a in (Accuracy, Precision, Recall, F1)}
"""Every run-level check, by the ``type`` a suite writes."""
