"""Two runs side by side: one row per check of each case, with the verdict the reading gives it.

The rows are the reading's own movements (``movements.movements``), so a comparison page's table
and its sentences cannot disagree. What the movements leave as two lonely checks — the same
check of the same case under two identities, because its parameters or its writer changed — is
one row here: the check is still there, its rules moved.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from generator.account.checks import Check
from generator.account.movements import Movement, Outcome
from generator.document.numbers import at_precision

Verdict = Literal["worse", "better", "same", "new", "gone", "unjudged", "counted", "rules"]
"""How a check moved: ``same`` is within its tolerance (or its reference's noise); ``counted``
a whole-run check whose denominator moved; ``rules`` a check whose parameters changed."""

VERDICTS: dict[Outcome, Verdict] = {
    "regressed": "worse",
    "improved": "better",
    "unchanged": "same",
    "within_noise": "same",
    "new": "new",
    "missing": "gone",
    "errored": "unjudged",
    "denominator_moved": "counted",
}

ORDER: tuple[Verdict, ...] = ("worse", "unjudged", "rules", "new", "gone", "counted", "better")
"""The verdicts a reader looks for first; ``same`` comes last."""


class Row(NamedTuple):
    """One check of one case (or of the whole run) in both runs (a named tuple, as ``Fact``)."""

    case: str | None
    check: str
    before: Check | None
    now: Check | None
    verdict: Verdict
    delta: float | None
    """The change of score, when both runs scored it."""
    threshold_moved: bool = False


def _key(check: Check) -> tuple[str, str | None, str]:
    return (check.slot[0], check.case, check.label)


def comparison_rows(moved: list[Movement]) -> list[Row]:
    """Every compared check of a run against its reference, from their ``movements``, in the
    run's reading order; a check of one case that is gone under one identity and new under
    another is one row."""
    gone = {_key(m.reference): m for m in moved if m.outcome == "missing"}
    new = {_key(m.run): m for m in moved if m.outcome == "new"}
    rows = []
    for m in moved:
        if m.outcome == "missing" and _key(m.reference) in new:
            continue
        if m.outcome == "new" and _key(m.run) in gone:
            rows.append(_rules_row(gone[_key(m.run)], m))
        else:
            rows.append(_row(m))
    return rows


def _row(m: Movement) -> Row:
    """A movement's row; its change is the movement's own, where both runs scored it (neither
    side missing nor errored)."""
    before, now = m.pair.left, m.pair.right
    named = m.pair.named
    return Row(
        case=named.case,
        check=named.label,
        before=before,
        now=now,
        verdict=VERDICTS[m.outcome],
        delta=None if m.outcome in _UNSCORED else m.delta,
        threshold_moved=bool(before and now and before.verdict.threshold != now.verdict.threshold),
    )


_UNSCORED = frozenset({"new", "missing", "errored"})
"""Outcomes of a check that one run or the other did not score: no change to show."""


def _rules_row(gone: Movement, new: Movement) -> Row:
    before, now = gone.reference, new.run
    scored = before.verdict.score is not None and now.verdict.score is not None
    return Row(
        case=now.case,
        check=now.label,
        before=before,
        now=now,
        verdict="rules",
        delta=at_precision(now.score - before.score) if scored else None,
        threshold_moved=before.verdict.threshold != now.verdict.threshold,
    )
