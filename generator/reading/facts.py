"""The reading's one currency: a fact is a kind (its catalog key) and named parameters.

Prose in either language and the JSON output are renderings of the same tuple of facts, so
they cannot disagree. A parameter is a number, a count or a name that may be published (case
ids, check names, config values, run keys); never a reason, an output or anything else that
is payload, since the reading only ever sees a ``RedactedRun``. Every float is stored at
storage precision, so two renderings print the same six decimals.

The exit code is decided here too, from the facts alone, by ``exit_code``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple, get_args

from generator.document.numbers import at_precision

if TYPE_CHECKING:
    from generator.account.chance import Chance

Param = str | int | float
Scope = Literal["run", "reference", "diff"]
Section = Literal[
    "ran", "setup", "found", "underneath", "moved", "chance", "samples", "head", "checks"
]

SECTIONS: dict[Scope, tuple[Section, ...]] = {
    "run": ("ran", "setup", "found", "samples"),
    "reference": ("ran", "underneath", "moved", "chance", "samples"),
    "diff": ("head", "checks", "chance"),
}
"""Which sections a reading of each scope has, in the order they are read."""

Kind = Literal[
    # What ran: tallies of the run (and, against a reference, of what moved).
    "tally.judge_changed",
    "tally.rejudged",
    "tally.cases",
    "tally.suspended",
    "tally.checks",
    "tally.unjudged",
    "tally.measured",
    "tally.nothing_judged",
    "tally.calibration",
    "tally.on_the_line",
    "tally.moved",
    "tally.denominator_moved",
    "tally.within_noise",
    "tally.unpaired",
    "tally.nothing_paired",
    "check.unpaired.identity",
    "tally.rules.same",
    "tally.rules.changed",
    "tally.unpriced.target",
    "tally.unpriced.judge",
    "tally.cost_unknown.target",
    "tally.cost_unknown.judge",
    # How a run alone was set up.
    "setup.run",
    "setup.commit",
    "setup.commit.dirty",
    "setup.commit.none",
    "setup.projected",
    "setup.target.identity",
    "setup.target.value",
    "setup.target.none",
    "setup.judge.identity",
    "setup.judge.value",
    "setup.judge.none",
    "setup.withheld.target",
    "setup.withheld.judge",
    "setup.artifact",
    "setup.spent.target",
    "setup.spent.judge",
    "setup.calls.target",
    "setup.calls.judge",
    # What differed underneath a run and its reference.
    "setting.environment",
    "setting.target.changed",
    "setting.target.added",
    "setting.target.removed",
    "setting.target.unknown",
    "setting.judge.changed",
    "setting.judge.added",
    "setting.judge.removed",
    "setting.judge.unknown",
    "setting.judge.identity.added",
    "setting.judge.identity.removed",
    "setting.threshold.raised",
    "setting.threshold.lowered",
    "setting.tolerance.narrowed",
    "setting.tolerance.widened",
    "setting.samples",
    "setting.rule.added",
    "setting.rule.removed",
    "setting.artifact.added",
    "setting.artifact.removed",
    "setting.artifact.changed",
    "setting.artifact.unknown",
    # One check (or case), alone or against a reference.
    "moved.overlap",
    "check.overlap",
    "check.regressed.flip",
    "check.regressed",
    "check.errored",
    "check.errored.raised",
    "check.errored.shape",
    "check.errored.now",
    "check.errored.before",
    "check.errored.both",
    "check.calibration_missed",
    "check.new",
    "check.new.error",
    "check.missing",
    "check.improved.flip",
    "check.improved",
    "check.unchanged",
    "check.within_noise",
    "check.denominator_moved",
    "check.failed",
    "case.suspended",
    # What the samples of one check show.
    "check.on_the_line",
    "check.over_cap",
    "check.over_cap.at_cap",
    "check.over_cap.unbounded",
    "check.spread",
    # Two runs side by side.
    "diff.head.overlap",
    "diff.overlap",
    "diff.head.checks",
    "diff.head.favours",
    "diff.head.one_side",
    "diff.head.errored",
    "diff.head.exceeds",
    "diff.favours_left",
    "diff.favours_left.flip",
    "diff.favours_right",
    "diff.favours_right.flip",
    "diff.errored.left",
    "diff.errored.right",
    "diff.errored.both",
    "diff.only_left",
    "diff.only_right",
    "diff.within",
    # Whether two runs differ beyond chance.
    "chance.checks",
    "chance.verdicts",
    "chance.verdicts.few",
    "chance.verdicts.diff",
    "chance.verdicts.diff.few",
    "chance.scores",
    "chance.scores.few",
    "chance.scores.diff.left",
    "chance.scores.diff.left.few",
    "chance.scores.diff.right",
    "chance.scores.diff.right.few",
    "chance.worse",
    "chance.better",
    "chance.beyond",
    "chance.none",
    "chance.case.fisher",
    "chance.case.mann_whitney",
]
KINDS: frozenset[str] = frozenset(get_args(Kind))

WORSE: frozenset[Kind] = frozenset({"check.regressed", "check.regressed.flip"})
"""Kinds that mean the run got worse than its reference: exit 1."""
BEYOND: frozenset[Kind] = frozenset({"chance.worse"})
"""Kinds that mean a check got worse beyond chance: exit 1 under the ``significant`` gate."""
Gate = Literal["tolerance", "significant"]
"""What exit 1 means against a reference: a check worse past its tolerance (digline's
meaning), or worse beyond chance after Holm's correction."""
UNJUDGED: frozenset[Kind] = frozenset(
    {"tally.unjudged", "tally.nothing_judged", "tally.calibration"}
)
"""Kinds that mean something in the run could not be judged: exit 2."""
UNPAIRED: frozenset[Kind] = frozenset({"tally.nothing_paired"})
"""Kinds that mean no check could be compared at all: exit 2, a diff included."""


class Fact(NamedTuple):
    """One statement of the reading, in no language yet: a named tuple, as a reading of 180
    checks makes hundreds, and a frozen dataclass costs several times as much to make."""

    section: Section
    kind: Kind
    params: dict[str, Param]


def fact(section: Section, kind: Kind, **params: Param) -> Fact:
    """A fact, with every float at storage precision."""
    for name, value in params.items():
        if isinstance(value, float):
            params[name] = at_precision(value)
    return Fact(section, kind, params)


@dataclass(frozen=True)
class Reading:
    """What the reading says about one run, a run against its reference, or two runs.

    In a diff, ``run_key`` is the left run and ``reference_key`` the right one.
    """

    scope: Scope
    run_key: str
    reference_key: str | None
    facts: tuple[Fact, ...]
    chance: Chance | None = None
    """The tests of the two runs, which the ``chance`` facts tell; None for a run alone."""

    @property
    def exit_code(self) -> int:
        """See ``exit_code``."""
        return exit_code(self.scope, self.facts)

    def gated(self, gate: Gate) -> int:
        """The exit code under ``gate``."""
        return exit_code(self.scope, self.facts, gate)

    def deciding(self, gate: Gate = "tolerance") -> Fact | None:
        """See ``deciding``."""
        return deciding(self.scope, self.facts, gate)

    def sections(self) -> list[tuple[Section, list[Fact]]]:
        """Each section of the reading's scope, in reading order, with its facts: one pass
        over the facts (a comparison has one for each check that moved) for all sections. A
        fact of a section the scope does not read is left out, as a reading never reads it."""
        found: dict[Section, list[Fact]] = {section: [] for section in SECTIONS[self.scope]}
        for fact in self.facts:
            if (facts := found.get(fact.section)) is not None:
                facts.append(fact)
        return list(found.items())


def deciding(scope: Scope, facts: tuple[Fact, ...], gate: Gate = "tolerance") -> Fact | None:
    """The fact the exit code comes from: the first that says the run got worse than its
    reference (past a tolerance, or beyond chance under the ``significant`` gate), else the
    first that says something could not be judged or nothing paired; None where the exit code
    is 0."""
    if scope == "reference":
        kinds = BEYOND if gate == "significant" else WORSE
        worse = next((f for f in facts if f.kind in kinds), None)
        if worse is not None:
            return worse
    gating = UNPAIRED if scope == "diff" else UNJUDGED | UNPAIRED
    return next((f for f in facts if f.kind in gating), None)


def exit_code(scope: Scope, facts: tuple[Fact, ...], gate: Gate = "tolerance") -> int:
    """0 fine, 1 worse than the reference (past a tolerance, or beyond chance under the
    ``significant`` gate), 2 something could not be judged; 1 outranks 2.

    Only a reading against a reference can say worse, and a diff never gates, except to say
    that nothing paired: then nothing was compared, which is never fine.
    """
    found = deciding(scope, facts, gate)
    return 0 if found is None else 1 if found.kind in WORSE | BEYOND else 2
