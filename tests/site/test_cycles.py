"""Writing pages leaves nothing for Python's cycle collector: a build keeps it off while it
reads and renders (``publish.work``), so every page's values must free themselves."""

from __future__ import annotations

import gc
import json

from generator.document.codec import read_run
from generator.document.redact import redact
from generator.site.history import SuiteRuns
from generator.site.labels import LOCALES
from generator.site.pages import Site, comparison
from generator.site.summary import summarise
from generator.site.templates import environment
from tests._helpers import a_planted_run, a_run_at


def test_the_pages_of_a_run_once_the_templates_are_loaded_make_no_cycle():
    before = redact(read_run(json.dumps(a_run_at(1)).encode()).run)
    run = redact(read_run(json.dumps(a_planted_run()).encode()).run)
    history = [SuiteRuns(run.tenant, run.suite, (summarise(before), summarise(run)), None, {})]
    sites = [Site(environment(), locale) for locale in LOCALES]

    def write_every_page() -> None:
        for site in sites:
            site.run(run, before.key, None, None)
            site.diff(run, before, comparison(run, before), "previous")
            site.suite(history[0], None)
            site.home(history)

    write_every_page()  # the templates load and compile, with cycles of their own, once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        write_every_page()
        gc.collect()
        left = sorted({type(found).__name__ for found in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
