"""``runsite report --format markdown``: the summary a pull request or a CI job shows, read as
GitHub reads it (a CommonMark parser with GFM's tables, and its autolinks of bare addresses)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

import generator.report.markdown
from generator.document.codec import read_run
from generator.document.disclosure import Disclosure
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.report.markdown import LIMIT, markdown_summary, name, text
from generator.report.subject import Origin, Subject
from generator.site.look import Look
from tests._helpers import MARKERS, a_redacted_run, a_run_at, a_verdict
from tests.report.conftest import RUN1, RUN2, SITE_URL, WORSE, look

GFM = MarkdownIt("commonmark", {"linkify": True}).enable(["table", "linkify"])


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
        assert child.type in ("text", "text_special", "code_inline"), child.type
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
    assert result.stdout.startswith("### ▼ `acme` · `support` · 29 ")
    assert "<table>" in GFM.render(result.stdout)
    assert result.stderr.startswith("runsite: exit 1: ")
    assert result.stderr.count("\n") == 1


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
    assert result.stdout.startswith("### ✗ `acme` · `planted` · ")


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


LINKING = [
    "https://evil.example/login",
    "www.evil.example",
    "ftp://files.evil.example/x",
    "mailto:someone@evil.example",
    "xmpp:someone@evil.example",
    "someone@evil.example",
    "@octocat",
    "@github/security",
    "#123",
    "GH-123",
    "octo/repo#123",
    "e8492dd7707fbf801b92e771662384455478f9fb",
    "octo/repo@e8492dd",
    ":smile:",
    "<https://evil.example>",
    "[here](https://evil.example)",
]
"""Names GitHub would make a link, a mention, a reference to an issue or a commit, or an emoji
of, were they text."""

_GITHUB_MAKES = re.compile(
    r"@[A-Za-z0-9]|#[0-9]|GH-[0-9]|\b[0-9a-f]{7,40}\b|:[a-z_+-][a-z0-9_+-]*:"
    r"|www\.|://|mailto:|xmpp:"
)
"""What GitHub's autolinks and its filters of mentions, references, commits and emoji take in
a text node (outside code and links)."""


def _text_outside_code(markdown: str) -> list[str]:
    return [
        child.content
        for token in GFM.parse(markdown)
        for child in token.children or ()
        if child.type in ("text", "text_special")
    ]


def _code(markdown: str) -> list[str]:
    return [
        child.content
        for token in GFM.parse(markdown)
        for child in token.children or ()
        if child.type == "code_inline"
    ]


def _named(second: int, **overrides: Any) -> dict[str, Any]:
    """A run of ``LINKING``'s names, its cases' and its checks', with ``overrides``."""
    run = a_run_at(second, **overrides)
    run["results"] = [
        {
            "case_id": case,
            "suspended": False,
            "verdicts": [a_verdict(assertion=check, score=0.0, status="fail")],
        }
        for case, check in zip(LINKING, reversed(LINKING), strict=True)
    ]
    return run


def _linking_subjects() -> dict[str, Subject]:
    disclosure = Disclosure(run_metadata=["@octocat", "www.evil.example"], tool_names=["#123"])

    def redacted(run: dict[str, Any]) -> RedactedRun:
        return redact(read_run(json.dumps(run).encode()).run, disclosure)

    now = redacted(_named(2, tenant="@octocat", suite="www.evil.example"))
    before = _named(1, tenant="@octocat", suite="www.evil.example")
    for case in before["results"]:
        case["verdicts"][0] |= {"score": 1.0, "status": "pass"}
    other_tenant = redacted(before | {"tenant": "#123"})
    origin = Origin("site", "en", Look())
    return {
        "alone": Subject(now, None, None, None, None, origin),
        "against": Subject(now, redacted(before), "reference", None, None, origin),
        "refused": Subject(now, other_tenant, "reference", None, None, origin),
    }


@pytest.mark.parametrize("read", ["alone", "against", "refused"])
@pytest.mark.parametrize("locale", ["en", "it"])
def test_no_name_becomes_a_link_a_mention_a_reference_or_an_emoji(read: str, locale: str):
    """Every name is a code span, which GitHub's autolinks and filters pass by: no link, no
    mention of a user or a team, no reference to an issue or a commit, no emoji."""
    markdown = markdown_summary(_linking_subjects()[read], locale)
    assert _links(markdown) == []
    assert "<a" not in GFM.render(markdown)
    outside = _text_outside_code(markdown)
    assert [text for text in outside if _GITHUB_MAKES.search(text)] == []
    code = _code(markdown)
    assert {"@octocat", "www.evil.example"} <= set(code)  # the tenant, the suite
    if read != "refused":
        assert set(LINKING) <= set(code)
        assert "#123" in code  # a tool name the disclosure released
    else:
        (reason,) = [c for c in code if c.startswith("runs ")]
        assert re.search(r"[0-9a-f]{16}", reason)  # the runs' keys, a commit's look-alike


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00")))
def test_a_name_reads_back_as_it_is_in_a_cell_and_in_a_line(value: str):
    """Backticks in runs of any length, at either end, pipes, backslashes, spaces at both
    ends: the name is one code span showing it, its whitespace made single spaces."""
    shown = re.sub(r"\s+", " ", value)
    table = f"| a | b |\n| --- | --- |\n| {name(value, cell=True)} | x |\n"
    assert _tables(table) == [[["a", "b"], [shown, "x"]]]
    assert _code(f"The name {name(value)} here.\n") == ([shown] if shown else [])


def _failing(cases: int, named: Callable[[int], str]) -> RedactedRun:
    run = a_run_at(2)
    run["results"] = [
        {"case_id": named(n), "suspended": False, "verdicts": [a_verdict(score=0.0, status="fail")]}
        for n in range(cases)
    ]
    return a_redacted_run(**run)


@pytest.mark.parametrize(
    ("locale", "cut"),
    [
        ("en", r"([\d,]+) more rows left out: GitHub"),
        ("it", r"Altre ([\d.]+) righe omesse: GitHub"),
    ],
    ids=["en", "it"],
)
def test_a_summary_past_githubs_limit_is_cut_at_a_row_and_says_how_many_were_left_out(
    locale: str, cut: str, monkeypatch: pytest.MonkeyPatch
):
    """Rows whose names hold emoji: fewer characters than GitHub takes, but more UTF-16 code
    units, which is how it counts them. The summary keeps the rows that fit, its table whole,
    and says in its language how many it left out."""
    run = _failing(250, lambda n: f"case {n:03d} " + "🙂" * 100 + "." * 60)
    subject = Subject(run, None, None, None, None, Origin("site", "en", Look()))
    markdown = markdown_summary(subject, locale)

    def utf16(text: str) -> int:
        return len(text.encode("utf-16-le")) // 2

    assert utf16(markdown) <= LIMIT
    (table,) = _tables(markdown)
    assert all(len(row) == 5 for row in table)
    shown = [row[0] for row in table[1:]]
    assert shown == [f"case {n:03d} " + "🙂" * 100 + "." * 60 for n in range(len(shown))]
    (left_out,) = re.findall(cut, markdown)
    assert len(shown) + int(left_out.replace(",", "").replace(".", "")) == 250
    row = next(line for line in markdown.splitlines() if line.startswith("| `case 000"))
    assert utf16(markdown) + utf16(row) + 1 > LIMIT  # not one more row would fit
    monkeypatch.setattr(generator.report.markdown, "LIMIT", 10**9)
    whole = markdown_summary(subject, locale)
    assert len(whole) <= LIMIT < utf16(whole)


def test_a_summary_within_githubs_limit_is_whole():
    run = _failing(160, lambda n: f"case {n:03d} " + "." * 150)
    markdown = markdown_summary(
        Subject(run, None, None, None, None, Origin("site", "en", Look())), "en"
    )
    assert len(_tables(markdown)[0]) == 161
    assert "left out" not in markdown
