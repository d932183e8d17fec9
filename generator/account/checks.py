"""Where each verdict sits in a run, and how verdicts of two runs pair.

Two verdicts are the same check when they share a slot: (scope, case id, assertion id,
occurrence). The assertion id, not the name, is the identity, so renaming a check does not
break a comparison; the occurrence tells apart two verdicts of one assertion in one case.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from generator.account.memo import once_per_run
from generator.account.places import SCALE
from generator.document.numbers import at_precision
from generator.document.record import Calibration
from generator.document.redacted import RedactedRun, RedactedVerdict

Slot = tuple[str, str, str, int]
"""(``case`` or ``run``, case id or ``""``, assertion id, occurrence)."""


class Stored(NamedTuple):
    """A check's score, smallest and largest sample (None where it has none), threshold and
    tolerance, each at storage precision."""

    score: float | None
    low: float | None
    high: float | None
    threshold: float
    tolerance: float


Figures = tuple[int | None, int | None, int | None]
"""A check's score, smallest and largest sample in millionths (``places.millionths``)."""


@dataclass(frozen=True, slots=True)
class Check:
    """One verdict, located, with its figures at storage precision: found as the run's checks
    are, once per run, for the facts, tables and charts of its page and of each comparison
    that shows it (with the runs before and after it, and with its reference)."""

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
    stored: Stored = field(init=False, repr=False, compare=False)
    """The verdict's figures as a fact holds them."""
    figures: Figures = field(init=False, repr=False, compare=False)
    """The score and the sampled range in millionths (None where there is none), as a table
    and a chart show them."""

    def __post_init__(self) -> None:
        verdict = self.verdict
        score, low, high = verdict.score, verdict.sample_min, verdict.sample_max
        score = None if score is None else at_precision(score)
        low = None if low is None else at_precision(low)
        high = None if high is None else at_precision(high)
        stored = Stored(score, low, high, setting(verdict.threshold), setting(verdict.tolerance))
        object.__setattr__(self, "stored", stored)
        object.__setattr__(
            self, "figures", (_millionths(score), _millionths(low), _millionths(high))
        )

    @property
    def where(self) -> dict[str, str | int | float]:
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


def _millionths(stored: float | None) -> int | None:
    """``places.millionths`` of a figure already at storage precision: a run's checks are many,
    and rounding each twice costs."""
    return None if stored is None else round(stored * SCALE)


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


def checks_by_case(run: RedactedRun) -> tuple[list[list[Check]], list[Check]]:
    """``checks_of(run)`` cut into each case's checks, in the order of the run's results, and
    the whole run's checks."""
    checks = checks_of(run)
    found, cut = [], 0
    for case in run.results:
        found.append(checks[cut : cut + len(case.verdicts)])
        cut += len(case.verdicts)
    return found, checks[cut:]


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


def measured(pair: Pair) -> bool:
    """Whether either side of ``pair`` is a measurement no threshold judged: neither better nor
    worse than anything, as nothing says which way of its scale is better."""
    return any(c is not None and c.verdict.status == "measured" for c in (pair.left, pair.right))


def pairs(left: RedactedRun, right: RedactedRun) -> Iterator[Pair]:
    """Every slot of either run, in the right run's order, then the left's leftovers."""
    lefts = {c.slot: c for c in checks_of(left)}
    rights = checks_of(right)
    for check in rights:
        yield Pair(check.slot, lefts.pop(check.slot, None), check)
    for check in lefts.values():
        yield Pair(check.slot, check, None)
