"""The reading's prose writes figures as each language does, and its JSON keeps them exact."""

from __future__ import annotations

from typing import Any

from generator.document.record import SETTINGS
from generator.reading import as_json, catalog, explain, text
from generator.reading.facts import Fact
from generator.reading.locales.settings import NAMES
from generator.reading.render import sentence
from tests._helpers import a_corpus_run, a_redacted_run, a_verdict
from tests.reading._documents import BASELINE, RUN2


def lines(reading: Any, locale: str, starting: str) -> list[str]:
    return [line for line in text(reading, locale).splitlines() if line.startswith(starting)]


def test_run2_against_its_baseline_reads_in_figures_each_language_writes():
    reading = explain(a_corpus_run(RUN2), a_corpus_run(BASELINE))
    # cost_budget on order: 0.631374 -> 0.64136, +0.009986 within 0.05 (two decimals). On
    # latency_budget on order, 0.671430 -> 0.672906 print 0.67 and 0.67 at two; at three they
    # print 0.671 and 0.673, whose difference, 0.002, is not the change +0.001476 printed +0.001:
    # four it is, 0.6714 to 0.6729, +0.0015.
    assert lines(reading, "en", "- cost_budget on case order") == [
        "- cost_budget on case order moved from 0.63 to 0.64 (+0.01), within its tolerance of 0.05."
    ]
    assert lines(reading, "en", "- latency_budget on case order") == [
        "- latency_budget on case order moved from 0.6714 to 0.6729 (+0.0015), within its "
        "tolerance of 0.1."
    ]
    assert lines(reading, "it", "- latency_budget sul caso order") == [
        "- latency_budget sul caso order si è spostato da 0,6714 a 0,6729 (+0,0015), entro la "
        "sua tolleranza di 0,1."
    ]
    assert lines(reading, "it", "- llm_rubric sul caso invoice è sul filo") == [
        "- llm_rubric sul caso invoice è sul filo: i suoi campioni vanno da 0,53 a 0,79, alcuni "
        "sotto la soglia di 0,70, altri pari o sopra."
    ]


def test_the_setup_of_a_run_writes_its_moment_and_its_bill_in_each_language():
    reading = explain(a_corpus_run(RUN2))
    assert lines(reading, "en", "- Suite") == [
        "- Suite support, measured in staging on 29 Nov 2026, 22:43:33 UTC."
    ]
    assert lines(reading, "it", "- Suite") == [
        "- Suite support, ambiente staging, misurata il 29 nov 2026, 22:43:33 UTC."
    ]
    assert lines(reading, "en", "- Calls to the target") == [
        "- Calls to the target: 20, costing US$0.0241."
    ]
    assert lines(reading, "it", "- Chiamate al sistema valutato") == [
        "- Chiamate al sistema valutato: 20, per un costo di 0,0241\xa0USD."
    ]


def a_run_billed(target: dict[str, Any]):
    usage = {"target": target, "judge": {"calls": 0, "counted": 0, "spent_usd": 0.0}}
    return a_redacted_run(usage=usage)


def test_a_bill_that_leaves_calls_out_and_holds_nothing_is_unknown_not_zero():
    reading = explain(
        a_run_billed({"calls": 25, "counted": 0, "spent_usd": 0.0, "every_cost_known": False})
    )
    kinds = {f.kind: f.params for f in reading.facts}
    assert kinds["tally.cost_unknown.target"] == {}
    assert kinds["setup.calls.target"] == {"calls": 25}
    assert "tally.unpriced.target" not in kinds and "setup.spent.target" not in kinds
    english, italian = text(reading, "en"), text(reading, "it")
    assert "- Calls to the target: 25, their cost not known in full." in english
    assert "What the calls to the target cost is unknown" in english
    assert "Quanto siano costate le chiamate al sistema valutato non si sa" in italian
    assert "US$0.00 on record" not in english and "0,00\xa0USD registrati" not in italian


def test_a_bill_that_leaves_calls_out_says_what_is_on_record():
    reading = explain(
        a_run_billed({"calls": 3, "counted": 0, "spent_usd": 0.0036, "every_cost_known": False})
    )
    assert lines(reading, "en", "- Not every call") == [
        "- Not every call to the target reported its cost: the US$0.0036 on record counts only "
        "the calls that did."
    ]
    assert lines(reading, "en", "- Calls to the target") == [
        "- Calls to the target: 3, their cost not known in full."
    ]


def test_a_bill_with_every_cost_known_states_it_even_at_zero():
    reading = explain(
        a_run_billed({"calls": 3, "counted": 0, "spent_usd": 0.0, "every_cost_known": True})
    )
    assert lines(reading, "en", "- Calls to the target") == [
        "- Calls to the target: 3, costing US$0.00."
    ]


def test_a_failing_score_a_hair_under_its_threshold_never_prints_as_the_threshold():
    run = a_redacted_run(
        results=[
            {
                "case_id": "c",
                "suspended": False,
                "verdicts": [a_verdict(score=0.799999, status="fail", threshold=0.8)],
            }
        ],
        aggregate=[],
        artifacts={},
    )
    assert lines(explain(run), "en", "- contains on case c failed") == [
        "- contains on case c failed: 0.799999 against a threshold of 0.800000."
    ]


def test_a_setting_is_named_in_the_readers_language_and_its_value_kept_as_configured():
    fact = Fact("setup", "setup.target.value", {"name": "max_tokens", "value": 4096})
    assert (
        sentence(fact, catalog("it")) == "Impostazione limite di token del sistema valutato: 4096."
    )
    fact = Fact("setup", "setup.target.value", {"name": "temperature", "value": 0.7})
    assert sentence(fact, catalog("it")) == "Impostazione temperatura del sistema valutato: 0,7."
    fact = Fact("setup", "setup.target.value", {"name": "json_mode", "value": True})
    assert sentence(fact, catalog("en")) == "Target setting JSON mode: on."
    assert (
        sentence(fact, catalog("it")) == "Impostazione modalità JSON del sistema valutato: attiva."
    )
    fact = Fact("setup", "setup.target.value", {"name": "house_style", "value": "terse"})
    assert sentence(fact, catalog("it")) == "Impostazione house_style del sistema valutato: terse."


def test_every_setting_a_page_may_show_has_a_name_in_each_language():
    assert all(names.keys() == SETTINGS.keys() for names in NAMES.values())


def test_the_json_keeps_every_figure_exact():
    reading = explain(a_corpus_run(RUN2), a_corpus_run(BASELINE))
    facts = as_json(reading)["facts"]
    [order] = [
        f["params"]
        for f in facts
        if f["kind"] == "check.unchanged"
        and f["params"]["case"] == "order"
        and f["params"]["check"] == "latency_budget"
    ]
    assert order == {
        "case": "order",
        "check": "latency_budget",
        "before": 0.67143,
        "now": 0.672906,
        "delta": 0.001476,
        "tolerance": 0.1,
    }
