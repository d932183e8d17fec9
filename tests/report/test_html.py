"""``runsite report``: one HTML file holding the site's run or comparison page, made from the
redacted runs, searched for their payload before a byte is written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result

from generator.report.page import linked
from tests._helpers import MARKERS
from tests.report.conftest import HOSTILE, RUN1, RUN2, SITE_URL, look

LIMIT = 1_500_000
"""The most bytes a report may have to travel by mail."""


def _text(result: Result) -> str:
    assert result.exit_code in (0, 1, 2), result.output
    return str(result.stdout)


def test_a_planted_run_gives_a_report_with_no_marker_in_it(report, tmp_path: Path):
    out = tmp_path / "planted.html"
    result = report("planted@latest", "--out", str(out))
    assert result.exit_code in (0, 2), result.output
    text = out.read_text(encoding="utf-8")
    assert [
        field for field, marker in MARKERS.items() if marker.casefold() in text.casefold()
    ] == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<script>alert(1)" not in text


def test_a_payload_string_in_the_copyright_fails_the_report_and_writes_nothing(
    archive: Path, report, tmp_path: Path
):
    out = tmp_path / "report.html"
    out.write_text("the report handed over last week", encoding="utf-8")
    with look(archive, f"copyright: Published by {MARKERS['output']} for the board\n"):
        result = report("planted@latest", "--out", str(out))
        printed = report("planted@latest")
    assert result.exit_code == 64
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"runsite: {out}: would carry the payload of ")
    assert "results[0].responses[0].output" in result.stderr
    assert out.read_text(encoding="utf-8") == "the report handed over last week"
    assert printed.exit_code == 64 and printed.stdout == ""


def test_the_copyright_goes_on_the_report_as_text(archive: Path, report):
    with look(archive, "copyright: '<b>Acme</b> evaluation team'\n"):
        text = _text(report(RUN2))
    assert '<footer class="report-foot">&lt;b&gt;Acme&lt;/b&gt; evaluation team</footer>' in text


def test_a_run_report_is_the_run_page_with_the_disclosure_on_its_face(report):
    text = _text(report(RUN2))
    assert text.startswith('<!doctype html>\n<html lang="en">')
    head = text[text.index('<header class="report-head">') : text.index("</header>")]
    assert "Made from the redacted run only." in head
    assert "Beyond ids, names, scores, statuses and counts, nothing was published." in head
    assert "<h1>support · <time" in text
    assert '<h2 id="withheld">What this page does not show</h2>' in text
    assert "20 recorded answers: what the model said and what it was asked" in text
    assert text.count('<div class="runsite-chart" data-of="intervals"') == 5
    assert '<script type="application/json"' not in text


@pytest.mark.parametrize(
    ("locale", "opening"),
    [("en", "Overall: worse than the reference."), ("it", "Nel complesso: esecuzione peggiorata")],
)
def test_a_report_opens_with_its_overall_verdict_and_the_fact_it_comes_from(
    report, locale, opening
):
    result = report(RUN2, "--baseline", "--locale", locale)
    assert result.exit_code == 1, result.output
    head = result.stdout.split('<header class="report-head">', 1)[1].split("</p>", 2)
    assert head[1].startswith(f'\n<p class="report-verdict worse">{opening}')
    assert len(head[1]) > len(opening) + 60  # the deciding fact follows the status


def test_a_comparison_report_shows_both_runs_and_what_each_withholds(report):
    result = report(RUN2, "--baseline", "--locale", "it")
    assert result.exit_code == 1, result.output
    text = result.stdout
    assert '<html lang="it">' in text
    assert "Ricavato soltanto dalla versione oscurata delle esecuzioni." in text
    for case, check in (("waterproof", "contains"), ("invoice", "llm_rubric")):
        assert re.search(rf"<tr><th scope=row><a>{case}</a><td>{check}<td[^>]*>[^<]*<small>", text)
    withheld = text[text.index("<h2>Che cosa questa pagina non mostra</h2>") :]
    assert "<h3>Questa esecuzione</h3>" in withheld
    assert "<h3>Esecuzione precedente, di riferimento</h3>" in withheld
    assert text.count('<div class="runsite-chart" id="compare-') == 5


def test_a_report_loads_nothing_and_links_only_to_the_site(archive: Path, report):
    with look(archive, f"site_url: {SITE_URL}\n"):
        linked_text = _text(report(RUN2, "--baseline"))
    unlinked = _text(report(RUN2, "--baseline"))
    for text in (linked_text, unlinked):
        assert re.findall(r"\bsrc=", text) == []
        assert "url(" not in text and "@import" not in text
    # Within the file, its table of contents and its summary lead to its own sections and cases.
    assert [a for a in re.findall(r'href="([^"]*)"', unlinked) if a[0] != "#"] == ["data:,"]
    addresses = [a for a in re.findall(r'href="([^"]*)"', linked_text)[1:] if a[0] != "#"]
    cases = [a for a in addresses if "#case-" in a]
    assert cases and all(a.startswith(f"{SITE_URL}runs/acme/support/{RUN2}/#") for a in cases)
    assert [a for a in addresses if a not in cases] == [
        f"{SITE_URL}runs/acme/support/{RUN2}/",
        f"{SITE_URL}runs/acme/support/{RUN1}/",
        f"{SITE_URL}suites/acme/support/",
    ]


def test_the_same_run_and_options_give_the_same_bytes(report, tmp_path: Path):
    written = []
    for name in ("1.html", "2.html"):
        out = tmp_path / name
        result = report("bench@latest", "--against", "bench@latest~1", "--out", str(out))
        assert result.exit_code in (0, 1), result.output
        written.append(out.read_bytes())
    assert written[0] == written[1]


def test_a_run_of_the_bench_shape_fits_in_a_mail(report, tmp_path: Path):
    out = tmp_path / "bench.html"
    assert report("bench@latest", "--out", str(out)).exit_code in (0, 2)
    size = out.stat().st_size
    assert size <= LIMIT, size
    text = out.read_text(encoding="utf-8")
    assert text.count("<g><title>case-") == 180


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--against", RUN1, "--baseline"), "--against and --baseline name the reference twice"),
        (("--locale", "fr"), "fr"),
        (("--format", "pdf"), "pdf"),
    ],
)
def test_options_that_contradict_each_other_are_refused(report, args, said):
    result = report(RUN2, *args)
    assert result.exit_code == 64
    assert said in result.stderr


def test_a_run_outside_the_archive_is_refused_by_name(report, tmp_path: Path):
    stray = tmp_path / "stray.json"
    stray.write_text("{}", encoding="utf-8")
    result = report(str(stray))
    assert result.exit_code == 64
    assert "not an archived run; runsite import archives it" in result.stderr


def test_a_report_into_a_missing_folder_is_refused(report, tmp_path: Path):
    result = report(RUN2, "--out", str(tmp_path / "nowhere" / "report.html"))
    assert result.exit_code == 64
    assert "no such folder" in result.stderr
    assert not (tmp_path / "nowhere").exists()


def test_links_to_other_pages_become_addresses_or_text():
    html = '<a href="../../x/">x</a> <a href="#case-1">1</a>'
    assert linked(html, None) == '<a>x</a> <a href="#case-1">1</a>'
    assert linked(html, "https://s.example/runs/a/b/k/") == (
        '<a href="https://s.example/runs/a/x/">x</a> <a href="#case-1">1</a>'
    )


def test_two_runs_of_which_no_check_pairs_give_a_report_that_says_so_and_exit_2(report):
    page = report("bench@latest", "--against", RUN1)
    summary = report("bench@latest", "--against", RUN1, "--format", "markdown")
    for result in (page, summary):
        assert result.exit_code == 2, result.output
        assert "180 new" in result.stdout and "20 gone" in result.stdout
    assert "No check got worse." in summary.stdout


def test_the_bytes_do_not_depend_on_the_process_that_wrote_them(archive: Path):
    written = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "generator",
                "report",
                "--root",
                str(archive),
                RUN2,
                "--baseline",
                "--locale",
                "it",
            ],
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=False,
        )
        assert done.returncode == 1, done.stderr
        written.append(done.stdout)
    assert written[0] == written[1]


def test_runs_of_two_tenants_give_a_report_that_refuses_the_comparison_and_exits_2(report):
    page = report("bench@latest", "--against", f"s{HOSTILE}@latest")
    summary = report("bench@latest", "--against", f"s{HOSTILE}@latest", "--format", "markdown")
    for result in (page, summary):
        assert result.exit_code == 2, result.output
        assert "These two runs cannot be compared: " in result.stdout
        assert "they belong to different tenants" in result.stdout
