"""A run holding a measurement on its own scale (a count of tool calls) reads as measured, not
as an error, in ``show``, the report and the summary, in both languages, its chart on an axis
of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.importers.test_inspect_scales import counting_tool_calls

MEASURED = {"en": "measured, not judged", "it": "misurati, non giudicati"}


@pytest.fixture
def counted(runsite, archive: Path, write_json) -> Path:
    """The archive with the refund agent's run whose ``tool_error_count`` counts 0 to 4."""
    log = write_json(counting_tool_calls(), "log.json")
    result = runsite("import", "--root", str(archive), "--tenant", "acme", str(log))
    assert result.exit_code == 0, result.output
    return archive


def test_show_counts_a_measurement_apart_from_errors(runsite, counted: Path):
    shown = runsite("show", "--root", str(counted), "--json", "refund_agent@latest")
    assert shown.exit_code == 0, shown.output
    facts = json.loads(shown.stdout)
    assert facts["verdicts"] == {"pass": 6, "fail": 4, "error": 0, "measured": 5}
    assert facts["aggregate"] == {"pass": 4, "fail": 0, "error": 0, "measured": 1}
    text = runsite("show", "--root", str(counted), "refund_agent@latest").stdout
    assert "4 fail, 0 error, 5 measured" in text


@pytest.mark.parametrize("locale", ["en", "it"])
def test_the_report_draws_a_count_on_its_own_axis_and_calls_it_measured(
    runsite, counted: Path, tmp_path: Path, locale: str
):
    out = tmp_path / "report.html"
    result = runsite(
        "report", "--root", str(counted), "refund_agent@latest", "--locale", locale,
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code in (0, 1, 2), result.output
    text = out.read_text(encoding="utf-8")
    assert MEASURED[locale] in text
    assert "outside the 0 to 1" not in text
