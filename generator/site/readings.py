"""The readings a site's pages show, made once per run for both languages."""

from __future__ import annotations

from generator.account.memo import once_per_run
from generator.document.redacted import RedactedRun
from generator.reading import explain
from generator.reading.facts import Reading

MARKED = "check.on_the_line"
"""The fact a run page shows as a mark in its cases table rather than as a sentence: a run of
180 sampled checks can have a hundred of them, which read as a list of nothing."""


@once_per_run
def alone(run: RedactedRun) -> Reading:
    """``explain(run)``: what a run's page says of it."""
    return explain(run)


def on_the_line(reading: Reading) -> set[tuple[str, str]]:
    """The (case, check) pairs the reading finds on the line."""
    return {
        (str(f.params["case"]), str(f.params["check"]))
        for f in reading.facts
        if f.kind == MARKED and "case" in f.params
    }
