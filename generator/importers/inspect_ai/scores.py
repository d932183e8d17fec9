"""Inspect's scores as checks: a verdict per scorer and case over its epochs, and the metrics.

A value becomes a number as Inspect's own ``value_to_float`` makes it one: C, I, P, N are 1, 0,
0.5, 0; a boolean is 1 or 0; yes/true and no/false likewise; a numeric string is its number; any
other string is 0. An object or a list has no number, and its epoch counts as not scored.

A check's score is the sample's value under the eval's first epoch reducer, as Inspect recorded
it in ``reductions``; where the log has none (an eval that errored or never finished) it is the
mean of the epochs that scored. Each further reducer the log reduced by is a check of its own,
``scorer/reducer`` as Inspect's results name it, its score that reducer's value. Each epoch that scored is one of the verdict's ``samples``; each
epoch that did not is a line of its reason, and epochs in a row with no sample recorded are one
line (``epochs 2 to 10: no sample was recorded``), so a verdict is as long as its samples.

A scorer any of whose values (an epoch's or a reduction's), or whose declared threshold, lies
outside 0 to 1 measures on a scale of its own (a count of tool calls, seconds, BLEU × 100): its
verdicts are marked ``own_scale`` and keep Inspect's numbers as they are. They pass or fail
against a threshold ``runsite.toml`` declares for the scorer; without one they are ``measured``,
judged by nothing. A metric of such a scorer, or one outside 0 to 1, is likewise ``measured``.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator, Sequence, Set
from dataclasses import dataclass
from typing import Any

from generator.document.codec import canonical
from generator.document.numbers import at_precision, meant, meets
from generator.document.values import BEYOND_PROBLEM, json_type
from generator.importers.inspect_ai.log import EvalScore, Sample
from generator.importers.said import joined as _joined
from generator.importers.said import said as _said
from generator.importers.said import text as _text

LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
"""Inspect's letters: correct, incorrect, partial, no answer."""


def value_to_float(value: Any) -> float | None:
    """The number Inspect reads in a score's value; None for an object, a list or NaN."""
    if isinstance(value, bool | int | float):
        number = float(value)
        return None if math.isnan(number) else number
    if not isinstance(value, str):
        return None
    if value in LETTERS:
        return LETTERS[value]
    lowered = value.lower()
    if lowered in ("yes", "true"):
        return 1.0
    if lowered in ("no", "false"):
        return 0.0
    if lowered.replace(".", "", 1).isdecimal():
        return float(lowered)
    return 0.0


def categorical(values: Sequence[Any]) -> bool:
    """Whether every value is one of Inspect's letters or a boolean (and there is one)."""
    return bool(values) and all(
        isinstance(v, bool) or (isinstance(v, str) and v in LETTERS) for v in values
    )


def digest(value: Any) -> str:
    """The first 16 hex digits of the SHA-256 of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value)).hexdigest()[:16]


@dataclass(frozen=True)
class ScorerCheck:
    """One scorer, as the check it becomes in every case."""

    name: str
    assertion_id: str
    threshold: float
    judged: bool
    scorer: str
    """The scorer whose epochs it reads: its name, past the eval's first reducer
    ``scorer/reducer``."""
    own_scale: bool = False
    """Whether the scorer measures on a scale of its own rather than 0 to 1."""
    measured: bool = False
    """Whether its scores are recorded and judged by nothing: on its own scale, with no
    threshold declared for it."""


@dataclass(frozen=True)
class Epochs:
    """One case's recorded samples, of the eval's ``count`` epochs."""

    count: int
    recorded: dict[int, Sample]
    """Each sample recorded, by its epoch, in the order of the epochs."""
    reduced: dict[str, Any]
    """Each check's value for this case under its reducer, where the log has one."""


def verdict(check: ScorerCheck, case: Epochs) -> dict[str, Any]:
    """``check``'s verdict on one case, in document form: as much work as the case has samples,
    however many epochs the eval declares."""
    head: dict[str, Any] = {
        "assertion": check.name,
        "assertion_id": check.assertion_id,
        "threshold": check.threshold,
        "tolerance": 0.0,
    }
    if check.judged:
        head["judged"] = True
    if check.own_scale:
        head["own_scale"] = True
    scores: list[float] = []
    notes: list[str] = []
    for first, last, sample in _slots(case):
        number, note = _scored(check.scorer, sample)
        if number is not None:
            scores.append(number)
        if note:
            notes.append(f"{_epochs(first, last)}: {note}" if case.count > 1 else note)
    metadata = _counts(case, scores) | _payload(check.scorer, case)
    reason = "\n".join(notes) or None
    reduced = value_to_float(case.reduced.get(check.name))
    reduced = reduced if reduced is not None and meant(reduced) else None
    score = (reduced if reduced is not None else _mean(scores)) if scores else None
    if score is None:
        return head | {"score": None, "status": "error", "metadata": metadata} | _said(reason)
    status = "measured" if check.measured else "pass" if meets(score, check.threshold) else "fail"
    found = head | {"score": score, "status": status, "metadata": metadata} | _said(reason)
    if case.count > 1:
        found |= {"samples": scores, "sample_min": min(scores), "sample_max": max(scores)}
    return found


def _slots(case: Epochs) -> Iterator[tuple[int, int, Sample | None]]:
    """Each recorded epoch (first and last the same), and each run of epochs with no sample
    between them (its first and last), in order."""
    after = 0
    for epoch, sample in case.recorded.items():
        if epoch > after + 1:
            yield after + 1, epoch - 1, None
        yield epoch, epoch, sample
        after = epoch
    if after < case.count:
        yield after + 1, case.count, None


def _epochs(first: int, last: int) -> str:
    return f"epoch {first}" if first == last else f"epochs {first} to {last}"


def _scored(scorer: str, sample: Sample | None) -> tuple[float | None, str]:
    """An epoch's number for ``scorer``, and what the reason says about it."""
    if sample is None:
        return None, "no sample was recorded"
    if sample.error is not None:
        return None, f"the sample raised: {sample.error.message}"
    score = (sample.scores or {}).get(scorer)
    if score is None:
        return None, "not scored"
    number = value_to_float(score.value)
    explanation = _text(score.explanation)
    if number is None:
        return None, _joined(explanation, f"a JSON {json_type(score.value)} with no number")
    if not meant(number):
        return None, _joined(explanation, BEYOND_PROBLEM)
    return number, explanation or ""


def _counts(case: Epochs, scores: list[float]) -> dict[str, Any]:
    """What travels: how many epochs, how many not scored, and the limits samples reached."""
    counts: dict[str, Any] = {}
    if case.count > 1:
        counts = {"samples": case.count, "errored_samples": case.count - len(scores)}
    limits = [s.limit for s in case.recorded.values() if s.limit is not None]
    if limits:
        counts["limited_samples"] = len(limits)
        for limit in limits:
            if limit.limit is not None:
                counts[f"{limit.type}_limit"] = limit.limit
    return counts


def _payload(scorer: str, case: Epochs) -> dict[str, Any]:
    """What stays inside the perimeter: the target, and each recorded epoch's answer and
    metadata."""
    recorded = list(case.recorded.values())
    scores = [(s.scores or {}).get(scorer) for s in recorded]
    answers = [score.answer if score is not None else None for score in scores]
    metadata = [score.metadata if score is not None else None for score in scores]
    found: dict[str, Any] = {}
    if recorded and recorded[0].target is not None:
        found["target"] = recorded[0].target
    if any(a is not None for a in answers):
        found["answers"] = answers
    if any(metadata):
        found["score_metadata"] = metadata
    return found


def on_unit_scale(values: Iterable[float | None]) -> bool:
    """Whether every number of ``values`` is a share from 0 to 1."""
    return all(0 <= v <= 1 for v in values if v is not None)


def aggregates(scores: Sequence[EvalScore], own_scale: Set[str]) -> list[dict[str, Any]]:
    """Each metric Inspect reported, as a run-level check that records it and never fails:
    ``measured`` on its own scale where its scorer (one of ``own_scale``) has one or its value
    leaves 0 to 1."""
    found = []
    for score in scores:
        for metric, value in score.metrics.items():
            name = "/".join(p for p in (score.name, score.reducer, metric) if p)
            parameters = {"metric": metric, "reducer": score.reducer, "scorer": score.name}
            head = {
                "assertion": name,
                "assertion_id": digest(
                    {"name": name, "parameters": parameters, "type": "inspect_ai.metric"}
                ),
                "threshold": 0.0,
                "tolerance": 0.0,
            }
            number = value.value
            if number is None or not meant(number):
                found.append(head | {"score": None, "status": "error", "metadata": {}})
            elif score.name in own_scale or not on_unit_scale([number]):
                measured = {"score": number, "status": "measured", "own_scale": True}
                found.append(head | measured | {"metadata": {}})
            else:
                found.append(head | {"score": number, "status": "pass", "metadata": {}})
    return found


def _mean(scores: list[float]) -> float | None:
    return at_precision(sum(scores) / len(scores)) if scores else None
