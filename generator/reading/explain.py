"""``explain``: the reading of one run, alone or against a reference.

Alone, it says what ran, how it was set up, what it found and what its samples show, and it
never speaks of any other run. Against a reference, a different judge comes first, before any
number, because it qualifies every score after it; then a re-judged run, for the same reason;
then the tallies (with the checks that could not be paired, and why), what differed
underneath, and what moved. The rules count as the same only when the rules' hash is the same
and no check's threshold, tolerance or samples differ.
"""

from __future__ import annotations

from generator.account.chance import Chance
from generator.account.checks import checks_of
from generator.account.comparison import comparison_of
from generator.account.movements import Movement
from generator.document.redacted import RedactedRun
from generator.reading import alone, compare
from generator.reading.chance import chance_facts
from generator.reading.facts import Fact, Kind, Reading, fact
from generator.reading.pairing import identity_names, pairing_facts
from generator.reading.refusals import refuse_crossing
from generator.reading.settings import judge_facts, rule_facts, underneath


def explain(run: RedactedRun, reference: RedactedRun | None = None) -> Reading:
    """The facts of ``run``, against ``reference`` when one is given."""
    if reference is None:
        facts = [
            *alone.rejudged(run),
            *alone.tallies(run),
            *alone.unpriced(run),
            *alone.setup(run),
            *alone.found(run),
            *alone.sampled(run),
        ]
        return Reading("run", run.key, None, tuple(facts))
    refuse_crossing(run, reference)
    compared = comparison_of(run, reference)
    return against(run, reference, list(compared.moved), compared.chance)


def against(
    run: RedactedRun, reference: RedactedRun, moved: list[Movement], chance: Chance
) -> Reading:
    """``explain(run, reference)`` told from ``moved``, their ``movements``, and ``chance``,
    their tests: a comparison page shows both as its tables too, so it finds them once. The two
    runs are ones ``refuse_crossing`` lets through."""
    judge = judge_facts(reference, run)
    lead = [fact("ran", "tally.judge_changed")] if _judge_changed(judge) else []
    apart = identity_names(reference, run)
    told = [
        m
        for m in moved
        if not (m.outcome in ("new", "missing") and m.pair.named.verdict.assertion in apart)
    ]
    rules = [
        f
        for f in rule_facts(reference, run)
        if not (f.kind in _ADDED_OR_REMOVED and f.params["check"] in apart)
    ]
    same: Kind = "tally.rules.same"
    if rules or run.config_hash != reference.config_hash:
        same = "tally.rules.changed"
    facts = [
        *lead,
        *alone.rejudged(run),
        *alone.tallies(run),
        *compare.tally(moved),
        *pairing_facts(reference, run, "ran"),
        fact("ran", same),
        *alone.unpriced(run),
        *underneath(reference, run, judge, rules),
        *compare.moved_facts(
            told,
            alone.calibration_missed("moved", checks_of(run)),
            alone.suspended("moved", run),
        ),
        *chance_facts(chance, "reference"),
        *alone.sampled(run),
    ]
    return Reading("reference", run.key, reference.key, tuple(facts), chance)


_ADDED_OR_REMOVED = frozenset({"setting.rule.added", "setting.rule.removed"})
"""Rule facts a check under two identities would otherwise get twice, once per identity."""


def _judge_changed(judge: list[Fact]) -> bool:
    """A judge whose identities or settings differ; a withheld setting is no evidence either way."""
    return any(f.kind != "setting.judge.unknown" for f in judge)
