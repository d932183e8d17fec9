"""What ``runsite board`` prints: a suite's board as one JSON object, and as lines.

Pure: the board's values in, a dict and lines out; every figure is the board's own
(``account.board``), as its page will show it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from generator.account.board import Board, Entrant, Standing, board_of, contender_of
from generator.document.redacted import RedactedRun


def suite_board(runs: Sequence[RedactedRun]) -> dict[str, Any]:
    """The board of one suite's redacted ``runs``, as JSON (``board_json``)."""
    return board_json(board_of([contender_of(run) for run in runs]))


def board_json(board: Board) -> dict[str, Any]:
    """The board as JSON: each compared target with its run, rate and Wilson interval, cost,
    latency, its standing on each check against that check's best, and the case matrix."""
    return {
        "tenant": board.tenant,
        "suite": board.suite,
        "config_hash": board.config_hash,
        "checks": list(board.checks),
        "targets": [_entrant(e, board.checks) for e in board.entrants],
        "apart": [_entrant(e, ()) for e in board.apart],
        "cases": [
            {
                "case": row.case,
                "disagree": row.disagree,
                "statuses": list(row.statuses),
            }
            for row in board.cases
        ],
    }


def _entrant(e: Entrant, names: tuple[str, ...]) -> dict[str, Any]:
    run = e.run
    went = run.tally.verdicts
    bounds = went.bounds
    return {
        "target": run.target,
        "label": e.label,
        "run_key": run.key,
        "created_at": run.created_at,
        "config_hash": run.config_hash,
        "passed": went.passed,
        "failed": went.failed,
        "unjudged": went.unjudged,
        "rate": went.rate,
        "rate_interval": None if bounds is None else [bounds.low, bounds.high],
        "cost_per_case_usd": run.cost,
        "cost_known": run.cost_known,
        "latency_ms": run.latency_ms,
        "pareto": e.pareto,
        "checks": {name: _standing(s) for name, s in zip(names, _by_name(e, names), strict=True)},
    }


def _by_name(e: Entrant, names: tuple[str, ...]) -> list[Standing | None]:
    held = {s.figures.name: s for s in e.checks}
    return [held.get(name) for name in names]


def _standing(s: Standing | None) -> dict[str, Any] | None:
    if s is None:
        return None
    counts, mean = s.figures.counts, s.figures.mean_bounds
    bounds = counts.bounds
    return {
        "passed": counts.passed,
        "failed": counts.failed,
        "rate": counts.rate,
        "rate_interval": None if bounds is None else [bounds.low, bounds.high],
        "mean_score": None if s.figures.score is None else s.figures.score / 1_000_000,
        "mean_interval": None if mean is None else [mean.low, mean.high],
        "best": s.best,
        "pairs": s.pairs,
        "mcnemar": {"p": s.p, "p_holm": s.p_holm},
        "tied_with_best": s.tied,
    }


def board_lines(value: dict[str, Any]) -> list[str]:
    """A line per target: its rate and interval, cost, latency, and the checks it is best or
    tied on; then what the frontier's mark means, where a target has it."""
    lines = [f"{value['tenant']}/{value['suite']}  rules {value['config_hash']}"]
    for t in value["targets"]:
        rate = "—" if t["rate"] is None else f"{t['rate']:.0%}"
        interval = t["rate_interval"]
        shown = f"{rate} ({interval[0]:.0%}–{interval[1]:.0%})" if interval else rate
        spent = t["cost_per_case_usd"]
        cost = "cost unknown" if spent is None else f"{_dollars(spent)}/case"
        latency = "latency unknown" if t["latency_ms"] is None else f"{t['latency_ms']:,.0f} ms"
        level = [n for n, s in t["checks"].items() if s is not None and s["tied_with_best"]]
        mark = "◆" if t["pareto"] else " "
        lines.append(
            f"{mark} {t['label']}  {shown}  {cost}  {latency}"
            f"  best or tied on: {', '.join(level) or '—'}"
        )
    lines += [f"  apart (other rules): {t['label']}  {t['run_key']}" for t in value["apart"]]
    if any(t["pareto"] for t in value["targets"]):
        lines.append("◆ no other target passes as much for less, or more for as little")
    return lines


def _dollars(amount: float) -> str:
    """Dollars to the cent from one up, else to three significant digits, never in exponents."""
    if amount >= 1 or amount == 0:
        return f"US${amount:,.2f}"
    return f"US${amount:.{2 - math.floor(math.log10(amount))}f}"
