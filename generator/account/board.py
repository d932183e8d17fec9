"""A suite's board: the latest run of each target side by side, over the same rules, with what
each cost and which of its differences are beyond chance.

A target is its published configuration (``target_config``: provider, model, settings), the
identity a run's page already shows. The board compares the latest run of each target whose
latest run follows the rules of the suite's newest run (its ``config_hash``); a target whose
latest run follows other rules is listed apart and compared with none.

For each check, the target with the highest pass rate across cases (then the higher mean score)
is its best; each other target is tested against it over the cases both judged, by the exact
McNemar test, with Holm's correction across the targets tested: a target whose adjusted p is
not below ``ALPHA`` is tied with the best. A target is on the frontier (``pareto``) when no
other passes more of its checks at a cost per case no higher, or as many at a lower one;
a target whose cost is unknown is on no frontier, as it cannot be placed.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Sequence
from typing import NamedTuple

from generator.account.costs import Bill, bill
from generator.account.figures import CheckFigures, check_figures
from generator.account.significance import ALPHA, holm, mcnemar
from generator.account.tally import Tally, tally_of
from generator.document.redacted import RedactedRun, RedactedVerdict


class Standing(NamedTuple):
    """One check of one target: its figures, and how it stands against the check's best."""

    figures: CheckFigures
    best: bool
    pairs: int
    """Cases both this target and the best judged (none for the best itself)."""
    p: float | None
    """The exact McNemar test's p against the best; None for the best, or where no case
    differs."""
    p_holm: float | None

    @property
    def tied(self) -> bool:
        """Not told apart from the check's best after Holm's correction (the best included)."""
        return self.best or self.p_holm is None or self.p_holm >= ALPHA


class Entrant(NamedTuple):
    """One target's latest run."""

    target: str
    """A digest of the target's published configuration: its identity on the board."""
    label: str
    run_key: str
    created_at: str
    config_hash: str
    tally: Tally
    cost: float | None
    """What the target's calls cost per case measured, in US dollars; None where unknown."""
    cost_known: Bill
    latency_ms: float | None
    """The median latency of its recorded answers; None where none was recorded."""
    checks: tuple[Standing, ...]
    pareto: bool


class CaseRow(NamedTuple):
    """One case across the compared targets: each one's verdicts' statuses (None where its run
    has no such case, or set it aside), and whether they disagree."""

    case: str
    statuses: tuple[tuple[str, ...] | None, ...]
    disagree: bool


class Board(NamedTuple):
    """A suite's targets side by side."""

    tenant: str
    suite: str
    config_hash: str
    entrants: tuple[Entrant, ...]
    """The targets compared, the highest pass rate first."""
    apart: tuple[Entrant, ...]
    """Targets whose latest run follows other rules: listed, compared with none."""
    checks: tuple[str, ...]
    cases: tuple[CaseRow, ...]
    """The cases where targets disagree first, then the rest, each in suite order."""


def target_of(run: RedactedRun) -> tuple[str, str]:
    """The identity of ``run``'s target (a digest of its published configuration) and its
    name: ``provider/model`` where the run says them."""
    config = run.target_config.model_dump(mode="json", exclude_none=True)
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    identity = hashlib.sha256(text.encode()).hexdigest()[:16]
    values = run.target_config.values or {}
    named = "/".join(str(values[k]) for k in ("provider", "model") if k in values)
    return identity, named or identity


def board_of(runs: Sequence[RedactedRun]) -> Board:
    """The board of one suite's ``runs`` (newest first, as the archive lists them)."""
    latest: dict[str, RedactedRun] = {}
    for run in sorted(runs, key=lambda r: r.created_at, reverse=True):
        latest.setdefault(target_of(run)[0], run)
    rules = max(runs, key=lambda r: r.created_at).config_hash
    compared = [run for run in latest.values() if run.config_hash == rules]
    apart = [run for run in latest.values() if run.config_hash != rules]
    labels = _labels(list(latest.values()))
    figures = [check_figures(run) for run in compared]
    names = tuple(dict.fromkeys(f.name for found in figures for f in found if not f.whole_run))
    standings = _standings(compared, figures, names)
    costs = [_cost(run) for run in compared]
    frontier = _pareto([(tally_of(run), cost) for run, cost in zip(compared, costs, strict=True)])
    entrants = [
        _entrant(run, labels, standing, cost, on)
        for run, standing, cost, on in zip(compared, standings, costs, frontier, strict=True)
    ]
    entrants.sort(key=lambda e: (-(e.tally.verdicts.rate or 0.0), e.label))
    order = {e.run_key: n for n, e in enumerate(entrants)}
    compared.sort(key=lambda run: order[run.key])
    return Board(
        tenant=runs[0].tenant,
        suite=runs[0].suite,
        config_hash=rules,
        entrants=tuple(entrants),
        apart=tuple(
            _entrant(run, labels, (), _cost(run), False)
            for run in sorted(apart, key=lambda r: labels[r.key])
        ),
        checks=names,
        cases=_cases(compared),
    )


def _labels(runs: list[RedactedRun]) -> dict[str, str]:
    """Each run's target name; where two targets share a name, their settings tell them apart
    (those whose values differ), else their identity."""
    named = {run.key: target_of(run) for run in runs}
    by_name: dict[str, list[RedactedRun]] = {}
    for run in runs:
        by_name.setdefault(named[run.key][1], []).append(run)
    labels = {}
    for name, alike in by_name.items():
        values = [run.target_config.values or {} for run in alike]
        keys = sorted({k for v in values for k in v} - {"provider", "model"})
        differing = [k for k in keys if len({str(v.get(k)) for v in values}) > 1]
        for run, shown in zip(alike, values, strict=True):
            settings = ", ".join(f"{k}={shown[k]}" for k in differing if k in shown)
            if len(alike) == 1:
                labels[run.key] = name
            else:
                labels[run.key] = f"{name} ({settings or named[run.key][0][:7]})"
    return labels


def _cost(run: RedactedRun) -> tuple[float | None, Bill]:
    """The target's cost per measured case, and what is known of it."""
    if run.usage is None:
        return None, "unknown"
    known = bill(run.usage.target)
    measured = sum(not case.suspended for case in run.results)
    if known == "unknown" or not measured:
        return None, known
    return run.usage.target.spent_usd / measured, known


def _latency(run: RedactedRun) -> float | None:
    found = [
        response.latency_ms
        for case in run.results
        for response in case.responses or ()
        if response.latency_ms is not None
    ]
    return statistics.median(found) if found else None


def _entrant(
    run: RedactedRun,
    labels: dict[str, str],
    checks: tuple[Standing, ...],
    cost: tuple[float | None, Bill],
    pareto: bool,
) -> Entrant:
    return Entrant(
        target=target_of(run)[0],
        label=labels[run.key],
        run_key=run.key,
        created_at=run.created_at,
        config_hash=run.config_hash,
        tally=tally_of(run),
        cost=cost[0],
        cost_known=cost[1],
        latency_ms=_latency(run),
        checks=checks,
        pareto=pareto,
    )


def _verdicts(run: RedactedRun, check: str) -> dict[str, RedactedVerdict]:
    """Each measured case's first verdict of ``check``."""
    found: dict[str, RedactedVerdict] = {}
    for case in run.results:
        for verdict in case.verdicts:
            if verdict.assertion == check and not case.suspended:
                found.setdefault(case.case_id, verdict)
    return found


def _standings(
    runs: list[RedactedRun], figures: list[tuple[CheckFigures, ...]], names: tuple[str, ...]
) -> list[tuple[Standing, ...]]:
    """Each run's standing on each check of ``names`` it judged."""
    standings: list[list[Standing]] = [[] for _ in runs]
    for name in names:
        held = [
            (n, next(f for f in found if f.name == name and not f.whole_run))
            for n, found in enumerate(figures)
            if any(f.name == name and not f.whole_run for f in found)
        ]
        best, _ = max(held, key=lambda h: (h[1].counts.rate or 0.0, h[1].score or 0, -h[0]))
        tops = _verdicts(runs[best], name)
        tested = []
        for n, found in held:
            if n == best:
                continue
            theirs = _verdicts(runs[n], name)
            shared = [
                (tops[case].status, theirs[case].status)
                for case in tops.keys() & theirs.keys()
                if {tops[case].status, theirs[case].status} <= {"pass", "fail"}
            ]
            lost = shared.count(("pass", "fail"))
            won = shared.count(("fail", "pass"))
            tested.append((n, found, len(shared), mcnemar(lost, won) if lost + won else None))
        adjusted = holm([p for *_, p in tested])
        standings[best].append(Standing(dict(held)[best], True, 0, None, None))
        for (n, found, pairs, p), p_holm in zip(tested, adjusted, strict=True):
            standings[n].append(Standing(found, False, pairs, p, p_holm))
    return [tuple(s) for s in standings]


def _pareto(points: list[tuple[Tally, tuple[float | None, Bill]]]) -> list[bool]:
    """Whether each target is on the frontier of pass rate against cost per case."""

    def beats(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return a[0] >= b[0] and a[1] <= b[1] and a != b

    placed = [
        None if tally.verdicts.rate is None or cost is None else (tally.verdicts.rate, cost)
        for tally, (cost, _) in points
    ]
    return [
        here is not None and not any(other is not None and beats(other, here) for other in placed)
        for here in placed
    ]


def _cases(runs: list[RedactedRun]) -> tuple[CaseRow, ...]:
    """Each case of the compared runs, in the order the first run that has it measured it."""
    order: dict[str, None] = {}
    by_run = []
    for run in runs:
        found: dict[str, tuple[str, ...]] = {}
        for case in run.results:
            order.setdefault(case.case_id)
            if not case.suspended:
                found[case.case_id] = tuple(v.status for v in case.verdicts)
        by_run.append(found)
    rows = []
    for case_id in order:
        statuses = tuple(found.get(case_id) for found in by_run)
        present = {s for s in statuses if s is not None}
        rows.append(CaseRow(case_id, statuses, len(present) > 1))
    return tuple(sorted(rows, key=lambda row: not row.disagree))
