"""Folding a check's judgements over a case's samples into the one verdict a run records.

With one sample the judgement is the verdict. With several, the score is the mean of the samples
that scored, the verdict records every sample and its interval, and when fewer samples than the
suite's ``min_agreement`` share the majority outcome the verdict is an error: the target did not
answer one way often enough for any single outcome to be the finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import JsonValue

from generator.document.numbers import at_precision, meets
from generator.suite.checks import Judgement, Rule


def verdict_of(
    check: Rule, assertion_id: str, judgements: Sequence[Judgement], needed: int
) -> dict[str, Any]:
    """The verdict (in document form) of ``check`` over one case's samples.

    ``needed`` is how many samples must share the majority outcome (1 when not sampled).
    """
    head: dict[str, Any] = {
        "assertion": check.label,
        "assertion_id": assertion_id,
        "threshold": check.threshold,
        "tolerance": check.tolerance,
    }
    if check.judged_by_model:
        head["judged"] = True
    if len(judgements) == 1:
        only = judgements[0]
        return (
            head | _outcome(check, only.score) | {"reason": only.reason, "metadata": only.metadata}
        )
    return head | _folded(check, judgements, needed)


def _outcome(check: Rule, score: float | None) -> dict[str, Any]:
    if score is None:
        return {"score": None, "status": "error"}
    return {"score": score, "status": "pass" if meets(score, check.threshold) else "fail"}


def _folded(check: Rule, judgements: Sequence[Judgement], needed: int) -> dict[str, Any]:
    scored = [j for j in judgements if j.score is not None]
    scores = [j.score for j in scored if j.score is not None]
    passes = sum(meets(score, check.threshold) for score in scores)
    majority = max(passes, len(scores) - passes)
    counts: dict[str, JsonValue] = {
        "samples": len(judgements),
        "agreement": at_precision(majority / len(judgements)),
        "errored_samples": len(judgements) - len(scores),
        "scores": list(scores),
        "spread": at_precision(max(scores) - min(scores)) if scores else 0.0,
    }
    if not scores:
        first = judgements[0].reason
        return _error(f"no sample could be judged; the first said: {first}", counts)
    if majority < needed:
        return _error(
            f"only {majority} of {len(judgements)} samples share one outcome, "
            f"and the suite asks for {needed}",
            counts,
        )
    interval = {"samples": scores, "sample_min": min(scores), "sample_max": max(scores)}
    mean = at_precision(sum(scores) / len(scores))
    listed = ", ".join(f"{score:.6f}" for score in scores)
    return (
        _outcome(check, mean)
        | interval
        | {"reason": f"the mean of {len(scores)} samples ({listed})"}
        | {"metadata": _mean_metadata(scored) | counts}
    )


def _error(reason: str, counts: dict[str, JsonValue]) -> dict[str, Any]:
    return {"score": None, "status": "error", "reason": reason, "metadata": counts}


def _mean_metadata(scored: Sequence[Judgement]) -> dict[str, JsonValue]:
    """Numbers every sample reported, averaged; labels every sample agreed on, kept.

    A sampled cost budget also records what all its samples cost together.
    """
    keys = set.intersection(*(set(j.metadata) for j in scored))
    folded: dict[str, JsonValue] = {}
    for key in sorted(keys):
        values = [j.metadata[key] for j in scored]
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            numbers = [float(v) for v in values if isinstance(v, int | float)]
            folded[key] = at_precision(sum(numbers) / len(numbers))
            if key == "cost_usd":
                folded["total_cost_usd"] = at_precision(sum(numbers))
        elif all(v == values[0] for v in values):
            folded[key] = values[0]
    return folded
