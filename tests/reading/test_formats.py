"""Figures as each language writes them: the exact strings, in English and in Italian, so a
change of Babel's data (or of a rule) shows up here first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from babel.dates import format_datetime
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.account.places import change_places, places, threshold_places
from generator.document.numbers import PRECISION
from generator.reading.formats import exact, formats, needs_seconds

EN, IT = formats("en"), formats("it")


@pytest.mark.parametrize(
    ("values", "tolerance", "changes", "expected"),
    [
        ([0.838074, 0.7], None, [], 2),  # no tolerance: two decimals
        ([0.838074, 0.7], 0.05, [], 2),  # 0.05 needs two
        ([0.838074, 0.7], 0.1, [], 2),  # never fewer than two
        ([0.838074, 0.7], 0.001, [], 3),  # a finer tolerance needs its digit
        ([0.7996, 0.8], 0.05, [], 4),  # 0.80 and 0.80 would hide a failing score
        ([0.838074, 0.838075], None, [], 5),  # half up: 0.83807 and 0.83808
        ([0.8, 0.8, 0.8], None, [], 2),  # equal values need no more
        ([0.616305, 0.614033], 0.05, [-0.002272], 3),  # the change must not print as 0.00
        ([0.1, 0.1000001], None, [], 2),  # equal at storage precision
        ([0.1, 0.100001], None, [], 6),  # one storage step apart: all six
    ],
)
def test_scores_read_together_get_the_decimals_that_tell_them_apart(
    values, tolerance, changes, expected
):
    assert places(values, tolerance, changes) == expected


def test_a_score_a_change_and_a_setting_in_each_language():
    assert [EN.score(0.838074), EN.score(0.7996, 4), EN.score(1.0)] == ["0.84", "0.7996", "1.00"]
    assert [IT.score(0.838074), IT.score(0.7996, 4), IT.score(1.0)] == ["0,84", "0,7996", "1,00"]
    assert [EN.change(-0.026096), EN.change(0.002272, 3)] == ["-0.03", "+0.002"]
    assert [IT.change(-0.026096), IT.change(0.002272, 3)] == ["-0,03", "+0,002"]
    assert [EN.score(0.125), EN.change(-0.125)] == ["0.13", "-0.13"]  # half up, both signs
    assert [EN.setting(0.05), EN.setting(0.047619), EN.setting(0.0)] == ["0.05", "0.047619", "0"]
    assert [IT.setting(0.05), IT.setting(0.047619), IT.setting(0.0)] == ["0,05", "0,047619", "0"]


def test_the_exact_figure_for_a_tooltip_is_the_stored_one_in_every_language():
    assert [exact(0.838074), exact(0.8), exact(1.0), exact(0.0)] == [
        "0.838074",
        "0.8",
        "1.0",
        "0.0",
    ]
    assert exact(0.83807449) == "0.838074"


def test_shares_are_percentages_and_never_round_to_all_or_none():
    shares = [0.833333, 1.0, 0.0, 0.996, 0.999999, 0.004, 0.5]
    assert [EN.share(s) for s in shares] == [
        "83%",
        "100%",
        "0%",
        "99.6%",
        "99.9999%",
        "0.4%",
        "50%",
    ]
    assert [IT.share(s) for s in shares] == [
        "83%",
        "100%",
        "0%",
        "99,6%",
        "99,9999%",
        "0,4%",
        "50%",
    ]


def test_money_has_sensible_digits_and_an_unknown_cost_is_never_zero():
    amounts = [0.032941, 0.0, 0.0002, 0.5, 12.3456, 1234.5]
    assert [EN.money(a) for a in amounts] == [
        "US$0.0329",
        "US$0.00",
        "US$0.0002",
        "US$0.50",
        "US$12.35",
        "US$1,234.50",
    ]
    assert [IT.money(a) for a in amounts] == [
        "0,0329\xa0USD",
        "0,00\xa0USD",
        "0,0002\xa0USD",
        "0,50\xa0USD",
        "12,35\xa0USD",
        "1.234,50\xa0USD",
    ]
    assert (EN.money(None), IT.money(None)) == ("unknown", "non disponibile")


def test_token_counts_are_grouped_as_each_language_groups():
    assert [EN.count(12), EN.count(12345), EN.count(None)] == ["12", "12,345", "unknown"]
    assert [IT.count(12), IT.count(12345), IT.count(None)] == ["12", "12.345", "non disponibile"]


def test_latencies_in_milliseconds_below_a_second_and_seconds_from_one():
    latencies = [850.0, 0.42, 999.4, 999.9, 1250.0, 12345.6, None]
    assert [EN.latency(ms) for ms in latencies] == [
        "850 ms",
        "0.42 ms",
        "999 ms",
        "1 sec",  # 999.9 ms is 1.00 s to three digits
        "1.25 secs",
        "12.3 secs",
        "unknown",
    ]
    assert [IT.latency(ms) for ms in latencies] == [
        "850 ms",
        "0,42 ms",
        "999 ms",
        "1 s",
        "1,25 s",
        "12,3 s",
        "non disponibile",
    ]


def test_a_moment_is_written_as_each_language_writes_it_with_its_offset_named():
    utc, east = "2026-09-23T14:07:57.816922+00:00", "2026-12-01T10:30:00.000000+02:00"
    assert [EN.moment(utc), EN.moment(east)] == [
        "23 Sept 2026, 14:07:57 UTC",
        "1 Dec 2026, 10:30:00 UTC+02:00",
    ]
    assert [IT.moment(utc), IT.moment(east)] == [
        "23 set 2026, 14:07:57 UTC",
        "1 dic 2026, 10:30:00 UTC+02:00",
    ]


def test_the_short_form_is_in_utc_and_gains_seconds_only_where_a_column_needs_them():
    east = "2026-12-01T10:30:00.000000+02:00"
    assert [EN.moment_short(east), IT.moment_short(east)] == [
        "01/12/2026, 08:30",
        "01/12/26, 08:30",
    ]
    assert [EN.moment_short(east, seconds=True), IT.moment_short(east, seconds=True)] == [
        "01/12/2026, 08:30:00",
        "01/12/26, 08:30:00",
    ]
    run1, run2 = "2026-11-29T22:43:20.961326+00:00", "2026-11-29T22:43:33.810739+00:00"
    assert needs_seconds([run1, run2])
    assert not needs_seconds([run1, run1, "2026-11-29T22:44:00.000000+00:00"])
    # the same minute written in two offsets is one minute
    assert needs_seconds(["2026-12-01T08:30:05+00:00", "2026-12-01T10:30:59+02:00"])


def test_a_checks_scores_print_to_its_tolerance_and_never_as_its_threshold_when_they_are_not():
    assert threshold_places([0.8104, 0.8099, 0.91], 0.7, 0.05) == 2
    assert threshold_places([0.699, 0.8], 0.7, 0.05) == 3
    assert threshold_places([0.699999, 0.8], 0.7, 0.05) == 6
    assert threshold_places([0.81234], 0.7, 0.001) == 3
    assert threshold_places([0.7, 0.9], 0.7) == 2


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(
        min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
    ),
    minutes=st.integers(min_value=-14 * 60, max_value=14 * 60),
)
def test_a_moment_reads_as_babel_writes_it_in_both_languages(moment, minutes):
    """The moments are written from CLDR's patterns directly (Babel looks the locale up at every
    call, and the search index names every run); they must read exactly as Babel's own."""
    when = moment.astimezone(timezone(timedelta(minutes=minutes)))
    iso = when.isoformat(timespec="microseconds")
    for figures in (EN, IT):
        zone = "UTC" + (
            format_datetime(when, "xxx", tzinfo=when.tzinfo, locale=figures.locale)
            if minutes
            else ""
        )
        medium = format_datetime(when, "medium", tzinfo=when.tzinfo, locale=figures.locale)
        assert figures.moment(iso) == f"{medium} {zone}"
        short = format_datetime(when, "short", tzinfo=UTC, locale=figures.locale)
        assert figures.moment_short(iso) == short


edge = st.tuples(st.sampled_from([0.01, 0.005, 0.001, 0.0005]), st.integers(-3, 3)).map(
    lambda drawn: drawn[0] + drawn[1] / 1e6
)
"""A figure a whole decimal step away, or half of one, give or take a millionth or three."""
near_threshold = st.tuples(
    st.floats(min_value=0, max_value=1) | st.integers(0, 200).map(lambda k: k / 200),
    st.lists(
        st.floats(min_value=-0.02, max_value=0.02) | edge | edge.map(lambda d: -d),
        min_size=1,
        max_size=8,
    ),
)


@settings(max_examples=500, deadline=None)
@given(
    drawn=near_threshold,
    setting=st.sampled_from([(None, 2), (0.05, 2), (0.001, 3), (0.0001, 4)]),
    base=st.integers(min_value=2, max_value=5),
)
def test_a_tables_decimals_are_the_fewest_that_keep_scores_off_their_threshold_and_changes_off_zero(
    drawn, setting, base
):
    """Only the figures close to the threshold (or to zero) are rounded to tell them apart, as
    no other can print as it: the decimals are still the fewest their definitions allow.
    ``setting`` is a tolerance and the fewest decimals it asks for."""
    threshold, offsets = drawn
    tolerance, least = setting
    scores = [min(1.0, max(0.0, threshold + offset)) for offset in offsets]
    off = [s for s in scores if exact(s) != exact(threshold)]

    def apart(p: int) -> bool:
        return all(EN.score(s, p) != EN.score(threshold, p) for s in off)

    found = threshold_places(scores, threshold, tolerance)
    assert found == next((p for p in range(least, PRECISION) if apart(p)), PRECISION)
    changes = [s - threshold for s in scores]
    moved = [c for c in changes if exact(c) not in ("0.0", "-0.0")]

    def nonzero(p: int) -> bool:
        return all(EN.score(abs(c), p).strip("0.") for c in moved)

    assert change_places(changes, base) == next(
        (p for p in range(base, PRECISION) if nonzero(p)), PRECISION
    )
