"""Facts of one run on its own: what ran, how it was set up, what it found, what its samples show.

Nothing here looks at another run; these facts read the same whether or not a reference is
given, which is why a reading against a reference reuses them, and why the costliest (a fact
or more for each of a run's checks) are found once per run, for its page and every comparison.
"""

from __future__ import annotations

from generator.account.checks import Check, checks_of
from generator.account.costs import bill
from generator.account.memo import once_per_run
from generator.account.samples import directions, exceedance, on_the_line
from generator.account.tally import tally_of
from generator.document.numbers import at_precision
from generator.document.record import CallTotals
from generator.document.redacted import RedactedConfig, RedactedRun
from generator.reading.facts import Fact, Kind, Section, fact


def rejudged(run: RedactedRun) -> list[Fact]:
    """That the scores judge answers recorded by another run: it qualifies every count."""
    if run.rejudged_from is None:
        return []
    return [fact("ran", "tally.rejudged", source=run.rejudged_from)]


def band_missed(check: Check) -> bool:
    """A calibration check whose score left its band: the judge's scale is not the one set."""
    score, band = check.verdict.score, check.band
    if band is None or score is None:
        return False
    stored = at_precision(score)
    return not at_precision(band.low) <= stored <= at_precision(band.high)


@once_per_run
def on_the_line_of(run: RedactedRun) -> tuple[Check, ...]:
    """The run's checks on the line (``samples.on_the_line``), which its tallies count and its
    sampled facts name."""
    return tuple(c for c in checks_of(run) if on_the_line(c.verdict))


@once_per_run
def tallies(run: RedactedRun) -> tuple[Fact, ...]:
    """Cases, checks and their outcomes, and what could not be judged."""
    checks = checks_of(run)
    tally = tally_of(run)
    went = tally.verdicts
    missed = sum(1 for c in checks if band_missed(c))
    line = len(on_the_line_of(run))
    found = [fact("ran", "tally.cases", count=tally.cases)]
    if tally.set_aside:
        found.append(fact("ran", "tally.suspended", count=tally.set_aside))
    found.append(
        fact(
            "ran",
            "tally.checks",
            count=len(checks),
            passed=went.passed,
            failed=went.failed,
        )
    )
    if went.measured:
        found.append(fact("ran", "tally.measured", count=went.measured))
    if went.unjudged:
        found.append(fact("ran", "tally.unjudged", count=went.unjudged))
    if went.unjudged == len(checks):
        found.append(fact("ran", "tally.nothing_judged"))
    if missed:
        found.append(fact("ran", "tally.calibration", count=missed))
    if line:
        found.append(fact("ran", "tally.on_the_line", count=line))
    return tuple(found)


_UNPRICED: dict[str, tuple[Kind, Kind]] = {
    "target": ("tally.unpriced.target", "tally.cost_unknown.target"),
    "judge": ("tally.unpriced.judge", "tally.cost_unknown.judge"),
}


def unpriced(run: RedactedRun) -> list[Fact]:
    """Sides whose bill is known to leave calls out (``bill``): what is on record, or that the
    cost is unknown."""
    if run.usage is None:
        return []
    found = []
    for side, totals in (("target", run.usage.target), ("judge", run.usage.judge)):
        partial, unknown = _UNPRICED[side]
        known = bill(totals)
        if known == "floor":
            found.append(fact("ran", partial, spent=totals.spent_usd))
        elif known == "unknown":
            found.append(fact("ran", unknown))
    return found


def setup(run: RedactedRun) -> list[Fact]:
    """When, where and on what the run was measured, and with which target and judge."""
    found = [
        fact(
            "setup",
            "setup.run",
            suite=run.suite,
            environment=run.environment,
            created_at=run.created_at,
        )
    ]
    commit = run.git_commit
    if commit is None:
        found.append(fact("setup", "setup.commit.none"))
    elif commit.endswith("-dirty"):
        found.append(fact("setup", "setup.commit.dirty", commit=commit.removesuffix("-dirty")))
    else:
        found.append(fact("setup", "setup.commit", commit=commit))
    if run.projected:
        found.append(fact("setup", "setup.projected"))
    found += _config("target", run.target_config)
    found += _config("judge", run.judge_config)
    found += [fact("setup", "setup.artifact", path=path) for path in sorted(run.artifacts)]
    if run.usage is not None:
        found.append(_spent("target", run.usage.target))
        found.append(_spent("judge", run.usage.judge))
    return found


_SETUP: dict[str, tuple[Kind, Kind, Kind, Kind]] = {
    "target": (
        "setup.target.none",
        "setup.target.identity",
        "setup.target.value",
        "setup.withheld.target",
    ),
    "judge": (
        "setup.judge.none",
        "setup.judge.identity",
        "setup.judge.value",
        "setup.withheld.judge",
    ),
}


def _config(side: str, config: RedactedConfig) -> list[Fact]:
    none, identity, value, withheld = _SETUP[side]
    identities = config.identities or []
    values = config.values or {}
    hidden = config.withheld or []
    if not (identities or values or hidden):
        return [fact("setup", none)]
    found = [fact("setup", identity, identity=i) for i in identities]
    found += [fact("setup", value, name=k, value=values[k]) for k in sorted(values)]
    found += [fact("setup", withheld, name=name) for name in hidden]
    return found


_SPENT: dict[str, tuple[Kind, Kind]] = {
    "target": ("setup.spent.target", "setup.calls.target"),
    "judge": ("setup.spent.judge", "setup.calls.judge"),
}


def _spent(side: str, totals: CallTotals) -> Fact:
    """A side's calls and what they cost; only the calls when the cost is not known in full
    (``unpriced`` says what is on record)."""
    spent, calls = _SPENT[side]
    if bill(totals) != "spent":
        return fact("setup", calls, calls=totals.calls)
    return fact("setup", spent, calls=totals.calls, spent=totals.spent_usd)


def found(run: RedactedRun) -> list[Fact]:
    """Checks that failed, could not be judged or missed a calibration band; cases set aside."""
    checks = checks_of(run)
    facts = [
        fact(
            "found",
            "check.failed",
            **c.where,
            score=c.score,
            threshold=c.verdict.threshold,
        )
        for c in checks
        if c.verdict.status == "fail"
    ]
    facts += [errored(c) for c in checks if c.verdict.status == "error"]
    facts += calibration_missed("found", checks)
    facts += suspended("found", run)
    return facts


def errored(check: Check) -> Fact:
    """A check that could not be judged, with why its case errored when the run says."""
    kind: Kind = "check.errored"
    if check.error_kind == "raised":
        kind = "check.errored.raised"
    elif check.error_kind == "shape":
        kind = "check.errored.shape"
    return fact("found", kind, **check.where)


def calibration_missed(section: Section, checks: list[Check]) -> list[Fact]:
    """Calibration checks whose score fell outside the band set for the judge."""
    return [
        fact(
            section,
            "check.calibration_missed",
            **c.where,
            score=c.score,
            low=c.band.low,
            high=c.band.high,
        )
        for c in checks
        if c.band is not None and band_missed(c)
    ]


def suspended(section: Section, run: RedactedRun) -> list[Fact]:
    """Cases set aside, so nothing was measured on them."""
    return [
        fact(section, "case.suspended", case=case.case_id) for case in run.results if case.suspended
    ]


@once_per_run
def sampled(run: RedactedRun) -> tuple[Fact, ...]:
    """Checks on the line, budgets with calls over their cap, judges split three ways."""
    checks = checks_of(run)
    facts: list[Fact] = []
    for c in on_the_line_of(run):
        low, high, threshold = c.stored.low, c.stored.high, c.stored.threshold
        if low is not None and high is not None:  # its figures stored already (Check.stored)
            where = {**c.where, "low": low, "high": high, "threshold": threshold}
            facts.append(Fact("samples", "check.on_the_line", where))
    for c in checks:
        over = exceedance(c.verdict)
        if over is None:
            continue
        common = {**c.where, "count": over.count, "samples": over.samples, "cap": over.cap}
        if over.worst == "at_cap":
            facts.append(fact("samples", "check.over_cap.at_cap", **common))
        elif over.worst == "unbounded":
            facts.append(fact("samples", "check.over_cap.unbounded", **common))
        else:
            facts.append(fact("samples", "check.over_cap", **common, worst=over.worst))
    for c in checks:
        split = directions(c.verdict)
        if split is not None:
            zero, partial, full = split
            facts.append(
                fact("samples", "check.spread", **c.where, zero=zero, partial=partial, full=full)
            )
    return tuple(facts)
