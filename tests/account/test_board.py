"""A suite's board: the latest run of each target over the same rules, its figures those of
each run's own account, its tests scipy's on the same case pairs, its frontier right by hand."""

from __future__ import annotations

import json
from typing import Any

import pytest
from scipy import stats

from generator.account.board import Board, board_of, contender_of
from generator.account.run import account_of
from generator.document.redacted import RedactedRun
from tests._helpers import a_redacted_run, a_run, a_verdict

CASES = 12


def _run(model: str, passing: int, spent: float, at: str, **overrides: Any) -> dict[str, Any]:
    """A run of ``model`` whose first ``passing`` cases of ``CASES`` pass, costing ``spent``."""
    results = [
        {
            "case_id": f"c{n:02d}",
            "suspended": False,
            "verdicts": [
                a_verdict(score=1.0, status="pass")
                if n < passing
                else a_verdict(score=0.0, status="fail")
            ],
        }
        for n in range(CASES)
    ]
    usage = {
        "judge": {"calls": 0, "counted": 0, "spent_usd": 0.0},
        "target": {"calls": CASES, "counted": CASES, "spent_usd": spent},
    }
    return a_run(
        results=results,
        aggregate=[],
        created_at=at,
        target_config={"values": {"model": model, "provider": "local"}},
        usage=usage,
        **overrides,
    )


def _redacted(document: dict[str, Any]) -> RedactedRun:
    return a_redacted_run(**document)


def _board(documents: list[dict[str, Any]]) -> Board:
    return board_of([contender_of(_redacted(d)) for d in documents])


THREE = [
    _run("big", 12, 0.12, "2026-12-01T10:00:00+00:00"),
    _run("mid", 11, 0.024, "2026-12-01T11:00:00+00:00"),
    _run("small", 3, 0.012, "2026-12-01T12:00:00+00:00"),
    _run("big", 2, 0.12, "2026-11-01T10:00:00+00:00"),  # an earlier run of big: not its latest
]


def test_the_board_lists_each_targets_latest_run_with_its_own_pages_figures():
    runs = [_redacted(d) for d in THREE]
    board = board_of([contender_of(run) for run in runs])
    assert [e.label for e in board.entrants] == ["local/big", "local/mid", "local/small"]
    assert {e.run.key for e in board.entrants} == {r.key for r in runs[:3]}
    for entrant in board.entrants:
        run = next(r for r in runs if r.key == entrant.run.key)
        account = account_of(run)
        assert entrant.run.tally == account.tally
        assert entrant.run.tally.verdicts.bounds == account.tally.verdicts.bounds
        [mine] = entrant.checks
        assert mine.figures == account.checks[0]
    assert board.apart == ()


def test_each_gap_to_the_best_is_scipys_mcnemar_with_holms_correction():
    board = _board(THREE[:3])
    best, mid, small = board.entrants
    assert best.checks[0].best and best.checks[0].tied
    # mid fails one case big passes, small nine: each split all one way
    p_mid = stats.binomtest(1, 1).pvalue
    p_small = stats.binomtest(9, 9).pvalue
    assert mid.checks[0].p == pytest.approx(p_mid)
    assert small.checks[0].p == pytest.approx(p_small)
    assert small.checks[0].p_holm == pytest.approx(min(1.0, 2 * p_small))
    assert mid.checks[0].p_holm == pytest.approx(max(p_mid, min(1.0, 2 * p_small)))
    assert mid.checks[0].tied and not small.checks[0].tied


def test_the_frontier_is_the_targets_no_other_beats_on_both_rate_and_cost():
    """big passes most at the highest cost, small least at the lowest: both on the frontier;
    mid is on it too (cheaper than big, better than small); a fourth as good as mid but
    dearer is not, and one whose cost is unknown is placed nowhere."""
    dear = _run("dear", 11, 0.06, "2026-12-01T13:00:00+00:00")
    unknown = _run("unpriced", 12, 0.0, "2026-12-01T14:00:00+00:00")
    unknown["usage"]["target"]["every_cost_known"] = False
    board = _board([*THREE[:3], dear, unknown])
    marked = {e.label: e.pareto for e in board.entrants}
    assert marked == {
        "local/big": True,
        "local/mid": True,
        "local/small": True,
        "local/dear": False,
        "local/unpriced": False,
    }
    assert next(e for e in board.entrants if e.label == "local/unpriced").run.cost is None


def test_a_target_whose_latest_run_follows_other_rules_is_listed_apart():
    other = _run("other", 12, 0.01, "2026-11-30T10:00:00+00:00", config_hash="0123456789abcdef")
    board = _board([*THREE[:3], other])
    assert [e.label for e in board.apart] == ["local/other"]
    assert all(e.label != "local/other" for e in board.entrants)


def test_two_targets_of_one_model_are_told_apart_by_the_setting_that_differs():
    warm = _run("big", 12, 0.12, "2026-12-02T10:00:00+00:00")
    warm["target_config"]["values"]["temperature"] = 0.9
    board = _board([THREE[0], warm])
    labels = {e.run.target: e.label for e in board.entrants}
    assert len(labels) == 2
    plain = next(t for t, label in labels.items() if "temperature" not in label)
    assert sorted(labels.values()) == [
        f"local/big ({plain[:7]})",
        "local/big (temperature=0.9)",
    ]


def test_runsite_board_prints_the_boards_figures_from_the_archive(archive, runsite, write_json):
    """The command reads the archive's runs of the suite: three targets, their rates and
    Wilson intervals each run's own, and a payload field of the runs in none of it."""
    paths = [str(write_json(d, f"run{n}.json")) for n, d in enumerate(THREE)]
    assert runsite("import", "--root", str(archive), *paths).exit_code == 0
    said = runsite("board", "support", "--root", str(archive), "--json")
    assert said.exit_code == 0, said.output
    board = json.loads(said.stdout)
    assert [t["label"] for t in board["targets"]] == ["local/big", "local/mid", "local/small"]
    for target, document in zip(board["targets"], THREE, strict=False):
        went = account_of(_redacted(document)).tally.verdicts
        assert target["rate"] == went.rate
        assert target["rate_interval"] == pytest.approx(list(went.bounds or ()), abs=1e-6)
    assert [t["pareto"] for t in board["targets"]] == [True, True, True]
    assert "found the signature" not in said.stdout  # a verdict's reason is payload
    text = runsite("board", "support", "--root", str(archive))
    assert text.stdout.splitlines()[1].startswith("◆ local/big  100% (")
