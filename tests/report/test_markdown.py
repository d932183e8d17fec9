"""``runsite report --format markdown``: the summary a pull request or a CI job shows, read as
GitHub reads it (a CommonMark parser with GFM's tables)."""

from __future__ import annotations

import copy

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from generator.report.markdown import markdown_summary, text
from generator.report.subject import Origin, Subject
from generator.site.look import Look
from tests._helpers import MARKERS, a_redacted_run, a_run_at, a_verdict
from tests.report.conftest import RUN1, RUN2, SITE_URL, WORSE, look

GFM = MarkdownIt("commonmark").enable("table")


def _tables(markdown: str) -> list[list[list[str]]]:
    """Each table's rows (the header's first), each cell as the text a reader sees; a cell
    that renders anything but text fails."""
    tables: list[list[list[str]]] = []
    row: list[str] | None = None
    for token in GFM.parse(markdown):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and row is not None:
            tables[-1].append(row)
            row = None
        elif token.type == "inline" and row is not None:
            row.append(_plain(token))
    return tables


def _plain(token: Token) -> str:
    parts = []
    for child in token.children or ():
        assert child.type in ("text", "text_special"), child.type
        parts.append(child.content)
    return "".join(parts)


def _links(markdown: str) -> list[str]:
    return [
        str(child.attrs["href"])
        for token in GFM.parse(markdown)
        for child in token.children or ()
        if child.type == "link_open"
    ]


@pytest.mark.parametrize(("locale", "case"), [("en", "Case"), ("it", "Caso")])
def test_the_summary_of_the_recorded_pair_names_the_four_checks_that_got_worse(
    report, locale, case
):
    result = report(RUN2, "--baseline", "--format", "markdown", "--locale", locale)
    assert result.exit_code == 1, result.output
    (table,) = _tables(result.stdout)
    assert table[0][0] == case
    assert {(row[0], row[1]) for row in table[1:]} == WORSE
    assert len(table) == 5
    assert result.stdout.startswith("### ▼ acme · support · 29 ")
    assert "<table>" in GFM.render(result.stdout)


@pytest.mark.parametrize(("locale", "said"), [("en", "4 worse"), ("it", "4 peggiorati")])
def test_the_counts_of_a_comparison_agree_with_their_number(report, locale, said):
    summary = report(RUN2, "--baseline", "--format", "markdown", "--locale", locale).stdout
    counts = summary.split("\n\n")[2]
    assert counts.split(" · ")[0] == said


def test_a_worse_check_shows_both_runs_scores_their_samples_and_the_change(
    report,
):
    (table,) = _tables(report(RUN2, "--baseline", "--format", "markdown").stdout)
    rows = {(row[0], row[1]): row[2:] for row in table[1:]}
    assert rows[("waterproof", "contains")] == ["1.00 (1.00–1.00)", "0.40 (0.00–1.00)", "-0.60"]


def test_the_summary_links_to_the_site_where_its_address_is_known(archive, report):
    with look(archive, f"site_url: {SITE_URL}\n"):
        compared = report(RUN2, "--baseline", "--format", "markdown", "--locale", "it")
        alone = report(RUN2, "--format", "markdown")
    assert _links(compared.stdout) == [
        f"{SITE_URL}it/diffs/acme/support/{RUN2}/{RUN1}/",
        f"{SITE_URL}it/runs/acme/support/{RUN2}/",
    ]
    assert _links(alone.stdout) == [f"{SITE_URL}runs/acme/support/{RUN2}/"]
    assert _links(report(RUN2, "--format", "markdown").stdout) == []


def test_a_payload_string_in_the_sites_address_fails_the_summary_and_the_file(archive, report):
    with look(archive, f"site_url: https://evals.example.org/{MARKERS['result']}/\n"):
        summary = report("planted@latest", "--format", "markdown")
        page = report("planted@latest")
    for result in (summary, page):
        assert result.exit_code == 64
        assert result.stdout == ""
        assert "would carry the payload of results[0].responses[0]" in result.stderr


def test_a_run_alone_lists_the_checks_that_did_not_pass(report):
    result = report("planted@latest", "--format", "markdown")
    (table,) = _tables(result.stdout)
    assert table[1:] == [["<script>alert(1)</script>", "contains", "0.00", "1.00", "failed"]]
    assert result.stdout.startswith("### ✗ acme · planted · ")


HOSTILE = "a|b *c* _d_ <b>e</b> [f](http://x) \\ &amp; `g` ~h~"


def _subject(**names: str) -> Subject:
    before = a_run_at(1, **names)
    now = copy.deepcopy(a_run_at(2, **names))
    for run in (before, now):
        run["results"][1]["case_id"] = HOSTILE
    now["results"][1]["verdicts"] = [a_verdict(assertion=HOSTILE, score=0.0, status="fail")]
    before["results"][1]["verdicts"] = [a_verdict(assertion=HOSTILE)]
    return Subject(
        run=a_redacted_run(**now),
        other=a_redacted_run(**before),
        role="reference",
        previous=None,
        reference=None,
        origin=Origin("site", "en", Look()),
    )


def test_names_with_markup_read_as_text_in_the_summary():
    subject = _subject(tenant="t|*x*", suite="s<i>y</i>")
    markdown = markdown_summary(subject, "en")
    (table,) = _tables(markdown)
    assert table[1][:2] == [HOSTILE, HOSTILE]
    assert all(len(row) == 5 for row in table)
    heading = GFM.parse(markdown)[1]
    assert _plain(heading).startswith("▼ t|*x* · s<i>y</i> · ")
    assert _links(markdown) == []


def test_text_escapes_only_what_would_be_markup():
    assert text("llm_rubric 0.40 (a|b)") == "llm\\_rubric 0.40 (a\\|b)"
    assert text("two\nlines") == "two lines"
