"""What the tests of two runs say, as facts: for each check whose verdicts or scores moved, how
far and how likely that is by chance alone; which checks differ beyond chance after Holm's
correction; and each case whose samples differ below 0.05 on their own.

A check where nothing moved has nothing to test and no fact; where too few cases moved for any
result to reach 0.05, the reading says so rather than print a p that could not have been small.
"""

from __future__ import annotations

from typing import cast

from generator.account.chance import FEWEST, Chance, CheckChance
from generator.account.significance import ALPHA, Bounds
from generator.reading.facts import KINDS, Fact, Kind, Scope, fact


def chance_facts(chance: Chance, scope: Scope) -> list[Fact]:
    """The facts of ``chance`` for a reading of ``scope`` (against a reference, or a diff)."""
    if not chance.checks:
        return []
    facts = [fact("chance", "chance.checks", count=len(chance.checks))]
    for check in chance.checks:
        facts += _verdicts(check, scope) + _scores(check, scope)
    facts += _beyond(chance, scope)
    facts += [
        fact(
            "chance",
            _kind(f"chance.case.{c.test.test}", {}),
            case=c.case,
            check=c.check,
            p=c.test.p,
        )
        for c in chance.cases
        if c.test.p < ALPHA
    ]
    return facts


def _verdicts(check: CheckChance, scope: Scope) -> list[Fact]:
    if check.mcnemar is None or check.mcnemar_holm is None:
        return []
    few = {} if check.verdicts_decidable else {"fewest": FEWEST}
    went = {"worse": check.worse, "better": check.better}
    if scope == "diff":  # passed on the left only, and on the right only
        went = {"left": check.worse, "right": check.better}
    return [
        fact(
            "chance",
            _kind("chance.verdicts.diff" if scope == "diff" else "chance.verdicts", few),
            check=check.check,
            count=check.pairs,
            **went,
            p=check.mcnemar,
            p_holm=check.mcnemar_holm,
            **few,
        )
    ]


def _scores(check: CheckChance, scope: Scope) -> list[Fact]:
    """A check's scores, where some changed in two cases or more: one change has no interval,
    and a test of one could never be small."""
    bounds = check.change_bounds
    if check.wilcoxon is None or check.wilcoxon_holm is None or check.change is None:
        return []
    if bounds is None:
        return []
    few = {} if check.scores_decidable else {"fewest": FEWEST}
    kind, moved = "chance.scores", {"delta": check.change, "low": bounds.low, "high": bounds.high}
    if scope == "diff":  # the higher side's lead, so that a diff reads the same either way
        kind = "chance.scores.diff.right" if check.change >= 0 else "chance.scores.diff.left"
        if check.change < 0:
            bounds = Bounds(-bounds.high, -bounds.low)
        moved = {"gap": abs(check.change), "low": bounds.low, "high": bounds.high}
    return [
        fact(
            "chance",
            _kind(kind, few),
            check=check.check,
            count=check.scored,
            **moved,
            p=check.wilcoxon,
            p_holm=check.wilcoxon_holm,
            **few,
        )
    ]


def _kind(kind: str, few: dict[str, int]) -> Kind:
    """``kind``, or its variant that also says too few changed for any result to be small."""
    found = f"{kind}.few" if few else kind
    assert found in KINDS
    return cast(Kind, found)


def _beyond(chance: Chance, scope: Scope) -> list[Fact]:
    """Each check beyond chance after Holm's correction, and which way; or that none is."""
    found = []
    for check in chance.checks:
        held = [p for p in (check.mcnemar_holm, check.wilcoxon_holm) if p is not None]
        if not held or min(held) >= ALPHA:
            continue
        p = min(held)
        if scope == "diff":
            found.append(fact("chance", "chance.beyond", check=check.check, p_holm=p))
        elif check.worse_beyond_chance:
            found.append(fact("chance", "chance.worse", check=check.check, p_holm=p))
        else:
            found.append(fact("chance", "chance.better", check=check.check, p_holm=p))
    return found or [fact("chance", "chance.none")]
