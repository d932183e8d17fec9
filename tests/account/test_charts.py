"""Chart data as a page carries it: packed rows read back as the numbers a chart was made of,
and an interval chart's serialised form holds every sampled check of a real run."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from generator.account.charts import intervals_of, packed, unpacked
from generator.account.checks import checks_of
from generator.document.codec import read_run
from generator.document.disclosure import Disclosure
from generator.document.redact import redact
from tests.reading._documents import DIGLINE

numbers = st.lists(st.one_of(st.none(), st.integers(min_value=-1, max_value=2**24 - 3)))


@given(numbers)
def test_packed_numbers_read_back_as_they_were(values: list[int | None]):
    text = packed(values)
    assert isinstance(text, str) and len(text) == 4 * len(values)
    assert unpacked(text) == values


def test_numbers_of_a_scale_of_their_own_beyond_three_bytes_stay_a_list():
    assert packed([0, 40_000_000, None, -2_500_000]) == [0, 40_000_000, None, -2_500_000]


def test_an_interval_chart_carries_every_sampled_check_once():
    runs = [
        redact(read_run(path.read_bytes()).run, Disclosure())
        for path in sorted(DIGLINE.glob("*.json"))
    ]
    drawn = [(run, intervals_of(run)) for run in runs]
    sampled = [(run, chart) for run, chart in drawn if chart is not None]
    assert sampled
    for run, chart in sampled:
        data = chart.serialised()
        assert isinstance(data["rows"], str)
        flat = unpacked(data["rows"])
        assert (
            len(flat) == data["stride"] * len(chart.rows) == data["stride"] * len(data["verdicts"])
        )
        expected = [c for c in checks_of(run) if c.verdict.sample_min is not None]
        assert [(c.figures[1], c.figures[2]) for c in expected] == [
            (row.low, row.high) for row in chart.rows
        ]
