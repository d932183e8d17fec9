"""Numbers and dates as each language writes them, from CLDR through Babel, for the reading's
sentences and the site's pages alike.

English is written with ``en_GB``'s conventions, as its prose is British (day, month, year and
a 24-hour clock; ``US$`` for dollars, which says whose); Italian with ``it``'s. Babel's version
is pinned to one CLDR release (see ``pyproject.toml``), so one input gives the same bytes.

The rules:

- **Scores** (and thresholds, intervals, changes: anything on a score's scale) share one number
  of decimals where they are read together, a sentence or a table column: ``places``. Two by
  default; more when a tolerance is finer (0.001 needs three; 0.05 and 0.1 need two); and more
  again, up to the six a document stores, until every two different stored values print
  differently, a change that is not zero does not print as zero, and a change printed with
  its two sides is their difference as printed and compares with its tolerance as it does
  (``agreeing_places``). Rounding is half up.
- **Settings** (a tolerance, a configured fraction) are declared figures: every digit they
  have, no more.
- **Shares** are percentages, whole unless that would print 0 % or 100 % for a share that is
  neither: then as many decimals as it takes.
- **Money** is US dollars, to the cent from a dollar up and to three significant digits below
  it (US$0.0329), never fewer than two decimals. A cost the run did not record is ``unknown``,
  never zero; so are a latency or a token count.
- **Latencies**: milliseconds below a second, seconds from one up, three significant digits.
- **Moments** (``created_at``) are written in the offset the document stores, which is named
  (``UTC``, or ``UTC+02:00``): the medium date and the time to the second. The short form, for
  tables and axes, is in UTC (so a column reads on one clock), to the minute, or to the second
  where ``needs_seconds`` says two moments of a column share a minute.

Each printed form has its exact value one hover away: ``exact`` for a number (the stored
figure, six decimals at most, a point in every language); a moment's exact value is its ISO
string as stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache

from babel import Locale
from babel.dates import format_datetime
from babel.numbers import format_currency, format_decimal, format_percent
from babel.units import format_unit

from generator.account.places import (
    PLACES,
    SCALE,
    SMALLEST_P,
    at_places,
    decimal,
    p_places,
    rounded,
)
from generator.account.significance import ALPHA
from generator.document.numbers import PRECISION, at_precision

CLDR = {"en": "en_GB", "it": "it"}
"""The CLDR locale each language of runsite writes its figures in."""

UNKNOWN = {"en": "unknown", "it": "non disponibile"}
"""A figure the run did not record. Italian says *non disponibile*, which agrees with any noun
(a cost, a latency, a token count); *non noto* would not."""


def _rounded(value: Decimal, places: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


_KEPT = 1 << 12
"""How many written figures a language keeps before it starts again: the scores and bounds of
two or three decimals a suite's pages write are a few thousand. Kept at 65,536, the figures a
build's process had written took some 40 MB by its thousandth run, for no time saved."""


_MOMENTS = 1 << 11
"""How many moments a language keeps written: a suite's pages and its search entries write its
recent runs' and a block's. A run's moment is its own, so a build's process that wrote 5,000
runs' pages kept 5,000 of them, some 6 MB, at a bound of 16,384."""


def exact(value: float) -> str:
    """The stored figure, for a tooltip: six decimals at most, a point in every language."""
    text = f"{at_precision(value):.{PRECISION}f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def needs_seconds(moments: Iterable[str]) -> bool:
    """Whether two different moments of a column fall in one minute, in UTC."""
    instants = {datetime.fromisoformat(m) for m in moments}
    return len({i.astimezone(UTC).replace(second=0, microsecond=0) for i in instants}) < len(
        instants
    )


def _significant(value: Decimal, digits: int) -> Decimal:
    """``value`` (positive) to ``digits`` significant digits, trailing zeros dropped."""
    return _rounded(value, max(0, digits - 1 - value.adjusted())).normalize()


POINT, MINUS, PLUS = "&.", "&-", "&+"
"""The marks a figure ``marked`` for no language yet has for its decimal mark and its signs:
no escaped text holds them, as its every ``&`` starts an entity."""


@lru_cache(maxsize=_KEPT)
def marked(figure: int, places: int) -> str:
    """A figure in millionths, rounded to ``places`` decimals and smaller than a thousand (no
    grouping), as every language writes it, its decimal mark and minus sign left as marks: a
    table is written once for both languages, each putting in its own (``Formats.unmarked``)."""
    assert abs(figure) < 1000 * SCALE
    whole, part = divmod(abs(figure), SCALE)
    digits = f"{part:0{PRECISION}d}"[:places]
    text = f"{whole}{POINT}{digits}" if places else str(whole)
    return f"{MINUS}{text}" if figure < 0 else text


def marked_change(figure: int, places: int) -> str:
    """A change ``marked``, signed as ``Formats.rounded_change`` signs it."""
    text = marked(figure, places)
    return text if text.startswith(MINUS) else PLUS + text


class Formats:
    """The figures of one language."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.locale = CLDR[language]
        self.unknown = UNKNOWN[language]
        self._cldr = Locale.parse(self.locale)
        self._point = self._cldr.number_symbols["latn"]["decimal"]
        self._minus = self._cldr.number_symbols["latn"]["minusSign"]
        self._plus = self._cldr.number_symbols["latn"]["plusSign"]
        self._written: dict[tuple[int, int], str] = {}

    def score(self, value: float, places: int = PLACES) -> str:
        """A score at ``places`` decimals (see ``places``): 0.84, 0,84."""
        return self.rounded(rounded(value, places), places)

    def change(self, value: float, places: int = PLACES) -> str:
        """A signed difference of scores: +0.03, -0,03."""
        return self.rounded_change(rounded(value, places), places)

    def figure(self, figure: int, places: int) -> str:
        """A score in millionths (``places.millionths``), rounded to ``places`` decimals."""
        return self.rounded(at_places(figure, places), places)

    def rounded(self, figure: int, places: int) -> str:
        """A score already ``rounded`` to ``places`` decimals: a table rounds its figures once
        for both languages, and each language keeps what it wrote, as a table's figures come
        back page after page (two or three decimals take a few thousand values in all)."""
        try:
            return self._written[figure, places]
        except KeyError:
            if len(self._written) >= _KEPT:
                self._written.clear()
            text = self._written[figure, places] = self._write(figure, places)
            return text

    def rounded_change(self, figure: int, places: int) -> str:
        """A change already ``rounded`` to ``places`` decimals, signed."""
        text = self.rounded(figure, places)
        return text if text.startswith(self._minus) else self._plus + text

    def _write(self, figure: int, places: int) -> str:
        """A figure below a thousand needs no grouping: it is written as every language writes
        it (``marked``), in this language's symbols, as ``format_decimal`` would, without its
        cost."""
        if abs(figure) >= 1000 * SCALE:
            shown = Decimal(figure).scaleb(-PRECISION)
            return format_decimal(shown, self._fixed(places), locale=self._cldr)
        return self.unmarked(marked(figure, places))

    def unmarked(self, text: str) -> str:
        """``text`` with the marks of its figures (``marked``) in this language's symbols."""
        return (
            text.replace(POINT, self._point).replace(MINUS, self._minus).replace(PLUS, self._plus)
        )

    def setting(self, value: float) -> str:
        """A declared figure (a tolerance) with every digit it has: 0.05, 0,047619."""
        return _setting(self._cldr, value)

    def count(self, value: int | None) -> str:
        """A count (cases, calls, tokens), grouped as the language groups: 12,345, 12.345."""
        if value is None:
            return self.unknown
        return _count(self._cldr, value)

    def share(self, value: float) -> str:
        """A share of 1 as a percentage: 83%; 99.6% rather than 100% for a share short of all."""
        percent = decimal(value) * 100
        whole = percent in (0, 100)
        digits = 0
        while digits < PRECISION - 2 and not whole and _rounded(percent, digits) in (0, 100):
            digits += 1
        return format_percent(
            _rounded(percent, digits) / 100, self._fixed(digits) + "%", locale=self._cldr
        )

    def p_value(self, p: float) -> str:
        """A p-value (``places.p_places``): 0.50, 0,048; < 0.001 below a thousandth."""
        if p < SMALLEST_P:
            return f"< {self.score(SMALLEST_P, 3)}"
        places = p_places(p, ALPHA)
        return self.rounded(rounded(p, places), places)

    def chance(self, p: float) -> str:
        """A p-value as the share of comparisons it is, to the digits it is written with: 50%,
        4.8%; less than 0.1% below a thousandth."""
        if p < SMALLEST_P:
            return f"< {format_percent(SMALLEST_P, '0.0%', locale=self._cldr)}"
        digits = p_places(p, ALPHA) - 2
        shown = Decimal(rounded(p, digits + 2)).scaleb(-PRECISION)
        return format_percent(shown, self._fixed(digits) + "%", locale=self._cldr)

    def money(self, usd: float | None) -> str:
        """Dollars: US$0.0329, 1.234,50 USD; ``unknown`` when not recorded, never 0."""
        if usd is None:
            return self.unknown
        amount = decimal(usd)
        shown = _rounded(amount, 2) if amount >= 1 or not amount else _significant(amount, 3)
        return format_currency(shown, "USD", locale=self._cldr, decimal_quantization=False)

    def latency(self, ms: float | None) -> str:
        """A latency: 850 ms, 1.25 secs, 1,25 s; ``unknown`` when not recorded."""
        if ms is None:
            return self.unknown
        measured, unit = Decimal(repr(ms)), "duration-millisecond"
        amount = _significant(measured, 3) if measured else measured
        if amount >= 1000:
            amount, unit = _significant(measured / 1000, 3), "duration-second"
        return format_unit(amount, unit, "short", "#,##0.######", locale=self._cldr)

    def moment(self, iso: str) -> str:
        """A stored ``created_at`` as the language writes it, its offset named:
        23 Sept 2026, 14:07:57 UTC; 23 set 2026, 14:07:57 UTC."""
        return _moment(self._cldr, iso)

    def moment_short(self, iso: str, seconds: bool = False) -> str:
        """A ``created_at`` for a table or an axis, in UTC: 23/09/2026, 14:07; 23/09/26, 14:07
        (to the second where ``needs_seconds`` says its column needs it)."""
        return _short_moment(self._cldr, iso, seconds)

    @staticmethod
    def _fixed(places: int) -> str:
        return "#,##0." + "0" * places if places else "#,##0"


@lru_cache(maxsize=1 << 12)
def _count(cldr: Locale, value: int) -> str:
    """``Formats.count``, kept: every page counts the same few things (cases, checks, calls,
    answers), and ``format_decimal`` parses its pattern at every call."""
    return format_decimal(value, "#,##0", locale=cldr)


@lru_cache(maxsize=1 << 10)
def _setting(cldr: Locale, value: float) -> str:
    """``Formats.setting``, kept as counts are: a run page writes each check's tolerance, and a
    suite has a few."""
    return format_decimal(decimal(value), "#,##0.######", locale=cldr)


@lru_cache(maxsize=_MOMENTS)
def _moment(cldr: Locale, iso: str) -> str:
    """``Formats.moment``, kept: the search index names every run by its moment, in each
    language, at every build. CLDR's medium patterns applied as they stand, as
    ``_short_moment`` does."""
    when = datetime.fromisoformat(iso)
    offset = when.utcoffset()
    zone = "UTC"
    if offset:
        zone += format_datetime(when, "xxx", tzinfo=when.tzinfo, locale=cldr)
    return f"{_written(cldr, when, 'medium', 'medium')} {zone}"


@lru_cache(maxsize=_MOMENTS)
def _short_moment(cldr: Locale, iso: str, seconds: bool) -> str:
    """``Formats.moment_short``, kept: a suite page writes each run's moment in every chart of
    its history and in its runs table. CLDR's patterns applied as they stand (Babel's
    ``format_date`` and ``format_time`` would look the locale up again at every call)."""
    when = datetime.fromisoformat(iso).astimezone(UTC)
    return _written(cldr, when, "short", "medium" if seconds else "short")


def _written(cldr: Locale, when: datetime, width: str, clock_width: str) -> str:
    """``when`` in CLDR's date pattern of ``width`` and time pattern of ``clock_width``, joined
    as the locale joins a date and a time of ``width``."""
    day = cldr.date_formats[width].apply(when, cldr)
    clock = cldr.time_formats[clock_width].apply(when, cldr)
    joined: str = cldr.datetime_formats[width]
    return joined.replace("'", "").replace("{0}", clock).replace("{1}", day)


@cache
def formats(language: str) -> Formats:
    """The figures of ``language`` (``en`` or ``it``)."""
    return Formats(language)
