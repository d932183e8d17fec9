"""Each chart's data as a typed value, in no language yet, with the one serialised form
(``serialised``) that the site's ``charts.js`` draws with plotly.js; the report's SVG
(``report.svg``) draws from the values themselves. Numbers are in millionths.

The serialised form names each case and check once, and carries its rows packed (``packed``):
a run page's 180 sampled checks are 540 numbers, 4 KB as decimal text and 2.2 KB packed.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from generator.account.checks import checks_by_case
from generator.account.places import millionths
from generator.account.rows import Row
from generator.document.redacted import RedactedRun

STATUS_LETTER = {"pass": "p", "fail": "f", "error": "e", "measured": "m"}
"""How chart data and a page's cells name a status: one letter, styled by the site's CSS."""


class Interval(NamedTuple):
    """One sampled check of a run: its case (its index; -1 for the whole run), its check (its
    index), its smallest and largest sample, its score, its threshold and its status."""

    case: int
    check: int
    low: int
    high: int
    score: int | None
    threshold: int
    status: str


@dataclass(frozen=True)
class Intervals:
    """A run's interval chart: every sampled check as a bar from its smallest to its largest
    sample, with its score and its threshold."""

    cases: tuple[str, ...]
    checks: tuple[str, ...]
    rows: tuple[Interval, ...]

    @property
    def thresholds(self) -> tuple[int, ...]:
        """Each check's threshold: the first of its rows'."""
        first: dict[int, int] = {}
        for row in self.rows:
            first.setdefault(row.check, row.threshold)
        return tuple(first[n] for n in range(len(self.checks)))

    @property
    def parts(self) -> tuple[int, ...]:
        """How many rows each check's chart holds."""
        return tuple(sum(1 for row in self.rows if row.check == n) for n in range(len(self.checks)))

    @property
    def height(self) -> int:
        """Pixels of the whole chart, kept from the first paint."""
        return 80 + 26 * len(self.rows)

    def serialised(self) -> dict[str, Any]:
        """The form ``charts.js`` reads: the rows one flat packed list, ``stride`` numbers a
        row (case, check, min, max, score, and the threshold where some row's is not its
        check's); where every case sampled every check (``dense``), a row's place says its
        case and check, and they are left out. ``verdicts`` is a status letter a row."""
        thresholds = self.thresholds
        varied = any(row.threshold != thresholds[row.check] for row in self.rows)
        width = len(self.checks)
        places = [(row.case, row.check) for row in self.rows]
        dense = places == [(n // width, n % width) for n in range(len(self.rows))]
        skip = 2 if dense else 0
        stride = (6 if varied else 5) - skip
        return {
            "kind": "intervals",
            "cases": list(self.cases),
            "checks": list(self.checks),
            "thresholds": list(thresholds),
            "stride": stride,
            "dense": dense,
            "rows": packed([n for row in self.rows for n in _numbers(row)[skip : skip + stride]]),
            "verdicts": "".join(STATUS_LETTER[row.status] for row in self.rows),
        }


def _numbers(row: Interval) -> tuple[int | None, ...]:
    return (row.case, row.check, row.low, row.high, row.score, row.threshold)


def intervals_of(run: RedactedRun) -> Intervals | None:
    """The run's interval chart; None when nothing was sampled."""
    checks: dict[str, int] = {}
    rows = []
    by_case, whole_run = checks_by_case(run)
    for n, case in [*enumerate(by_case), (-1, whole_run)]:
        for c in case:
            v = c.verdict
            score, low, high = c.figures
            if low is None or high is None:
                continue
            at = checks.setdefault(v.assertion, len(checks))
            rows.append(Interval(n, at, low, high, score, millionths(v.threshold), v.status))
    if not rows:
        return None
    return Intervals(tuple(case.case_id for case in run.results), tuple(checks), tuple(rows))


Side = tuple[int | None, int | None, int | None]
"""One run's side of a compared case: its smallest and largest sample (None where it was not
sampled) and its score."""


@dataclass(frozen=True)
class CompareChart:
    """One check's comparison chart: both runs' intervals case by case (None for the whole
    run), the earlier run's side first, and the check's threshold."""

    check: str
    cases: tuple[str | None, ...]
    sides: tuple[tuple[Side, Side], ...]
    threshold: int

    @property
    def height(self) -> int:
        return 90 + 30 * len(self.cases)

    def serialised(self, run: str) -> dict[str, Any]:
        """The form ``charts.js`` reads, the whole run's row named ``run``: six numbers a
        case, packed."""
        return {
            "kind": "compare",
            "cases": [case or run for case in self.cases],
            "rows": packed([n for pair in self.sides for side in pair for n in side]),
            "threshold": self.threshold,
        }


def compare_charts(rows: Sequence[Row]) -> tuple[CompareChart, ...]:
    """A chart for each check sampled in either run, of its rows."""
    by_check: dict[str, list[Row]] = {}
    for row in rows:
        before, now = row.before, row.now
        if (before is not None and before.sampled) or (now is not None and now.sampled):
            by_check.setdefault(row.check, []).append(row)
    charts = []
    for check, found in by_check.items():
        sides = []
        for row in found:
            pair = []
            for side in (row.before, row.now):
                score, low, high = side.figures if side is not None else (None, None, None)
                sampled = low is not None and high is not None
                pair.append((low, high, score) if sampled else (None, None, score))
            sides.append((pair[0], pair[1]))
        threshold = next(s.verdict.threshold for r in found for s in (r.now, r.before) if s)
        cases = tuple(row.case for row in found)
        charts.append(CompareChart(check, cases, tuple(sides), millionths(threshold)))
    return tuple(charts)


_NONE = 2**24 - 1


def packed(numbers: Sequence[int | None]) -> str | list[int | None]:
    """Whole numbers from -1 to 2^24 - 3 (millionths, indexes), or None, as base64 of three
    bytes each, big-endian, holding the number plus one, or all ones for None: four characters
    a number, where its decimal text and comma took up to eight. Numbers a measurement on its
    own scale may hold beyond those (a count of 40, a negative score) stay a list."""
    if not all(n is None or -1 <= n < _NONE - 1 for n in numbers):
        return list(numbers)
    raw = b"".join((_NONE if n is None else n + 1).to_bytes(3, "big") for n in numbers)
    return base64.b64encode(raw).decode("ascii")


def unpacked(text: str) -> list[int | None]:
    """The numbers ``packed`` wrote."""
    raw = base64.b64decode(text)
    found = (int.from_bytes(raw[at : at + 3], "big") for at in range(0, len(raw), 3))
    return [None if n == _NONE else n - 1 for n in found]
