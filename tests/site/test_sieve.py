"""The sieve before the leak scan never lets a leak go: wherever the exact scan finds a run's
payload string, however the file carries it, the sieve names that run."""

from __future__ import annotations

import html
import json
import urllib.parse

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.site.scan import Sought, sought_forms
from generator.site.sieve import Sieve, payload_keys

strings = st.text(min_size=8, max_size=40).map(str.strip).filter(lambda s: len(s) >= 8)

carriers = st.sampled_from(
    [
        lambda s: s,
        html.escape,
        lambda s: json.dumps(s)[1:-1],
        lambda s: json.dumps(s, ensure_ascii=False)[1:-1],
        lambda s: urllib.parse.quote(s),
        lambda s: urllib.parse.quote_plus(s),
        str.upper,
        lambda s: f"<b>{s[:3]}</b>{s[3:]}",
        lambda s: html.escape(json.dumps(s)),
    ]
)
"""How a page may carry a string: raw, escaped for HTML, JSON or a URL, cased, split by markup."""


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.lists(strings, min_size=1, max_size=4), min_size=1, max_size=4),
    st.data(),
)
def test_every_run_the_exact_scan_finds_in_a_page_the_sieve_lets_through(payloads, data):
    sieve = Sieve([payload_keys(payload) for payload in payloads])
    run = data.draw(st.integers(0, len(payloads) - 1))
    string = data.draw(st.sampled_from(payloads[run]))
    carried = data.draw(carriers)(string)
    page = f'<p class="x">before &amp; {carried} after</p>'.encode("utf-8", "surrogatepass")
    for index, payload in enumerate(payloads):
        if Sought(dict.fromkeys(payload, "field")).fields_in(page):
            assert index in sieve.runs_in(page)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=6))
def test_the_sieve_keys_the_head_of_every_form_the_exact_scan_seeks(payload):
    rows = {tuple(int(n) for n in row) for row in payload_keys(payload)}
    for string in payload:
        for form in sought_forms(string):
            head = form.encode("utf-8", "surrogatepass")[:16]
            tail = head[8:]
            mask = (1 << (8 * len(tail))) - 1
            key = (
                int.from_bytes(head[:8], "little"),
                int.from_bytes(tail.ljust(8, b"\0"), "little"),
                mask,
            )
            assert key in rows
