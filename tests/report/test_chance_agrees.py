"""Whether the recorded pair differs beyond chance reads the same in ``explain --json``, the
comparison page of the site, the one-file report and the Markdown summary: contains' exact
McNemar p of 0.5 over the four cases both runs judged (two went from passing to failing), and
invoice's Fisher p for its contains samples (5 of 5 passing, then 1 of 5)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from generator.reading.formats import formats
from tests.report.conftest import RUN1, RUN2, runsite


def _tests(archive: Path) -> dict[str, Any]:
    said = runsite("explain", RUN2, "--baseline", "--json", "--root", str(archive))
    tests: dict[str, Any] = json.loads(said.stdout)["tests"]
    return tests


def test_the_json_carries_contains_mcnemar_and_invoices_fisher(archive: Path):
    tests = _tests(archive)
    contains = next(c for c in tests["checks"] if c["check"] == "contains")
    assert (contains["pairs"], contains["worse"], contains["better"]) == (4, 2, 0)
    assert contains["mcnemar"]["p"] == 0.5
    [invoice] = [c for c in tests["cases"] if (c["case"], c["check"]) == ("invoice", "contains")]
    assert invoice["p"] == pytest.approx(stats.fisher_exact([[1, 4], [5, 0]]).pvalue, abs=1e-6)


@pytest.mark.parametrize("locale", ["en", "it"])
def test_the_page_the_report_and_the_summary_say_the_same(archive: Path, tmp_path: Path, locale):
    tests = _tests(archive)
    f = formats(locale)
    contains = next(c for c in tests["checks"] if c["check"] == "contains")
    mcnemar = f"{f.p_value(contains['mcnemar']['p'])} ({f.p_value(contains['mcnemar']['p_holm'])})"
    [invoice] = [c for c in tests["cases"] if (c["case"], c["check"]) == ("invoice", "contains")]
    fisher = f.p_value(invoice["p"])

    out = tmp_path / "site"
    built = runsite("build", "--root", str(archive), "--out", str(out))
    assert built.exit_code == 0, built.output
    prefix = "it/" if locale == "it" else ""
    page = (out / f"{prefix}diffs/acme/support/{RUN2}/{RUN1}/index.html").read_text()
    report = runsite("report", "--root", str(archive), RUN2, "--baseline", "--locale", locale)
    for html in (page, report.stdout):
        row = re.search(
            r"<tr><th scope=\"row\">contains<td[^>]*>4<td[^>]*>2 ↓ · 0 ↑<td[^>]*>([^<]*)<td", html
        )
        assert row is not None and row.group(1) == mcnemar
        assert f"<td>{fisher} <small>Fisher</small>" in html
    summary = runsite(
        "report",
        "--root",
        str(archive),
        RUN2,
        "--baseline",
        "--format",
        "markdown",
        "--locale",
        locale,
    ).stdout
    assert f"p = {f.p_value(contains['mcnemar']['p'])}" in summary
    assert f"p = {fisher}" in summary
    for text in (page, report.stdout):
        assert f"p = {f.p_value(contains['mcnemar']['p'])}" in text
