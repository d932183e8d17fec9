"""Pairs of runs the reading refuses to put side by side, each with a one-line reason.

Messages name the two runs by key and the key of the document that differs, never a value
that could be payload.
"""

from __future__ import annotations

from generator.document.redacted import RedactedRun
from generator.errors import Refused
from generator.reading.pairing import nothing_paired
from generator.reading.settings import rule_moves

NAMED_RULES = 5
"""How many moved rules a refusal names before it counts the rest."""


class NotComparable(Refused):
    """Two runs that no reading may compare: different tenants, or names replaced on one side."""


class DifferentRules(NotComparable):
    """A diff of two runs whose rules differ: their scores do not measure the same thing."""


class DifferentJudges(NotComparable):
    """A diff of two runs judged by different judges: their scores are on different scales."""


def _both(one: RedactedRun, other: RedactedRun) -> str:
    return f"runs {one.key} and {other.key}"


def refuse_crossing(one: RedactedRun, other: RedactedRun) -> None:
    """Refuse a comparison across tenants, or between a projected and a plain run."""
    if one.tenant != other.tenant:
        raise NotComparable(
            f"{_both(one, other)}: tenant: they belong to different tenants, "
            "and a comparison never crosses a tenant"
        )
    if one.projected != other.projected:
        raise NotComparable(
            f"{_both(one, other)}: projected: one has its names replaced by tokens "
            "and the other does not, so no name pairs"
        )


def refuse_unlike(left: RedactedRun, right: RedactedRun) -> None:
    """Refuse a diff across rules (naming up to five that moved) or across judges.

    Two runs of which no check pairs are not refused: the diff says why nothing pairs, and that
    nothing could be judged.
    """
    refuse_crossing(left, right)
    if left.config_hash != right.config_hash and not nothing_paired(left, right):
        moved = [move.label for move in rule_moves(left, right)]
        named = ", ".join(moved[:NAMED_RULES]) or "none that the verdicts show"
        more = f" (and {len(moved) - NAMED_RULES} more)" if len(moved) > NAMED_RULES else ""
        raise DifferentRules(
            f"{_both(left, right)}: config_hash: they follow different rules, "
            f"so their scores do not pair; rules moved: {named}{more}"
        )
    judges = set(left.judge_config.identities or ()), set(right.judge_config.identities or ())
    if judges[0] != judges[1]:
        raise DifferentJudges(
            f"{_both(left, right)}: judge_config.identities: they were judged by different "
            "judges, so their scores are on different scales"
        )
