"""Readings of real documents, each expected fact worked out by hand from the documents.

The working is written beside each expectation. Every run is read the way a page reads it:
migrated, then redacted with nothing disclosed.
"""

from __future__ import annotations

from generator.reading import explain, text
from generator.reading.facts import Param
from tests._helpers import a_corpus_run
from tests.reading._documents import BASELINE, DIGLINE, RUN1, RUN2, section


def at(case: str, check: str, **params: Param) -> dict[str, Param]:
    return {"case": case, "check": check, **params}


# Run 2's checks whose samples fall on both sides of the threshold (sample_min < threshold <=
# sample_max), in reading order. Every measured case (order, return, waterproof, invoice) samples
# contains and regex five times against a threshold of 1.0: regex at 1.0 to 1.0 everywhere, and
# contains too on order and return: every sample at the threshold, all passing, not on the line
# (digline counts these 6). contains on waterproof and invoice samples 0.0 to 1.0: on the line.
# llm_rubric (threshold 0.7) is on the line on waterproof [0.463971, 0.91537] and invoice
# [0.529336, 0.794648]; on order [0.764487, 0.880187] and return [0.757499, 0.851487] it clears
# 0.7. cost_budget and latency_budget (threshold 0.5) sample no lower than 0.588582: clear. 4.
RUN2_ON_THE_LINE = [
    ("check.on_the_line", at("waterproof", "contains", low=0.0, high=1.0, threshold=1.0)),
    (
        "check.on_the_line",
        at("waterproof", "llm_rubric", low=0.463971, high=0.91537, threshold=0.7),
    ),
    ("check.on_the_line", at("invoice", "contains", low=0.0, high=1.0, threshold=1.0)),
    ("check.on_the_line", at("invoice", "llm_rubric", low=0.529336, high=0.794648, threshold=0.7)),
]


def test_run2_against_the_promoted_baseline_names_four_flips_inside_overlapping_intervals():
    reading = explain(a_corpus_run(RUN2), a_corpus_run(BASELINE))
    # Both runs: config_hash b2a55669ae7e0169, tenant acme, judge_config {} and target_config
    # {}: no judge lead, the same rules. 5 cases; refund is suspended in both. 4 measured cases x
    # 5 checks = 20 verdicts; run 2 fails contains (0.4, 0.2 < 1.0) and llm_rubric (0.63143,
    # 0.620887 < 0.7) on waterproof and invoice: 16 pass, 4 fail. The four were passes in the
    # baseline, so they are 4 flips; the other 16 pairs stay within the current tolerance.
    # Every call's cost was known: no unpriced fact.
    assert section(reading, "ran") == [
        ("tally.cases", {"count": 5}),
        ("tally.suspended", {"count": 1}),
        ("tally.checks", {"count": 20, "passed": 16, "failed": 4}),
        ("tally.on_the_line", {"count": 4}),
        (
            "tally.moved",
            {"regressed": 4, "errored": 0, "new": 0, "missing": 0, "improved": 0, "unchanged": 16},
        ),
        ("tally.rules.same", {}),
    ]
    # The one file under test is withheld in both redacted runs: unknown, never a change.
    assert section(reading, "underneath") == [
        ("setting.artifact.unknown", {"path": "prompts/system.txt"})
    ]
    # Overlap: each flip's two intervals share a point. contains [1, 1] then [0, 1] (touch at 1);
    # waterproof llm_rubric [0.763971, 0.91537] then [0.463971, 0.91537]; invoice llm_rubric
    # [0.794648, 0.939542] then [0.529336, 0.794648] (touch at 0.794648). 4 of the 4 that moved.
    # The unchanged ones listed are those whose score moved at all: cost_budget and
    # latency_budget on every case, e.g. order cost 0.64136 - 0.631374 = +0.009986 <= 0.05,
    # invoice latency 0.666213 - 0.691505 = -0.025292 <= 0.1. contains, regex (1.0 = 1.0) and
    # llm_rubric on order and return (identical samples) did not move and are not listed.
    assert section(reading, "moved") == [
        ("moved.overlap", {"count": 4, "moved": 4}),
        (
            "check.overlap",
            at(
                "waterproof", "contains", before_low=1.0, before_high=1.0, now_low=0.0, now_high=1.0
            ),
        ),
        (
            "check.overlap",
            at(
                "waterproof",
                "llm_rubric",
                before_low=0.763971,
                before_high=0.91537,
                now_low=0.463971,
                now_high=0.91537,
            ),
        ),
        (
            "check.overlap",
            at("invoice", "contains", before_low=1.0, before_high=1.0, now_low=0.0, now_high=1.0),
        ),
        (
            "check.overlap",
            at(
                "invoice",
                "llm_rubric",
                before_low=0.794648,
                before_high=0.939542,
                now_low=0.529336,
                now_high=0.794648,
            ),
        ),
        ("check.regressed.flip", at("waterproof", "contains", before=1.0, now=0.4, threshold=1.0)),
        (
            "check.regressed.flip",
            at("waterproof", "llm_rubric", before=0.81143, now=0.63143, threshold=0.7),
        ),
        ("check.regressed.flip", at("invoice", "contains", before=1.0, now=0.2, threshold=1.0)),
        (
            "check.regressed.flip",
            at("invoice", "llm_rubric", before=0.860887, now=0.620887, threshold=0.7),
        ),
        (
            "check.unchanged",
            at(
                "order", "cost_budget", before=0.631374, now=0.64136, delta=0.009986, tolerance=0.05
            ),
        ),
        (
            "check.unchanged",
            at(
                "order",
                "latency_budget",
                before=0.67143,
                now=0.672906,
                delta=0.001476,
                tolerance=0.1,
            ),
        ),
        (
            "check.unchanged",
            at(
                "return",
                "cost_budget",
                before=0.615249,
                now=0.608082,
                delta=-0.007167,
                tolerance=0.05,
            ),
        ),
        (
            "check.unchanged",
            at(
                "return",
                "latency_budget",
                before=0.677597,
                now=0.663233,
                delta=-0.014364,
                tolerance=0.1,
            ),
        ),
        (
            "check.unchanged",
            at(
                "waterproof",
                "cost_budget",
                before=0.639736,
                now=0.627994,
                delta=-0.011742,
                tolerance=0.05,
            ),
        ),
        (
            "check.unchanged",
            at(
                "waterproof",
                "latency_budget",
                before=0.676784,
                now=0.660283,
                delta=-0.016501,
                tolerance=0.1,
            ),
        ),
        (
            "check.unchanged",
            at(
                "invoice",
                "cost_budget",
                before=0.62998,
                now=0.622455,
                delta=-0.007525,
                tolerance=0.05,
            ),
        ),
        (
            "check.unchanged",
            at(
                "invoice",
                "latency_budget",
                before=0.691505,
                now=0.666213,
                delta=-0.025292,
                tolerance=0.1,
            ),
        ),
        ("case.suspended", {"case": "refund"}),
    ]
    # No budget sample is below 0.5 (no call over the cap), and llm_rubric's judged samples are
    # never exactly 0 or 1 (no three-way spread): only the line.
    assert section(reading, "samples") == RUN2_ON_THE_LINE
    # Four regressions: exit 1, whatever the overlap says.
    assert reading.exit_code == 1


def test_run2_reads_the_same_against_run1_as_against_the_baseline_promoted_from_it():
    # Promotion drops the recorded answers and adds promoted_at; the reading sees neither.
    against_run1 = explain(a_corpus_run(RUN2), a_corpus_run(RUN1))
    against_baseline = explain(a_corpus_run(RUN2), a_corpus_run(BASELINE))
    assert against_run1.facts == against_baseline.facts
    assert against_run1.reference_key == against_baseline.reference_key


def test_run2_alone_states_its_failures_and_setup_and_never_exits_1():
    reading = explain(a_corpus_run(RUN2))
    assert section(reading, "ran") == [
        ("tally.cases", {"count": 5}),
        ("tally.suspended", {"count": 1}),
        ("tally.checks", {"count": 20, "passed": 16, "failed": 4}),
        ("tally.on_the_line", {"count": 4}),
    ]
    # git_commit ends in -dirty; target_config and judge_config are {}; usage: 20 target calls
    # for $0.024074, none to the judge.
    assert section(reading, "setup") == [
        (
            "setup.run",
            {
                "suite": "support",
                "environment": "staging",
                "created_at": "2026-11-29T22:43:33.810739+00:00",
            },
        ),
        ("setup.commit.dirty", {"commit": "e8492dd7707fbf801b92e771662384455478f9fb"}),
        ("setup.target.none", {}),
        ("setup.judge.none", {}),
        ("setup.artifact", {"path": "prompts/system.txt"}),
        ("setup.spent.target", {"calls": 20, "spent": 0.024074}),
        ("setup.spent.judge", {"calls": 0, "spent": 0.0}),
    ]
    assert section(reading, "found") == [
        ("check.failed", at("waterproof", "contains", score=0.4, threshold=1.0)),
        ("check.failed", at("waterproof", "llm_rubric", score=0.63143, threshold=0.7)),
        ("check.failed", at("invoice", "contains", score=0.2, threshold=1.0)),
        ("check.failed", at("invoice", "llm_rubric", score=0.620887, threshold=0.7)),
        ("case.suspended", {"case": "refund"}),
    ]
    assert section(reading, "samples") == RUN2_ON_THE_LINE
    assert reading.exit_code == 0


def test_a_run_read_alone_never_speaks_of_a_reference_in_either_language():
    reading = explain(a_corpus_run(RUN2))
    assert "reference" not in text(reading, "en")
    assert "riferimento" not in text(reading, "it")


def test_grouped_checks_added_to_the_classifier_read_as_new_rules_and_new_checks():
    before = a_corpus_run(DIGLINE / "classifier__expense-triage__d0e01e4.json")
    now = a_corpus_run(DIGLINE / "classifier__expense-triage__0106ccd.json")
    reading = explain(now, before)
    # config_hash 758fbcef8cb4789a then 5af8d8dd1e55f5c5: the rules changed. 20 cases of
    # agrees_with_mark (threshold 0.5) plus, in 0106ccd, 12 whole-run checks: precision and
    # accuracy and each per group (hotel, meal, taxi, tools, travel). Failing: dinner_client,
    # software_seat, parking_airport (0.0); precision[group=tools] 0.5 < 0.6,
    # precision[group=travel] 0.0, accuracy[group=tools] and [group=travel] 0.666667 < 0.7: 7.
    # On the line: lunch_team and hotel_over [0, 1] around 0.5; accuracy[group=hotel]
    # [0.666667, 1.0] around 0.7: 3. The 10 grouped checks are new; the other 22 pair.
    assert section(reading, "ran") == [
        ("tally.cases", {"count": 20}),
        ("tally.checks", {"count": 32, "passed": 25, "failed": 7}),
        ("tally.on_the_line", {"count": 3}),
        (
            "tally.moved",
            {"regressed": 0, "errored": 0, "new": 10, "missing": 0, "improved": 0, "unchanged": 22},
        ),
        # the ten new verdicts pair with nothing in the reference: the rules differ
        ("tally.unpaired", {"count": 10, "identity": 0, "rules": 10, "cases": 0}),
        ("tally.rules.changed", {}),
    ]
    # precision and accuracy were unsampled (1) and now take 5 samples; the groups are new.
    groups = ["hotel", "meal", "taxi", "tools", "travel"]
    assert section(reading, "underneath") == [
        ("setting.samples", {"check": "precision", "before": 1, "now": 5}),
        *[("setting.rule.added", {"check": f"precision[group={g}]"}) for g in groups],
        ("setting.samples", {"check": "accuracy", "before": 1, "now": 5}),
        *[("setting.rule.added", {"check": f"accuracy[group={g}]"}) for g in groups],
    ]
    moved = section(reading, "moved")
    # hotel_over fell 0.8 -> 0.6: -0.2 within its tolerance 0.4. lunch_team's samples were
    # reordered but its score stayed 0.8: not listed. Nothing got worse: new failing checks are
    # not regressions, so exit 0.
    assert moved[-1] == (
        "check.unchanged",
        at("hotel_over", "agrees_with_mark", before=0.8, now=0.6, delta=-0.2, tolerance=0.4),
    )
    assert moved[3] == (
        "check.new",
        {"check": "precision[group=tools]", "now": 0.5, "threshold": 0.6},
    )
    assert [k for k, _ in moved] == ["check.new"] * 10 + ["check.unchanged"]
    assert reading.exit_code == 0


def test_a_flip_on_unsampled_checks_is_a_regression_with_no_interval_claim():
    green = a_corpus_run(
        DIGLINE / "digline-action__green-runs-gate-2026-09-23T14-07-56__1c0ad86.json"
    )
    worse = a_corpus_run(
        DIGLINE / "digline-action__worse-runs-gate-2026-09-23T14-07-57__abef0eb.json"
    )
    reading = explain(worse, green)
    # where-is-my-order contains 1.0 pass -> 0.0 fail. Neither run samples, so there is no
    # interval to overlap. length stays 1.0 (its metadata length 42 -> 27 is not a score).
    assert section(reading, "moved") == [
        (
            "check.regressed.flip",
            at("where-is-my-order", "contains", before=1.0, now=0.0, threshold=1.0),
        )
    ]
    assert reading.exit_code == 1


def test_a_calibration_case_new_in_the_run_is_neither_new_nor_a_missed_band():
    before = a_corpus_run(DIGLINE / "prompt-first__replies__pypi-0.19.0.json")
    now = a_corpus_run(DIGLINE / "prompt-first__replies__pypi-0.21.0.json")
    reading = explain(now, before)
    # Same rules (0d99045c0f1639eb). 0.21 adds calibration-half-right, whose llm_rubric 0.827778
    # lies in its band [0.7, 0.95]: left out of the comparison, no missed band.
    # llm_rubric flips fail -> pass on opening-hours, order-a-book, gift-wrap, signed-copies (4);
    # price-check 0.344444 -> 0.527778 (+0.183334 > 0.1) and levenshtein order-a-book
    # 0.248291 -> 0.323612 (+0.075321 > 0.05) and price-check 0.182432 -> 0.292258 (+0.109826)
    # improve without a flip: 7 improved. levenshtein opening-hours +0.042831, gift-wrap
    # +0.03551, signed-copies +0.024574 are within 0.05: 3 unchanged.
    assert section(reading, "ran")[3] == (
        "tally.moved",
        {"regressed": 0, "errored": 0, "new": 0, "missing": 0, "improved": 7, "unchanged": 3},
    )
    # Of the 7, only price-check llm_rubric [0.3, 0.4] -> [0.2, 0.816667] overlaps; the rest
    # moved clear of their old interval (e.g. opening-hours llm_rubric [0.4, 0.466667] ->
    # [0.85, 0.883333]).
    assert section(reading, "moved")[:2] == [
        ("moved.overlap", {"count": 1, "moved": 7}),
        (
            "check.overlap",
            at(
                "price-check",
                "llm_rubric",
                before_low=0.3,
                before_high=0.4,
                now_low=0.2,
                now_high=0.816667,
            ),
        ),
    ]
    assert reading.exit_code == 0
