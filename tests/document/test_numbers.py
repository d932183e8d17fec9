"""Limits at storage precision: the quick comparison agrees with rounding both figures first,
and every name pattern holds the hidden classes of this Python's Unicode tables."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from generator.document.numbers import LARGEST, at_precision, meets, within
from generator.document.values import HIDDEN_RANGES

figures = st.floats(min_value=-LARGEST, max_value=LARGEST, allow_nan=False) | st.integers(
    -LARGEST, LARGEST
)
near = st.floats(min_value=-0.00001, max_value=0.00001, allow_nan=False)


@given(figures, figures)
def test_a_limit_is_met_exactly_as_the_two_figures_stored_compare(value, limit):
    assert meets(value, limit) == (at_precision(value) >= at_precision(limit))
    assert within(value, limit) == (at_precision(value) <= at_precision(limit))


@given(st.floats(min_value=0, max_value=1), near)
def test_a_score_a_hair_from_its_threshold_is_judged_by_its_stored_figure(threshold, hair):
    score = threshold + hair
    assert meets(score, threshold) == (at_precision(score) >= at_precision(threshold))


def test_the_hidden_ranges_are_this_pythons_hidden_characters():
    hidden = {"Cc", "Cf", "Zl", "Zp"}
    ranges = []
    start = None
    for point in range(sys.maxunicode + 1):
        if unicodedata.category(chr(point)) in hidden:
            start = point if start is None else start
        elif start is not None:
            ranges.append((start, point - 1))
            start = None
    assert tuple(ranges) == HIDDEN_RANGES, (
        f"regenerate HIDDEN_RANGES (Unicode {unicodedata.unidata_version})"
    )
