"""Folding a check's judgements over several samples into one, as digline folds them.

Two folds share these rules: a suite's ``samples`` (the target asked several times per case)
and a ``repeated`` check (one answer judged several times). The score is the mean of the
samples that scored; ``agreement`` is the share of all samples that reached the majority
outcome, so a sample that could not judge counts against agreement and never for it; below the
declared ``min_agreement`` the fold is an error, because no single outcome is the finding.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from pydantic import JsonValue

from generator.document.numbers import at_precision, meets
from generator.suite.checks import Judgement, Rule


def agreement_share(declared: str | float, samples: int) -> float | None:
    """The share ``min_agreement`` declares (``"3/5"`` or a number), or None when no count
    of ``samples`` samples gives it."""
    if isinstance(declared, str):
        match = re.fullmatch(r"(\d+)/([1-9]\d*)", declared)
        if match is None:
            return None
        share = int(match[1]) / int(match[2])
    else:
        share = float(declared)
    reachable = {at_precision(k / samples) for k in range(1, samples + 1)}
    return share if 0 < share <= 1 and at_precision(share) in reachable else None


def fold(judgements: Sequence[Judgement], threshold: float, agreement: float) -> Judgement:
    """One judgement from several; with a single one, that one."""
    if len(judgements) == 1:
        return judgements[0]
    scores = [j.score for j in judgements if j.score is not None]
    statuses = Counter(meets(score, threshold) for score in scores)
    shared = max(statuses.values(), default=0) / len(judgements)
    errored = len(judgements) - len(scores)
    if not scores:
        return Judgement.error(f"no sample could be judged over {len(judgements)} attempts")
    if not meets(shared, agreement):
        return Judgement.error(
            f"the samples did not agree: {shared:.2f} of them share the majority outcome, "
            f"below the required {agreement:.2f}",
            samples=len(judgements),
            agreement=at_precision(shared),
            errored_samples=errored,
            scores=list(scores),
        )
    metadata = _measured(judgements) | {
        "samples": len(judgements),
        "agreement": at_precision(shared),
        "spread": at_precision(max(scores) - min(scores)),
        "errored_samples": errored,
        "scores": list(scores),
    }
    costs = _numbers(judgements, "cost_usd")
    if costs:
        metadata["total_cost_usd"] = at_precision(sum(costs))
    listed = ", ".join("error" if j.score is None else f"{j.score:.6f}" for j in judgements)
    return Judgement(
        at_precision(fmean(scores)),
        f"the mean of {len(judgements)} samples ({listed})",
        metadata,
        samples=tuple(scores),
    )


def _numbers(judgements: Sequence[Judgement], key: str) -> list[float]:
    values = [j.metadata.get(key) for j in judgements]
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values if isinstance(v, int | float)]
    return []


def _measured(judgements: Sequence[Judgement]) -> dict[str, JsonValue]:
    """What every sample measured: numbers averaged, anything else kept where all agree."""
    keys = set.intersection(*(set(j.metadata) for j in judgements))
    folded: dict[str, JsonValue] = {}
    for key in sorted(keys):
        numbers = _numbers(judgements, key)
        values = [j.metadata[key] for j in judgements]
        if numbers:
            folded[key] = at_precision(fmean(numbers))
        elif all(v == values[0] for v in values):
            folded[key] = values[0]
    return folded


def verdict_of(
    check: Rule,
    assertion_id: str,
    judgements: Sequence[Judgement],
    agreement: float,
) -> dict[str, Any]:
    """The verdict (in document form) of ``check`` over one case's samples."""
    found = fold(judgements, check.threshold, agreement)
    verdict: dict[str, Any] = {
        "assertion": check.label,
        "assertion_id": assertion_id,
        "threshold": float(check.threshold),
        "tolerance": float(check.tolerance),
        "reason": found.reason,
        "metadata": found.metadata,
    }
    if found.score is None:
        verdict |= {"score": None, "status": "error"}
    else:
        passed = meets(found.score, check.threshold)
        verdict |= {"score": found.score, "status": "pass" if passed else "fail"}
    if found.samples is not None and found.score is not None:
        verdict |= {
            "samples": list(found.samples),
            "sample_min": min(found.samples),
            "sample_max": max(found.samples),
        }
        if any(j.samples is not None for j in judgements if len(judgements) > 1):
            verdict["sample_means"] = True
    if check.judged:
        verdict["judged"] = True
    floor = getattr(check, "floor_standard_errors", None)
    if floor is not None:
        verdict["floor_standard_errors"] = floor
    return verdict
