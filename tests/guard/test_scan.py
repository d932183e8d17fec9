"""The leak scan: a payload string is found in any form a page carries it, in any file."""

from __future__ import annotations

import gzip
import html
import json
import re
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.document.codec import read_run, redacted_bytes
from generator.document.disclosure import NOTHING
from generator.document.payload import payload_strings
from generator.document.redact import redact
from generator.guard.scan import (
    KEY_BYTES,
    Leak,
    Sought,
    carried_forms,
    normalised,
    scan,
    sought_forms,
)
from tests._helpers import MARKERS, a_planted_run

SPOKEN = 'She said "MARKoutputQ1 <b>&</b>" — it\'s done'
"""An output with every character that some escaping changes."""


def _write(folder: Path, relative: str, data: str | bytes) -> None:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


_MARKUP = st.text(alphabet=st.sampled_from("<>/!?aZ é✓\udc80ß&;="), max_size=40)


@given(_MARKUP, st.binary(max_size=8))
def test_a_page_without_its_markup_is_its_text_with_every_tag_taken_out(text, raw):
    """Tags come out of the folded page's UTF-8 (lone surrogates kept) exactly as out of its
    text: no tag is missed or cut short by a character past ASCII."""
    searched = normalised(text.encode("utf-8", "surrogateescape") + raw)
    folded = searched[0].decode("utf-8", "surrogatepass")
    visible = re.sub(r"<[A-Za-z/!?][^<>]*>", "", folded).encode("utf-8", "surrogatepass")
    assert searched[1:] == ((visible,) if "<" in folded else ())


@given(st.text(alphabet=st.sampled_from("aZ é✓\udc80ßΣς\u0130ﬁÈ·—<&"), max_size=40))
def test_a_page_is_searched_case_folded_whatever_its_characters_past_ascii(text):
    """The page a search reads is its text case folded, as UTF-8 (lone surrogates kept),
    though its bytes are only lowered where folding leaves every character past ASCII as it is:
    a character that folds to another, or to two, is folded."""
    searched = normalised(text.encode("utf-8", "surrogateescape"))
    decoded = html.unescape(html.unescape(text))
    assert searched[0] == decoded.casefold().encode("utf-8", "surrogatepass")


def test_a_plain_string_has_one_form():
    assert carried_forms("MARKoutputQ1 plain") == {"MARKoutputQ1 plain"}


@pytest.mark.parametrize(
    "form",
    [
        SPOKEN,
        html.escape(SPOKEN),
        html.escape(SPOKEN, quote=False),
        SPOKEN.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;"),
        json.dumps(SPOKEN)[1:-1],
        json.dumps(SPOKEN, ensure_ascii=False)[1:-1],
        json.dumps(html.escape(SPOKEN))[1:-1],
        json.dumps(SPOKEN)[1:-1]
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("'", "\\u0027"),
    ],
    ids=["raw", "html", "html-text", "jinja", "json-ascii", "json", "json-of-html", "tojson"],
)
def test_a_string_is_found_in_each_form_a_page_carries_it(tmp_path, form):
    _write(tmp_path, "page.html", f"<p>{form}</p>")
    assert scan(tmp_path, {SPOKEN: "results[0].responses[0].output"}) == [
        Leak("page.html", "results[0].responses[0].output")
    ]


def test_html_escaped_json_escaped_and_gzipped_strings_are_found_where_they_are(tmp_path):
    payload = {
        SPOKEN: "results[0].responses[0].output",
        'Città "MARKreasonQ3"': "results[0].verdicts[0].reason",
        "MARKbaseurlQ14.example": "target_config.values.base_url",
    }
    _write(tmp_path, "en/runs/one/index.html", f"<td>{html.escape(SPOKEN)}</td>")
    _write(tmp_path, "search/search_index.json", json.dumps({"text": 'Città "MARKreasonQ3"'}))
    _write(tmp_path, "sitemap.xml.gz", gzip.compress(b"<loc>MARKbaseurlQ14.example</loc>"))
    assert scan(tmp_path, payload) == [
        Leak("en/runs/one/index.html", "results[0].responses[0].output"),
        Leak("search/search_index.json", "results[0].verdicts[0].reason"),
        Leak("sitemap.xml.gz", "target_config.values.base_url"),
    ]


def test_every_file_and_field_is_reported_once_and_sorted(tmp_path):
    payload = {"MARKinputQ2 asked": "b.input", "MARKoutputQ1 answered": "a.output"}
    _write(tmp_path, "z.html", "MARKinputQ2 asked, MARKoutputQ1 answered, MARKinputQ2 asked")
    _write(tmp_path, "a/b.html", "MARKoutputQ1 answered")
    assert scan(tmp_path, payload) == [
        Leak("a/b.html", "a.output"),
        Leak("z.html", "a.output"),
        Leak("z.html", "b.input"),
    ]


def test_a_clean_folder_gives_no_hit_even_where_a_page_shares_a_string_s_beginning(tmp_path):
    long = "MARKoutputQ1 and then a long tail that the page does not carry"
    _write(tmp_path, "page.html", f"<p>{long[: KEY_BYTES + 4]} but another ending</p>")
    _write(tmp_path, "empty.txt", b"")
    _write(tmp_path, "font.woff2", bytes(range(256)))
    assert scan(tmp_path, {long: "results[0].responses[0].output"}) == []
    assert scan(tmp_path, {}) == []


def test_the_planted_run_s_published_document_is_clean_and_a_leaked_argument_is_named(tmp_path):
    run = read_run(json.dumps(a_planted_run()).encode()).run
    payload = payload_strings(run, NOTHING)
    _write(tmp_path, "run.json", redacted_bytes(redact(run)))
    assert scan(tmp_path, payload) == []
    arguments = f'{{"q":"{MARKERS["arguments"]}"}}'
    _write(tmp_path, "en/run/index.html", f"<code>{html.escape(arguments)}</code>")
    at = "results[0].responses[0].tool_calls[0].arguments"
    assert scan(tmp_path, payload) == [
        Leak("en/run/index.html", at),
        Leak("en/run/index.html", f"{at}.#0"),
    ]


def _every_character(text: str, form: str) -> str:
    """``text`` with every character written as ``form`` formats its code point."""
    return "".join(form.format(ord(char)) for char in text)


NORMALISED_FORMS = {
    "decimal entities": _every_character(SPOKEN, "&#{};"),
    "hex entities": _every_character(SPOKEN, "&#x{:x};"),
    "named entities": "She said &quot;MARKoutputQ1 &lt;b&gt;&amp;&lt;/b&gt;&quot; &mdash; it&apos;s done",
    "\\u escapes": _every_character(SPOKEN, "\\u{:04x}"),
    "URL-encoded": urllib.parse.quote(SPOKEN),
    "URL-encoded, + for spaces": urllib.parse.quote_plus(SPOKEN),
    "upper case": SPOKEN.upper(),
    "split by markup": 'She said "MARKout<b>put</b>Q1 <span class="x"><b>&</b></span>" — it\'s done',
    "JSON in an attribute": html.escape(json.dumps(SPOKEN)),
    "JSON of entities, upper case": json.dumps(_every_character(SPOKEN, "&#{};").upper()),
}


@pytest.mark.parametrize("form", list(NORMALISED_FORMS.values()), ids=list(NORMALISED_FORMS))
def test_a_string_is_found_however_it_is_encoded_cased_or_split_by_markup(tmp_path, form):
    _write(tmp_path, "page.html", f"<p>{form}</p>")
    assert scan(tmp_path, {SPOKEN: "results[0].responses[0].output"}) == [
        Leak("page.html", "results[0].responses[0].output")
    ]


def test_the_exact_search_normalises_bytes_it_is_handed(tmp_path):
    sought = Sought({"Città MARKreasonQ3": "results[0].verdicts[0].reason"})
    assert sought.fields_in(b"<td>CITT&Agrave; mark<i>reason</i>q3</td>") == {
        "results[0].verdicts[0].reason"
    }
    assert sought.fields_in(b"<td>Citta MARKreasonQ3</td>") == set()


def test_a_form_of_fewer_than_8_visible_characters_is_not_sought(tmp_path):
    _write(tmp_path, "page.html", "<p>short</p><b>x</b>")
    assert scan(tmp_path, {"<i>short</i>": "results[0].responses[0].output"}) == []
    assert sought_forms("<i>short</i>") == {"<i>short</i>"}


def test_normalising_decodes_entities_escapes_and_urls_folds_case_and_drops_markup_once():
    page = b'<a href="/q?x=Se%C3%B1or+Sm\\u0069th">SE&Ntilde;OR &#83;mith</a>'
    assert normalised(page) == (
        '<a href="/q?x=señor smith">señor smith</a>'.encode(),
        "señor smith".encode(),
    )
    assert normalised(b"no markup, NO CASE") == (b"no markup, no case",)


def test_a_short_string_counts_in_its_own_case_only_so_a_label_is_no_leak(tmp_path):
    """A target of "not found" is no leak on the theme's "404 - Not found" page; shorter than
    16 characters, a string is sought in its own case (still decoded and whole across markup)."""
    payload = {"not found": "results[2].verdicts[0].metadata.target"}
    _write(tmp_path, "404.html", "<h1>404 - Not found</h1>")
    assert scan(tmp_path, payload) == []
    _write(tmp_path, "404.html", "<h1>404 - n&#111;t <i>found</i></h1>")
    assert scan(tmp_path, payload) == [Leak("404.html", "results[2].verdicts[0].metadata.target")]
