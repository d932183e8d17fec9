"""A change printed with its two sides is true as read: the later side less the earlier, as
printed, is the change as printed, and the change as printed is within its tolerance or beyond
it as the stored change is. In the reading's sentences, in a comparison page's table and in the
report's Markdown, which share the rule (``places.agreeing_places``; the table's rows are held
to it in tests/site/test_tables.py)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.document.numbers import at_precision
from generator.document.redacted import RedactedRun
from generator.reading import explain
from generator.reading.facts import Fact, fact
from generator.reading.formats import formats
from generator.reading.render import SIDES, shown
from generator.site.labels import LOCALES
from tests._helpers import a_corpus_run
from tests.conftest import CORPUS

REPOSITORY = Path(__file__).resolve().parents[2]


def number(written: str, locale: str) -> Decimal:
    """A score or a change as ``locale`` prints it (below a thousand: no grouping)."""
    return Decimal(written.replace(",", ".") if locale == "it" else written)


def true_as_read(
    before: str, now: str, change: str, tolerance: float | None, moved: float, locale: str
) -> bool:
    """Whether ``now`` less ``before`` is ``change``, all as printed, and ``change`` is within
    ``tolerance`` as the stored change ``moved`` is."""
    read = number(change, locale)
    if number(now, locale) - number(before, locale) != read:
        return False
    if tolerance is None:
        return True
    limit = Decimal(repr(at_precision(tolerance)))
    return (abs(read) <= limit) == (abs(Decimal(repr(at_precision(moved)))) <= limit)


def sentence_is_true(found: Fact, locale: str) -> bool:
    """Whether a fact's change reads true with its sides, as its sentence prints them."""
    values = shown(found, formats(locale))
    params = found.params
    for earlier, later, change in SIDES:
        was, now, moved = params.get(earlier), params.get(later), params.get(change)
        if isinstance(was, float) and isinstance(now, float) and isinstance(moved, float):
            tolerance = params.get("tolerance")
            limit = tolerance if isinstance(tolerance, float) else None
            printed = values[change]
            if change == "gap" and now < was:  # a gap is unsigned: signed here as a change
                printed, moved = "-" + printed, -moved
            return true_as_read(values[earlier], values[later], printed, limit, moved, locale)
    return True


def test_the_sentence_that_read_a_drop_of_0_05_as_0_06_reads_it_true():
    # The example a reader found: 0.622455 to 0.565751 printed at two places is 0.62 to 0.57
    # with a change printed -0.06, "more than its tolerance of 0.05". At four places it reads
    # 0.6225 to 0.5658 (-0.0567): three decimals would read 0.622 to 0.566, a change of -0.056
    # printed -0.057.
    dropped = fact(
        "moved",
        "check.regressed",
        check="cost_budget",
        case="invoice",
        before=0.622455,
        now=0.565751,
        delta=at_precision(0.565751 - 0.622455),
        tolerance=0.05,
    )
    for locale in LOCALES:
        values = shown(dropped, formats(locale))
        assert [values[k] for k in ("before", "now", "delta")] == {
            "en": ["0.6225", "0.5658", "-0.0567"],
            "it": ["0,6225", "0,5658", "-0,0567"],
        }[locale]


def _demo_pairs() -> list[tuple[RedactedRun, RedactedRun]]:
    """Each run of this repository's demo against each earlier run of its suite, and the
    corpus's second run against its promoted baseline."""
    suites: dict[Path, list[RedactedRun]] = {}
    for path in sorted((REPOSITORY / "runs").rglob("*.json")):
        suites.setdefault(path.parent, []).append(a_corpus_run(path))
    pairs = [
        (run, earlier)
        for runs in suites.values()
        for at, run in enumerate(runs)
        for earlier in runs[:at]
    ]
    local = CORPUS / "digline-local"
    run2 = a_corpus_run(next(local.glob("run2-changed__2026*.json")))
    return [*pairs, (run2, a_corpus_run(local / "baseline-support__promoted-from-run1.json"))]


def test_every_change_the_demo_and_the_corpus_read_is_true_as_read():
    false = []
    for run, reference in _demo_pairs():
        for found in explain(run, reference).facts:
            for locale in LOCALES:
                if not sentence_is_true(found, locale):
                    false.append((run.key, found.kind, found.params.get("case"), locale))
    assert false == []


scores = st.integers(0, 1_000_000).map(lambda n: n / 1_000_000)
tolerances = st.sampled_from([0.0, 0.001, 0.01, 0.05, 0.083333, 0.1])


@settings(max_examples=500, deadline=None)
@given(
    before=scores,
    now=scores,
    tolerance=tolerances,
    kind=st.sampled_from(["check.regressed", "check.improved", "check.unchanged"]),
)
def test_a_sentences_change_is_its_sides_difference_as_printed(before, now, tolerance, kind):
    delta = at_precision(now - before)
    said = fact("moved", kind, check="c", before=before, now=now, delta=delta, tolerance=tolerance)
    for locale in LOCALES:
        assert sentence_is_true(said, locale)


@settings(max_examples=500, deadline=None)
@given(left=scores, right=scores)
def test_a_diffs_gap_is_its_sides_difference_as_printed(left, right):
    gap = at_precision(abs(right - left))
    said = fact("checks", "diff.favours_left", check="c", left=left, right=right, gap=gap)
    for locale in LOCALES:
        assert sentence_is_true(said, locale)
