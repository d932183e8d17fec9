"""A comparison page's table and its sentences come from the same movements: each check the
sentences call worse, better, new, gone or not judged has that verdict in the table, and no
other row has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.account.movements import movements
from generator.account.rows import comparison_rows
from generator.reading import explain
from tests._helpers import a_corpus_run
from tests.conftest import CORPUS
from tests.reading._documents import BASELINE, RUN1, RUN2

FACT_VERDICTS = {
    "check.regressed": "worse",
    "check.regressed.flip": "worse",
    "check.improved": "better",
    "check.improved.flip": "better",
    "check.new": "new",
    "check.new.error": "new",
    "check.missing": "gone",
    "check.errored.both": "unjudged",
    "check.errored.now": "unjudged",
    "check.errored.before": "unjudged",
    "check.denominator_moved": "counted",
}


def _pairs() -> list[tuple[Path, Path]]:
    suites = CORPUS / "digline-suites"
    found = [(RUN1, RUN2), (BASELINE, RUN2), (RUN2, RUN1)]
    for suite in sorted(p for p in suites.iterdir() if (p / "digline-runs").is_dir()):
        base, worse = sorted((suite / "digline-runs").glob("*.json"))
        found += [(base, worse), (worse, base)]
    return found


@pytest.mark.parametrize(
    "reference, run", _pairs(), ids=lambda p: p.parent.parent.name + "/" + p.stem[:24]
)
def test_the_comparison_table_gives_each_check_the_verdict_its_sentence_gives(
    reference: Path, run: Path
):
    before, now = a_corpus_run(reference), a_corpus_run(run)
    reading = explain(now, before)
    said = {
        (f.params.get("case"), f.params["check"]): FACT_VERDICTS[f.kind]
        for f in reading.facts
        if f.kind in FACT_VERDICTS
    }
    rows = {(row.case, row.check): row.verdict for row in comparison_rows(movements(now, before))}
    shown = {
        key: verdict for key, verdict in rows.items() if verdict in set(FACT_VERDICTS.values())
    }
    assert shown == said


def test_a_check_that_flipped_shows_the_change_of_its_score():
    rows = comparison_rows(movements(a_corpus_run(RUN2), a_corpus_run(RUN1)))
    flipped = [row for row in rows if row.verdict in ("worse", "better")]
    assert flipped
    for row in flipped:
        assert row.before is not None and row.now is not None
        assert row.delta == round(row.now.score - row.before.score, 6) != 0
