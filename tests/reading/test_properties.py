"""Properties every reading holds, over generated runs."""

from __future__ import annotations

import re

from hypothesis import given, settings

from generator.reading import Fact, Reading, as_json, diff, explain, text
from generator.reading.pairing import nothing_paired
from tests._strategies import redacted_runs, run_pairs

NUMBER = re.compile(r"[-+]?\d(?:[\d.,]*\d)?")
MOVED = {
    "moved.overlap",
    "check.overlap",
    "check.regressed",
    "check.regressed.flip",
    "check.improved",
    "check.improved.flip",
    "check.new",
    "check.new.error",
    "check.missing",
    "check.unchanged",
    "check.within_noise",
    "check.denominator_moved",
}


def readings(one, other) -> list[Reading]:
    return [explain(one), explain(one, other), diff(one, other)]


def figure(written: str, locale: str) -> str:
    """A figure as each language writes it (0.84, 0,84; 12,345, 12.345), as one string."""
    group, point = {"en": (",", "."), "it": (".", ",")}[locale]
    return written.replace(group, "").replace(point, ".")


def numbers_by_line(reading: Reading, locale: str) -> list[list[str]]:
    """The figures of each line, read back from the way ``locale`` writes them."""
    return [
        [figure(n, locale) for n in NUMBER.findall(line)]
        for line in text(reading, locale).splitlines()
    ]


@settings(max_examples=150, deadline=None)
@given(run_pairs())
def test_english_and_italian_readings_say_the_same_numbers_on_the_same_lines(pair):
    for reading in readings(*pair):
        assert numbers_by_line(reading, "en") == numbers_by_line(reading, "it")


@settings(max_examples=100, deadline=None)
@given(redacted_runs(), redacted_runs())
def test_a_reading_against_any_reference_says_the_same_numbers_in_both_languages(run, reference):
    reading = explain(run, reference)
    assert numbers_by_line(reading, "en") == numbers_by_line(reading, "it")


@settings(max_examples=150, deadline=None)
@given(run_pairs())
def test_every_fact_is_one_line_of_prose_and_one_entry_of_the_json(pair):
    for reading in readings(*pair):
        for locale in ("en", "it"):
            lines = text(reading, locale).splitlines()
            facts = [line for line in lines if line.startswith("- ")]
            nothing = facts.count("- Nothing to report.") + facts.count("- Niente da segnalare.")
            assert len(facts) - nothing == len(reading.facts)
        assert len(as_json(reading)["facts"]) == len(reading.facts)


@settings(max_examples=150, deadline=None)
@given(redacted_runs())
def test_a_run_read_against_itself_reports_nothing_moved(run):
    reading = explain(run, run)
    assert not {f.kind for f in reading.facts} & MOVED
    [moved] = [f.params for f in reading.facts if f.kind == "tally.moved"]
    assert (moved["regressed"], moved["improved"], moved["new"], moved["missing"]) == (0, 0, 0, 0)
    assert all(f.kind.endswith(".unknown") for f in reading.facts if f.section == "underneath")
    assert reading.exit_code in (0, 2)


def mirrored(fact: Fact) -> Fact:
    def swap(name: str) -> str:
        return re.sub("left|right", lambda m: "right" if m.group() == "left" else "left", name)

    return Fact(fact.section, swap(fact.kind), {swap(k): v for k, v in fact.params.items()})  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(run_pairs())
def test_diff_of_b_and_a_mirrors_diff_of_a_and_b(pair):
    one, other = pair
    forward, backward = diff(one, other), diff(other, one)
    assert backward.facts == tuple(mirrored(f) for f in forward.facts)
    assert (backward.run_key, backward.reference_key) == (forward.reference_key, forward.run_key)


@settings(max_examples=100, deadline=None)
@given(run_pairs())
def test_a_reading_without_a_reference_never_says_worse_and_a_diff_gates_only_on_no_pair(pair):
    one, other = pair
    assert explain(one).exit_code in (0, 2)
    assert diff(one, other).exit_code == (2 if nothing_paired(one, other) else 0)


@settings(max_examples=100, deadline=None)
@given(run_pairs())
def test_the_same_runs_always_give_the_same_reading(pair):
    for first, second in zip(readings(*pair), readings(*pair), strict=True):
        assert text(first, "it") == text(second, "it")
        assert as_json(first) == as_json(second)
