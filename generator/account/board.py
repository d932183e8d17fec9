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

from generator.account.charts import STATUS_LETTER
from generator.account.costs import Bill, bill
from generator.account.figures import CheckFigures
from generator.account.run import account_of
from generator.account.significance import ALPHA, holm, mcnemar
from generator.account.tally import Tally
from generator.document.redacted import RedactedRun


class Contender(NamedTuple):
    """What a board needs of one run, made once from it: a build keeps it in the run's summary,
    so a suite's board is made without reading its runs again."""

    tenant: str
    suite: str
    key: str
    created_at: str
    config_hash: str
    target: str
    """A digest of the target's published configuration: its identity on the board."""
    name: str
    """``provider/model``, where the run says them."""
    settings: tuple[tuple[str, str], ...]
    """The target's other published settings, which tell two targets of one model apart."""
    tally: Tally
    checks: tuple[CheckFigures, ...]
    """Its checks of the cases, in the order the run first judged them."""
    verdicts: tuple[tuple[str, str], ...]
    """Each measured case and its verdicts, a status letter (``STATUS_LETTER``) for each of
    ``checks`` in order, ``-`` where the case has none of it."""
    cost: float | None
    """What the target's calls cost per case measured, in US dollars; None where unknown."""
    cost_known: Bill
    latency_ms: float | None
    """The median latency of its recorded answers; None where none was recorded."""


def contender_of(run: RedactedRun) -> Contender:
    """What the board needs of ``run``."""
    identity, name = target_of(run)
    account = account_of(run)
    checks = tuple(f for f in account.checks if not f.whole_run)
    verdicts = []
    for case in run.results:
        if case.suspended:
            continue
        first: dict[str, str] = {}
        for verdict in case.verdicts:
            first.setdefault(verdict.assertion, STATUS_LETTER[verdict.status])
        verdicts.append((case.case_id, "".join(first.get(c.name, "-") for c in checks)))
    values = run.target_config.values or {}
    cost, known = _cost(run)
    return Contender(
        tenant=run.tenant,
        suite=run.suite,
        key=run.key,
        created_at=run.created_at,
        config_hash=run.config_hash,
        target=identity,
        name=name,
        settings=tuple(
            (k, str(v)) for k, v in sorted(values.items()) if k not in ("provider", "model")
        ),
        tally=account.tally,
        checks=checks,
        verdicts=tuple(verdicts),
        cost=cost,
        cost_known=known,
        latency_ms=_latency(run),
    )


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
        """Not told apart from the check's best after Holm's correction (the best included);
        a target that judged no case the best judged is not compared, so tied with nothing."""
        if self.best:
            return True
        return self.pairs > 0 and (self.p_holm is None or self.p_holm >= ALPHA)


class Entrant(NamedTuple):
    """One target's latest run on the board."""

    run: Contender
    label: str
    checks: tuple[Standing, ...]
    pareto: bool


class CaseRow(NamedTuple):
    """One case across the compared targets: each one's verdicts (``Contender.verdicts``;
    None where its run has no such case, or set it aside), and whether they disagree."""

    case: str
    statuses: tuple[str | None, ...]
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


def board_of(runs: Sequence[Contender]) -> Board:
    """The board of one suite's runs (``contender_of`` each)."""
    latest: dict[str, Contender] = {}
    for run in sorted(runs, key=lambda r: r.created_at, reverse=True):
        latest.setdefault(run.target, run)
    rules = max(runs, key=lambda r: r.created_at).config_hash
    compared = [run for run in latest.values() if run.config_hash == rules]
    apart = [run for run in latest.values() if run.config_hash != rules]
    labels = _labels(list(latest.values()))
    names = tuple(dict.fromkeys(f.name for run in compared for f in run.checks))
    standings = _standings(compared, names)
    frontier = _pareto(compared)
    entrants = sorted(
        (
            Entrant(run, labels[run.key], standing, on)
            for run, standing, on in zip(compared, standings, frontier, strict=True)
        ),
        key=lambda e: (-(e.run.tally.verdicts.rate or 0.0), e.label),
    )
    return Board(
        tenant=runs[0].tenant,
        suite=runs[0].suite,
        config_hash=rules,
        entrants=tuple(entrants),
        apart=tuple(
            Entrant(run, labels[run.key], (), False)
            for run in sorted(apart, key=lambda r: labels[r.key])
        ),
        checks=names,
        cases=_cases([e.run for e in entrants], names),
    )


def _labels(runs: list[Contender]) -> dict[str, str]:
    """Each run's target name; where two targets share a name, their settings tell them apart
    (those whose values differ), else their identity."""
    by_name: dict[str, list[Contender]] = {}
    for run in runs:
        by_name.setdefault(run.name, []).append(run)
    labels = {}
    for name, alike in by_name.items():
        values = [dict(run.settings) for run in alike]
        keys = sorted({k for v in values for k in v})
        differing = [k for k in keys if len({v.get(k) for v in values}) > 1]
        for run, shown in zip(alike, values, strict=True):
            settings = ", ".join(f"{k}={shown[k]}" for k in differing if k in shown)
            if len(alike) == 1:
                labels[run.key] = name
            else:
                labels[run.key] = f"{name} ({settings or run.target[:7]})"
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


def _standings(runs: list[Contender], names: tuple[str, ...]) -> list[tuple[Standing, ...]]:
    """Each run's standing on each check of ``names`` it judged."""
    standings: list[list[Standing]] = [[] for _ in runs]
    for name in names:
        held = [
            (n, at, run.checks[at])
            for n, run in enumerate(runs)
            for at in range(len(run.checks))
            if run.checks[at].name == name
        ]
        best, best_at, best_figures = max(
            held, key=lambda h: (h[2].counts.rate or 0.0, h[2].score or 0, -h[0])
        )
        tops = {case: letters[best_at] for case, letters in runs[best].verdicts}
        tested = []
        for n, at, found in held:
            if n == best:
                continue
            theirs = {case: letters[at] for case, letters in runs[n].verdicts}
            shared = [
                (tops[case], theirs[case])
                for case in tops.keys() & theirs.keys()
                if {tops[case], theirs[case]} <= {"p", "f"}
            ]
            lost, won = shared.count(("p", "f")), shared.count(("f", "p"))
            tested.append((n, found, len(shared), mcnemar(lost, won) if lost + won else None))
        adjusted = holm([p for *_, p in tested])
        standings[best].append(Standing(best_figures, True, 0, None, None))
        for (n, found, pairs, p), p_holm in zip(tested, adjusted, strict=True):
            standings[n].append(Standing(found, False, pairs, p, p_holm))
    return [tuple(s) for s in standings]


def _pareto(runs: list[Contender]) -> list[bool]:
    """Whether each target is on the frontier of pass rate against cost per case."""

    def beats(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return a[0] >= b[0] and a[1] <= b[1] and a != b

    placed = [
        None
        if run.tally.verdicts.rate is None or run.cost is None
        else (run.tally.verdicts.rate, run.cost)
        for run in runs
    ]
    return [
        here is not None and not any(other is not None and beats(other, here) for other in placed)
        for here in placed
    ]


def _cases(runs: list[Contender], names: tuple[str, ...]) -> tuple[CaseRow, ...]:
    """Each case of the compared runs, in the order the first run that has it measured it,
    each run's letters set in the board's order of ``names``."""
    order: dict[str, None] = {}
    by_run = []
    for run in runs:
        at = {f.name: n for n, f in enumerate(run.checks)}
        found = {}
        for case, letters in run.verdicts:
            order.setdefault(case)
            found[case] = "".join(letters[at[name]] if name in at else "-" for name in names)
        by_run.append(found)
    rows = []
    for case in order:
        statuses = tuple(found.get(case) for found in by_run)
        present = {s for s in statuses if s is not None}
        rows.append(CaseRow(case, statuses, len(present) > 1))
    return tuple(sorted(rows, key=lambda row: not row.disagree))
