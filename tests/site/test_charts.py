"""Chart data as a page carries it: packed rows read back as the numbers a chart was made of."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from generator.site.charts import from_page, on_page, packed, unpacked

numbers = st.lists(st.one_of(st.none(), st.integers(min_value=-1, max_value=2**24 - 3)))


@given(numbers)
def test_packed_numbers_read_back_as_they_were(values: list[int | None]):
    text = packed(values)
    assert len(text) == 4 * len(values)
    assert unpacked(text) == values


@given(numbers)
def test_a_chart_read_back_from_its_page_is_the_chart(values: list[int | None]):
    data = {"kind": "compare", "rows": values, "cases": ["a"]}
    assert from_page(json.loads(json.dumps(on_page(data)))) == data
    trend = {"kind": "trend", "y": values}
    assert on_page(trend) is trend
