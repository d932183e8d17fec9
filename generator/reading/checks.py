"""Where each verdict sits in a run, and how verdicts of two runs pair.

Two verdicts are the same check when they share a slot: (scope, case id, assertion id,
occurrence). The assertion id, not the name, is the identity, so renaming a check does not
break a comparison; the occurrence tells apart two verdicts of one assertion in one case.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

from generator.document.numbers import at_precision
from generator.document.record import Calibration
from generator.document.redacted import RedactedRun, RedactedVerdict
from generator.reading.facts import Param
from generator.reading.memo import once_per_run

Slot = tuple[str, str, str, int]
"""(``case`` or ``run``, case id or ``""``, assertion id, occurrence)."""


@dataclass(frozen=True)
class Check:
    """One verdict, located."""

    slot: Slot
    case: str | None
    """The case id; ``None`` for a check over the whole run (an aggregate)."""
    label: str
    """The check's name, numbered when one case holds it more than once."""
    verdict: RedactedVerdict
    position: int
    """Reading order within its run: cases in suite order, then the whole-run checks."""
    band: Calibration | None = None
    """The calibration band this verdict must land in, when its case calibrates the judge."""
    error_kind: str | None = None
    """Why the case errored, when the document says."""

    @property
    def where(self) -> dict[str, Param]:
        """The parameters that name this check in a fact."""
        if self.case is None:
            return {"check": self.label}
        return {"case": self.case, "check": self.label}

    @property
    def score(self) -> float:
        """The score of a check that was judged (an errored one has none to ask for)."""
        if self.verdict.score is None:
            raise ValueError(f"{self.label} was not judged, so it has no score")
        return self.verdict.score

    @property
    def sampled(self) -> tuple[float, float] | None:
        """The measured interval ``[sample_min, sample_max]``; ``None`` when unsampled."""
        low, high = self.verdict.sample_min, self.verdict.sample_max
        return None if low is None or high is None else (low, high)

    @cached_property
    def stored(self) -> Stored:
        """The verdict's figures at storage precision, as a fact holds them: found once, for
        the facts of the run's page and of each comparison that names the check."""
        verdict = self.verdict
        return Stored(
            None if verdict.score is None else at_precision(verdict.score),
            None if verdict.sample_min is None else at_precision(verdict.sample_min),
            None if verdict.sample_max is None else at_precision(verdict.sample_max),
            setting(verdict.threshold),
            setting(verdict.tolerance),
        )

    @cached_property
    def figures(self) -> tuple[int | None, int | None, int | None]:
        """The score, the smallest and the largest sample in millionths (``formats.millionths``;
        None where there is none): found once, for every table and chart that shows them (the
        run's comparisons with the runs before and after it, and with its reference)."""
        score, low, high, _, _ = self.stored
        return (
            None if score is None else round(score * _MILLION),
            None if low is None else round(low * _MILLION),
            None if high is None else round(high * _MILLION),
        )


class Stored(NamedTuple):
    """A check's score, smallest and largest sample (None where it has none), threshold and
    tolerance, each at storage precision."""

    score: float | None
    low: float | None
    high: float | None
    threshold: float
    tolerance: float


_MILLION = 1_000_000

setting = lru_cache(maxsize=1 << 12)(at_precision)
"""``at_precision`` of a threshold or a tolerance, kept: a run's checks have a few."""


@once_per_run
def checks_of(run: RedactedRun) -> list[Check]:
    """Every verdict of ``run``, located, in reading order."""
    found: list[Check] = []
    for case in run.results:
        seen: dict[str, int] = {}
        for verdict in case.verdicts:
            occurrence = seen.get(verdict.assertion_id, 0)
            seen[verdict.assertion_id] = occurrence + 1
            band = case.calibration
            found.append(
                Check(
                    slot=("case", case.case_id, verdict.assertion_id, occurrence),
                    case=case.case_id,
                    label=_label(verdict.assertion, occurrence),
                    verdict=verdict,
                    position=len(found),
                    band=band if band and band.assertion_id == verdict.assertion_id else None,
                    error_kind=case.error_kind,
                )
            )
    seen_run: dict[str, int] = {}
    for verdict in run.aggregate:
        occurrence = seen_run.get(verdict.assertion_id, 0)
        seen_run[verdict.assertion_id] = occurrence + 1
        found.append(
            Check(
                slot=("run", "", verdict.assertion_id, occurrence),
                case=None,
                label=_label(verdict.assertion, occurrence),
                verdict=verdict,
                position=len(found),
            )
        )
    return found


@once_per_run
def slots_of(run: RedactedRun) -> frozenset[Slot]:
    """Every slot of ``run`` (one a check, as a run's case ids are unique): two runs whose slots
    are the same paired every check, which is what most comparisons find."""
    return frozenset(check.slot for check in checks_of(run))


def _label(name: str, occurrence: int) -> str:
    return name if occurrence == 0 else f"{name} #{occurrence + 1}"


class Pair(NamedTuple):
    """A slot and the check each run holds there (``None`` where a run has none); a named
    tuple, as ``Fact``."""

    slot: Slot
    left: Check | None
    right: Check | None

    @property
    def named(self) -> Check:
        """The check that names the pair in a fact: the right (newer) one when present."""
        found = self.right or self.left
        assert found is not None
        return found


def pairs(left: RedactedRun, right: RedactedRun) -> Iterator[Pair]:
    """Every slot of either run, in the right run's order, then the left's leftovers."""
    lefts = {c.slot: c for c in checks_of(left)}
    rights = checks_of(right)
    for check in rights:
        yield Pair(check.slot, lefts.pop(check.slot, None), check)
    for check in lefts.values():
        yield Pair(check.slot, check, None)
