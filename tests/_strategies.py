"""Hypothesis strategies for redacted runs, for any test that reads runs the way a page does.

``redacted_runs()`` draws one valid ``RedactedRun``; ``run_pairs()`` draws two runs of the same
suite, tenant, rules and judge, whose checks overlap in part, so that pairing, flips, errors
and one-sided checks all occur. Scores lean on the values where limits bite: 0, 1, a threshold
and a millionth either side of it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from generator.document.numbers import at_precision
from generator.document.redacted import RedactedRun

ASSERTIONS = [
    ("contains", "d697b44c72db127b"),
    ("llm_rubric", "5db8acbca10a7d67"),
    ("cost_budget", "6ee791b5aea8bfb2"),
    ("latency_budget", "b0f42e6ea7e15d56"),
]
AGGREGATES = [("accuracy", "b00de39e2f9bb72b"), ("precision", "31e12a0068b3f1db")]
CASES = ["order", "return", "waterproof", "invoice", "refund"]
THRESHOLDS = [0.5, 0.7, 1.0]
IDENTITIES = ["anthropic/claude-haiku-4-5", "local/judge", "openai/gpt-4o-mini"]

scores = st.one_of(
    st.sampled_from([0.0, 0.4, 0.499999, 0.5, 0.500001, 0.699999, 0.7, 0.700001, 0.8, 1.0]),
    st.floats(0, 1).map(at_precision),
)


@st.composite
def verdicts(
    draw: st.DrawFn, assertion: tuple[str, str], whole_run: bool = False
) -> dict[str, Any]:
    """One valid verdict of ``assertion``: scored or errored, sampled or not."""
    name, identity = assertion
    threshold = 0.5 if name == "cost_budget" else draw(st.sampled_from(THRESHOLDS))
    verdict: dict[str, Any] = {
        "assertion": name,
        "assertion_id": identity,
        "threshold": threshold,
        "tolerance": draw(st.sampled_from([0.0, 0.05, 0.1])),
        "metadata": {},
    }
    if draw(st.integers(0, 9)) == 0:
        verdict |= {"score": None, "status": "error"}
    else:
        score = draw(scores)
        verdict |= {"score": score, "status": "pass" if score >= threshold else "fail"}
    if draw(st.booleans()):
        samples = draw(st.lists(scores, min_size=1, max_size=5))
        verdict |= {"samples": samples, "sample_min": min(samples), "sample_max": max(samples)}
        if name == "llm_rubric":
            verdict["judged"] = True
        if draw(st.booleans()):
            verdict["floor_standard_errors"] = draw(st.sampled_from([1.0, 2.0]))
    if name == "cost_budget":
        verdict["metadata"]["max_usd"] = 0.002
    if whole_run:
        verdict["metadata"]["considered"] = draw(st.sampled_from([18, 20]))
    return verdict


@st.composite
def cases(draw: st.DrawFn, case_id: str, assertions: list[tuple[str, str]]) -> dict[str, Any]:
    """One case: set aside, or measured by each of ``assertions`` in turn."""
    if draw(st.integers(0, 5)) == 0:
        return {"case_id": case_id, "suspended": True, "verdicts": []}
    case: dict[str, Any] = {
        "case_id": case_id,
        "suspended": False,
        "verdicts": [draw(verdicts(a)) for a in assertions],
    }
    if draw(st.integers(0, 7)) == 0:
        case["error_kind"] = draw(st.sampled_from(["raised", "shape"]))
    if assertions and draw(st.integers(0, 7)) == 0:
        name, identity = assertions[0]
        low = draw(st.sampled_from([0.0, 0.5, 0.7]))
        case["calibration"] = {"check": name, "assertion_id": identity, "low": low, "high": 0.95}
    return case


@st.composite
def shapes(draw: st.DrawFn) -> tuple[list[tuple[str, list[tuple[str, str]]]], list[Any]]:
    """A suite: which cases hold which checks (a check may repeat), and its whole-run checks."""
    case_ids = draw(st.lists(st.sampled_from(CASES), min_size=1, max_size=4, unique=True))
    layout = [
        (case_id, draw(st.lists(st.sampled_from(ASSERTIONS), min_size=1, max_size=3)))
        for case_id in case_ids
    ]
    whole = draw(st.lists(st.sampled_from(AGGREGATES), max_size=2, unique=True))
    return layout, whole


def _config(draw: st.DrawFn, judges: list[str]) -> dict[str, Any]:
    target = draw(
        st.sampled_from(
            [
                {},
                {"values": {"model": "m-1", "provider": "local"}},
                {"values": {"model": "m-2", "provider": "local"}, "withheld": ["base_url"]},
            ]
        )
    )
    judge: dict[str, Any] = {"identities": judges} if judges else {}
    if draw(st.booleans()):
        judge["values"] = {"temperature": draw(st.sampled_from([0.0, 0.2]))}
    return {"target_config": target, "judge_config": judge}


@st.composite
def redacted_runs(
    draw: st.DrawFn,
    shape: tuple[list[tuple[str, list[tuple[str, str]]]], list[Any]] | None = None,
    judges: list[str] | None = None,
    config_hash: str | None = None,
) -> RedactedRun:
    """A valid redacted run; given a shape, a judge and rules, it keeps most of that shape."""
    layout, whole = shape if shape is not None else draw(shapes())
    keep = st.integers(0, 5).map(bool) if shape is not None else st.just(True)
    if judges is None:
        judges = draw(st.lists(st.sampled_from(IDENTITIES), max_size=2, unique=True).map(sorted))
    moment = draw(st.integers(10, 59))
    doc: dict[str, Any] = {
        "schema_version": 23,
        "tenant": "acme",
        "environment": draw(st.sampled_from(["staging", "production"])),
        "suite": "support",
        "config_hash": config_hash
        or draw(st.sampled_from(["b2a55669ae7e0169", "758fbcef8cb4789a"])),
        "created_at": f"2026-11-29T22:43:{moment}.000000+00:00",
        "git_commit": draw(st.sampled_from([None, "e8492dd7", "e8492dd7-dirty"])),
        "projected": False,
        "disclosure": {},
        "metadata": {},
        "results": [draw(cases(c, a)) for c, a in layout if draw(keep)],
        "aggregate": [draw(verdicts(a, whole_run=True)) for a in whole if draw(keep)],
        "artifacts": draw(st.sampled_from([{}, {"prompts/system.txt": {"withheld": True}}])),
        **_config(draw, judges),
    }
    if draw(st.booleans()):
        known = draw(st.booleans())
        doc["usage"] = {
            "target": {"calls": 3, "counted": 0, "spent_usd": 0.0036, "every_cost_known": known},
            "judge": {"calls": 0, "counted": 0, "spent_usd": 0.0},
        }
    return RedactedRun.model_validate(doc)


@st.composite
def run_pairs(draw: st.DrawFn) -> tuple[RedactedRun, RedactedRun]:
    """Two runs of one suite under the same rules and judge, as a diff accepts them."""
    shape = draw(shapes())
    judges = draw(st.lists(st.sampled_from(IDENTITIES), max_size=2, unique=True).map(sorted))
    config_hash = draw(st.sampled_from(["b2a55669ae7e0169", "758fbcef8cb4789a"]))
    one = draw(redacted_runs(shape, judges, config_hash))
    other = draw(redacted_runs(shape, judges, config_hash))
    return one, other
