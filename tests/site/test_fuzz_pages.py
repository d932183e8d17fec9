"""Every page renderer fed names of every script, punctuation and symbol (markup among them):
no traceback, and no name that holds markup ever appears unescaped."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.document.codec import read_run
from generator.document.redact import redact
from generator.site.history import SuiteRuns
from generator.site.labels import LOCALES
from generator.site.pages import Site, comparison
from generator.site.summary import summarise
from generator.site.templates import environment
from tests._hostile import named_runs, visible_names

SITES = [Site(environment(), locale) for locale in LOCALES]
TAG = "<zq"
"""How every drawn name with markup starts: a tag no page of runsite ever writes."""
markup = st.text(st.sampled_from("<>&\"'/= ab"), max_size=12).map(lambda s: f"{TAG}{s}")
drawn = st.one_of(visible_names, markup, st.just(f'">{TAG} src=x onerror=alert(1)>'))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=named_runs(drawn))
def test_pages_render_any_name_as_text(first: dict[str, object]):
    second = json.loads(json.dumps(first))
    second["created_at"] = "2026-12-01T10:00:00.000000+00:00"
    runs = [redact(read_run(json.dumps(doc).encode()).run) for doc in (first, second)]
    history = SuiteRuns(runs[0].tenant, runs[0].suite, tuple(summarise(r) for r in runs), None)
    for site in SITES:
        pages = [
            site.run(runs[1], runs[0].key, None, None).html,
            site.diff(runs[1], runs[0], comparison(runs[1], runs[0]), "previous").html,
            site.suite(history).text,
            site.suite(history).body or "",
            site.home([history]).text,
            site.home([history]).body or "",
        ]
        for page in pages:
            assert TAG not in page
