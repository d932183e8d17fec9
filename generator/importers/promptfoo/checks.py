"""promptfoo's assertions as checks: a verdict per assertion and case over its repeats, and one
for the test itself.

- **Identities.** An assertion's ``assertion_id`` is the first 16 hex digits of the SHA-256 of
  the canonical JSON ``{"name": its metric (else its type), "parameters": the assertion as
  declared but its threshold and weight, "type": "promptfoo.assertion"}``, with ``"occurrence":
  n`` added for the n-th repeat of one assertion in a test; the test's own check is ``{"name":
  "test", "type": "promptfoo.test"}``. Moving a threshold keeps an identity; changing what an
  assertion looks for makes it another check.
- **Pass and score** are promptfoo's: each row's ``pass`` and ``score`` of the assertion, and the
  row's ``success`` and ``score`` for the test (its ``threshold`` and weights applied by
  promptfoo). A verdict's threshold is the one declared where it is a score (0 to 1) and agrees
  with what promptfoo decided; else 1 where that agrees (a binary assertion, a graded failure);
  else 0 (a pass below 1 that promptfoo's grader gave without a threshold). Where the test
  declares a ``threshold``, or an assertion a ``weight`` of 0, promptfoo does not let that
  assertion decide the test, so its verdict records its score and never fails (threshold 0).
  The counts ``passed``, ``failed`` and ``errored`` of every verdict say what promptfoo decided
  on each row.
- **Repeats** (``--repeat``) are the verdict's ``samples``: its score their mean, its status a
  pass where every repeat that was judged passed.
- **Errors.** A row whose provider failed (no grading) is an error sample of every check of its
  test, its text the reason; a verdict with no judged sample is an ``error``. A score outside
  0 to 1 cannot be a score: that verdict is an error that keeps the number in its metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.document.codec import canonical, compact
from generator.document.numbers import at_precision, meets
from generator.importers.inspect_ai.scores import digest
from generator.importers.promptfoo.output import Component, Row
from generator.importers.said import joined, said, text

TEST = "test"
"""The name of the check that is the test's own pass."""
_LIMITS = frozenset({"threshold", "weight"})
"""Fields of an assertion that say how it is judged, not what it checks."""


@dataclass(frozen=True)
class Check:
    """One assertion of a test (or the test itself), as the check it becomes."""

    name: str
    assertion_id: str
    declared: dict[str, Any] | None
    """The assertion as the test declares it; None for the test's own check."""
    threshold: float | None
    """The threshold declared, where it is a score."""
    measure: bool
    """promptfoo does not let it decide the test: it records a score and never fails."""

    def rule(self) -> list[Any]:
        return [self.assertion_id, self.threshold, self.measure]


@dataclass(frozen=True)
class Judged:
    """One row's result for one check."""

    score: float | None
    """None where the row could not be judged."""
    passed: bool
    note: str
    grader: bool = False
    grading_prompt: str | None = None


def checks_of(asserts: list[dict[str, Any]], threshold: float | None) -> list[Check]:
    """A check per assertion of a test, in its order, then the test's own."""
    found: list[Check] = []
    seen: dict[bytes, int] = {}
    for assertion in asserts:
        metric, kind = assertion.get("metric"), assertion.get("type")
        name = metric if isinstance(metric, str) and metric else str(kind)
        parameters = {k: v for k, v in assertion.items() if k not in _LIMITS}
        key = canonical(parameters)
        identity: dict[str, Any] = {
            "name": name,
            "parameters": parameters,
            "type": "promptfoo.assertion",
        }
        if seen.get(key):
            identity["occurrence"] = seen[key]
        seen[key] = seen.get(key, 0) + 1
        weight = assertion.get("weight")
        measure = threshold is not None or (_number(weight) and weight == 0)
        found.append(
            Check(name, digest(identity), assertion, _unit(assertion.get("threshold")), measure)
        )
    test = digest({"name": TEST, "type": "promptfoo.test"})
    return [*found, Check(TEST, test, None, _unit(threshold), False)]


def judged(check: Check, row: Row, position: int) -> Judged:
    """``row``'s result for ``check``, the ``position``-th check of its test."""
    if row.gradingResult is None:
        return Judged(None, False, text(row.error) or "promptfoo recorded no grading")
    if check.declared is None:
        return Judged(at_precision(row.score), row.success, text(row.error) or "")
    component = _component(check, row, position)
    if component is None:
        return Judged(None, False, "promptfoo recorded no result for this assertion")
    metadata = component.metadata or {}
    grading = metadata.get("renderedGradingPrompt")
    tokens = component.tokensUsed
    return Judged(
        at_precision(component.score),
        component.pass_,
        text(component.reason) or "",
        bool(tokens and tokens.numRequests) or grading is not None,
        grading if isinstance(grading, str) else None if grading is None else compact(grading),
    )


def verdict(check: Check, results: list[Judged]) -> dict[str, Any]:
    """``check``'s verdict on one case over its rows (one per repeat)."""
    head: dict[str, Any] = {
        "assertion": check.name,
        "assertion_id": check.assertion_id,
        "tolerance": 0.0,
    }
    if any(r.grader for r in results):
        head["judged"] = True
    scores = [r.score for r in results if r.score is not None]
    passed = all(r.passed for r in results if r.score is not None)
    metadata: dict[str, Any] = {
        "passed": sum(r.score is not None and r.passed for r in results),
        "failed": sum(r.score is not None and not r.passed for r in results),
        "errored": sum(r.score is None for r in results),
    }
    if check.declared is not None and _number(check.declared.get("weight")):
        metadata["weight"] = check.declared["weight"]
    prompts = [r.grading_prompt for r in results]
    if any(p is not None for p in prompts):
        metadata["grading_prompts"] = prompts
    reason = _reason(results)
    score = at_precision(sum(scores) / len(scores)) if scores else None
    beyond = next((s for s in (*scores, score) if s is not None and not 0 <= s <= 1), None)
    threshold = 0.0 if check.measure else _threshold(check.threshold, passed, score)
    if beyond is not None:
        metadata["value"] = beyond
        reason = joined(reason, f"promptfoo scored {beyond:.6f}, outside the 0 to 1 of a score")
    elif score is not None and threshold is None:
        metadata["value"] = score
        reason = joined(reason, "promptfoo failed it at the top of the scale")
    if score is None or beyond is not None or threshold is None:
        error = {"threshold": check.threshold or 0.0, "score": None, "status": "error"}
        return head | error | {"metadata": metadata} | said(reason)
    status = "pass" if meets(score, threshold) else "fail"
    found = head | {"threshold": threshold, "score": score, "status": status, "metadata": metadata}
    if len(results) > 1:
        found |= {"samples": scores, "sample_min": min(scores), "sample_max": max(scores)}
    return found | said(reason)


def _component(check: Check, row: Row, position: int) -> Component | None:
    """The row's result for the check's assertion: at its position where the row holds a result
    per assertion of the test, else the first holding the same assertion."""
    components = (row.gradingResult.componentResults if row.gradingResult else None) or []
    declared = len(row.testCase.assert_ or ())
    if len(components) == declared and position < declared:
        return components[position]
    wanted = canonical(check.declared)
    return next((c for c in components if c.assertion and canonical(c.assertion) == wanted), None)


def _threshold(declared: float | None, passed: bool, score: float | None) -> float | None:
    """The threshold that says what promptfoo decided of ``score``; None where none can (a fail
    at a score of 1)."""
    if score is None:
        return declared or 0.0
    for limit in (declared, 1.0):
        if limit is not None and meets(score, limit) == passed:
            return limit
    return 0.0 if passed else None


def _reason(results: list[Judged]) -> str | None:
    notes = [
        f"repeat {n}: {r.note}" if len(results) > 1 else r.note
        for n, r in enumerate(results, 1)
        if r.note
    ]
    return "\n".join(notes) or None


def _unit(value: Any) -> float | None:
    return float(value) if _number(value) and 0 <= value <= 1 else None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
