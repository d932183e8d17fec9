"""Which checks of two runs could not be paired, and why: a comparison that pairs nothing is
not a comparison that found nothing worse.

Verdicts pair on their identity (``assertion_id``), never on their name. A check whose name is
in both runs, on the same case, under two identities, could not be paired because the two runs
identified their checks differently (another writer, another version of the rule, another
parameter); a check whose name only one run has could not be paired because the rules
changed; a verdict on a case only one run measured, because the cases differ. When no verdict of either run pairs, nothing was compared: the reading says so and
exits 2, could not be judged, never 0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from generator.account.checks import Pair, checks_of, pairs, slots_of
from generator.document.redacted import RedactedRun
from generator.reading.facts import Fact, Section, fact

Why = Literal["identity", "rules", "cases"]


@dataclass(frozen=True)
class Unpaired:
    """The checks of one name (in one scope) that paired with nothing, and why."""

    name: str
    scope: str
    why: Why
    count: int
    """How many verdicts of this name paired with nothing, on either side."""


def _name(pair: Pair) -> tuple[str, str, str]:
    check = pair.named
    return (pair.slot[0], pair.slot[1], check.verdict.assertion)


def unpaired(left: RedactedRun, right: RedactedRun) -> list[Unpaired]:
    """Every check name with a verdict that paired with nothing, in reading order."""
    if slots_of(left) == slots_of(right):
        return []
    lonely = [p for p in pairs(left, right) if p.left is None or p.right is None]
    sides = {
        side: {_name(p) for p in lonely if (p.left if side == "left" else p.right) is not None}
        for side in ("left", "right")
    }
    names = {
        side: {(c.slot[0], c.verdict.assertion) for c in checks_of(run)}
        for side, run in (("left", left), ("right", right))
    }
    counts: Counter[tuple[str, str, Why]] = Counter()
    for pair in lonely:
        scope, case, name = _name(pair)
        if (scope, case, name) in sides["left"] and (scope, case, name) in sides["right"]:
            counts[(scope, name, "identity")] += 1
        elif (scope, name) not in names["left"] or (scope, name) not in names["right"]:
            counts[(scope, name, "rules")] += 1
        else:
            counts[(scope, name, "cases")] += 1
    return [Unpaired(name, scope, why, n) for (scope, name, why), n in counts.items()]


def nothing_paired(left: RedactedRun, right: RedactedRun) -> bool:
    """True when both runs have verdicts and none of them pairs with one of the other's."""
    one, other = slots_of(left), slots_of(right)
    return bool(one) and bool(other) and one.isdisjoint(other)


def pairing_facts(left: RedactedRun, right: RedactedRun, section: Section) -> list[Fact]:
    """What could not be paired and why; nothing when every check paired."""
    found = unpaired(left, right)
    facts = [fact(section, "tally.nothing_paired")] if nothing_paired(left, right) else []
    if not found:
        return facts
    identity = [u for u in found if u.why == "identity"]
    facts.append(
        fact(
            section,
            "tally.unpaired",
            count=sum(u.count for u in found),
            identity=sum(u.count for u in identity),
            rules=sum(u.count for u in found if u.why == "rules"),
            cases=sum(u.count for u in found if u.why == "cases"),
        )
    )
    return facts + [fact(section, "check.unpaired.identity", check=u.name) for u in identity]


def identity_names(left: RedactedRun, right: RedactedRun) -> set[str]:
    """Names whose verdicts could not be paired because their identities differ."""
    return {u.name for u in unpaired(left, right) if u.why == "identity"}
