"""Two runs side by side: what each favours, what the intervals allow, and what is refused."""

from __future__ import annotations

import pytest

from generator.reading import DifferentJudges, DifferentRules, diff
from tests._helpers import a_corpus_run, a_redacted_run, a_verdict
from tests.reading._documents import DIGLINE, RUN1, RUN2, section


def test_two_fixture_runs_of_the_same_suite_differ_on_one_check_their_samples_cannot_separate():
    left = a_corpus_run(DIGLINE / "brief__fixtures-run-2026-09-01T12-29-17__via-digline-sdist.json")
    right = a_corpus_run(
        DIGLINE / "brief__fixtures-run-2026-09-01T12-44-02__via-digline-sdist.json"
    )
    reading = diff(left, right)
    # Same rules (98fc65b1e49e930e), no judge identity on either side. 21 cases x (json_schema,
    # agrees_with_mark, cost_budget) + precision + accuracy = 65 checks, all judged both times.
    # One flip: agrees_with_mark on 2026-08-24-evals-skills-for-coding-agents, 0.4 fail with
    # samples [0, 1] on the left, 1.0 pass with [1, 1] on the right: favours the right. Its
    # intervals touch at 1.0, so they overlap: 1 of the 1 advantages sampled on both sides, and
    # neither side's advantages lie beyond both intervals. Every other pair is within the larger
    # tolerance; accuracy moved 0.714286 -> 0.761905, exactly its tolerance 0.047619.
    assert section(reading, "head") == [
        ("diff.head.overlap", {"count": 1, "pairs": 1}),
        (
            "diff.overlap",
            {
                "case": "2026-08-24-evals-skills-for-coding-agents",
                "check": "agrees_with_mark",
                "left_low": 0.0,
                "left_high": 1.0,
                "right_low": 1.0,
                "right_high": 1.0,
            },
        ),
        ("diff.head.checks", {"count": 65, "differing": 1, "within": 64}),
        ("diff.head.favours", {"left": 0, "right": 1}),
        ("diff.head.exceeds", {"left": 0, "right": 0, "pairs": 1}),
    ]
    checks = section(reading, "checks")
    assert checks[0] == (
        "diff.favours_right.flip",
        {
            "case": "2026-08-24-evals-skills-for-coding-agents",
            "check": "agrees_with_mark",
            "left": 0.4,
            "right": 1.0,
        },
    )
    assert checks[-1] == (
        "diff.within",
        {"check": "accuracy", "left": 0.714286, "right": 0.761905, "tolerance": 0.047619},
    )
    assert reading.exit_code == 0


def test_run1_and_run2_differ_by_four_advantages_of_run1_none_beyond_the_intervals():
    left = a_corpus_run(RUN1)
    right = a_corpus_run(RUN2)
    reading = diff(left, right)
    # The four flips of run 2 favour run 1 (the passing side); all four pairs of intervals
    # overlap (see the reading of run 2 against its baseline). 16 pairs within tolerance.
    head = dict(section(reading, "head"))
    assert head["diff.head.overlap"] == {"count": 4, "pairs": 4}
    assert head["diff.head.checks"] == {"count": 20, "differing": 4, "within": 16}
    assert head["diff.head.favours"] == {"left": 4, "right": 0}
    assert head["diff.head.exceeds"] == {"left": 0, "right": 0, "pairs": 4}


def test_a_diff_of_runs_under_different_rules_is_refused_naming_five_moved_rules():
    left = a_corpus_run(DIGLINE / "classifier__expense-triage__d0e01e4.json")
    right = a_corpus_run(DIGLINE / "classifier__expense-triage__0106ccd.json")
    # 12 rules moved (see the classifier reading): named in the right run's order, five of them.
    with pytest.raises(DifferentRules) as refused:
        diff(left, right)
    assert str(refused.value) == (
        "runs 2026-08-27T09-45-38-769454-00-00-758fbcef8cb4789a and "
        "2026-09-08T07-42-54-701842-00-00-5af8d8dd1e55f5c5: config_hash: they follow different "
        "rules, so their scores do not pair; rules moved: precision.samples, "
        "precision[group=hotel], precision[group=meal], precision[group=taxi], "
        "precision[group=tools] (and 7 more)"
    )


def test_a_diff_of_runs_with_different_judges_is_refused():
    left = a_redacted_run(judge_config={"identities": ["local/judge"]})
    right = a_redacted_run(judge_config={"identities": ["openai/gpt-4o-mini"]})
    with pytest.raises(DifferentJudges, match=r"judge_config.identities: they were judged by"):
        diff(left, right)


def test_a_different_target_does_not_stop_a_diff():
    left = a_redacted_run(target_config={"values": {"model": "m-1", "provider": "local"}})
    right = a_redacted_run(target_config={"values": {"model": "m-2", "provider": "local"}})
    assert diff(left, right).exit_code == 0


def test_an_advantage_beyond_both_intervals_is_counted_for_its_side():
    def run(score: float, samples: list[float]):
        verdict = a_verdict(
            score=score,
            threshold=0.5,
            tolerance=0.05,
            samples=samples,
            sample_min=min(samples),
            sample_max=max(samples),
        )
        return a_redacted_run(
            results=[{"case_id": "c", "suspended": False, "verdicts": [verdict]}], aggregate=[]
        )

    # Left [0.6, 0.7] and right [0.8, 0.9] are 0.1 apart: disjoint, so the right run's advantage
    # lies beyond both observed intervals.
    reading = diff(run(0.65, [0.6, 0.7]), run(0.85, [0.8, 0.9]))
    head = dict(section(reading, "head"))
    assert "diff.head.overlap" not in head
    assert head["diff.head.exceeds"] == {"left": 0, "right": 1, "pairs": 1}
    assert section(reading, "checks") == [
        (
            "diff.favours_right",
            {"case": "c", "check": "contains", "left": 0.65, "right": 0.85, "gap": 0.2},
        )
    ]
