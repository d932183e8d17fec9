"""How two runs were set up differently: target, judge, rules and files under test.

A value withheld on either side compares as unknown, never as a change: the reading cannot
see it, so it cannot say it moved. The rules are read from the verdicts themselves (each
check's threshold, tolerance and number of samples), since that is all a redacted run holds
of them; a check's rule is the one on its first verdict.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from generator.account.checks import checks_of
from generator.account.memo import once_per_run
from generator.document.numbers import at_precision
from generator.document.redacted import RedactedConfig, RedactedRun, RedactedVerdict
from generator.reading.facts import Fact, Kind, fact


@dataclass(frozen=True)
class Rule:
    """What a run's verdicts say about one check's rule."""

    name: str
    threshold: float
    tolerance: float
    samples: int


def _samples_asked(verdict: RedactedVerdict) -> int:
    asked = verdict.metadata.get("samples")
    if isinstance(asked, int) and not isinstance(asked, bool):
        return asked
    return len(verdict.samples) if verdict.samples else 1


@once_per_run
def rules_of(run: RedactedRun) -> Mapping[str, Rule]:
    """Each assertion id's rule, in reading order: once per run, which is read against the run
    before it, its reference, and the run after it."""
    found: dict[str, Rule] = {}
    for check in checks_of(run):
        v = check.verdict
        if v.assertion_id not in found:
            stored = check.stored  # threshold and tolerance at storage precision already
            rule = Rule(v.assertion, stored.threshold, stored.tolerance, _samples_asked(v))
            found[v.assertion_id] = rule
    return found


Field = Literal["threshold", "tolerance", "samples", "added", "removed"]


@dataclass(frozen=True)
class RuleMove:
    """One way a check's rule differs between two runs."""

    name: str
    field: Field
    before: float
    after: float

    @property
    def label(self) -> str:
        """``name.field`` for a moved value, the bare name for a check only one run has."""
        return self.name if self.field in ("added", "removed") else f"{self.name}.{self.field}"


def rule_moves(before: RedactedRun, now: RedactedRun) -> list[RuleMove]:
    """Every rule that differs, in ``now``'s reading order, then the checks ``now`` lacks."""
    old, new = rules_of(before), rules_of(now)
    moves: list[RuleMove] = []
    for identity, rule in new.items():
        was = old.get(identity)
        if was is None:
            moves.append(RuleMove(rule.name, "added", 0, 0))
            continue
        for field in ("threshold", "tolerance", "samples"):
            a, b = getattr(was, field), getattr(rule, field)
            if a != b:
                moves.append(RuleMove(rule.name, field, a, b))
    moves += [RuleMove(r.name, "removed", 0, 0) for i, r in old.items() if i not in new]
    return moves


def _rule_fact(move: RuleMove) -> Fact:
    if move.field == "added":
        return fact("underneath", "setting.rule.added", check=move.name)
    if move.field == "removed":
        return fact("underneath", "setting.rule.removed", check=move.name)
    if move.field == "samples":
        return fact(
            "underneath",
            "setting.samples",
            check=move.name,
            before=int(move.before),
            now=int(move.after),
        )
    up = move.after > move.before
    kind: Kind
    if move.field == "threshold":
        kind = "setting.threshold.raised" if up else "setting.threshold.lowered"
    else:
        kind = "setting.tolerance.widened" if up else "setting.tolerance.narrowed"
    return fact("underneath", kind, check=move.name, before=move.before, now=move.after)


_CONFIG: dict[str, dict[str, Kind]] = {
    "target": {
        "unknown": "setting.target.unknown",
        "added": "setting.target.added",
        "removed": "setting.target.removed",
        "changed": "setting.target.changed",
    },
    "judge": {
        "unknown": "setting.judge.unknown",
        "added": "setting.judge.added",
        "removed": "setting.judge.removed",
        "changed": "setting.judge.changed",
    },
}


def _config_facts(side: str, before: RedactedConfig, now: RedactedConfig) -> Iterator[Fact]:
    """Setting by setting, sorted by name; withheld names read as unknown."""
    kinds = _CONFIG[side]
    old, new = before.values or {}, now.values or {}
    hidden = set(before.withheld or ()) | set(now.withheld or ())
    for name in sorted(old.keys() | new.keys() | hidden):
        if name in hidden:
            yield fact("underneath", kinds["unknown"], name=name)
        elif name not in old:
            yield fact("underneath", kinds["added"], name=name, now=new[name])
        elif name not in new:
            yield fact("underneath", kinds["removed"], name=name, before=old[name])
        elif _differs(old[name], new[name]):
            yield fact("underneath", kinds["changed"], name=name, before=old[name], now=new[name])


def _differs(one: str | int | float | bool, other: str | int | float | bool) -> bool:
    if isinstance(one, bool) or isinstance(other, bool) or isinstance(one, str):
        return one != other or type(one) is not type(other)
    if isinstance(other, str):
        return True
    return at_precision(one) != at_precision(other)


def _identity_facts(before: RedactedConfig, now: RedactedConfig) -> Iterator[Fact]:
    old, new = set(before.identities or ()), set(now.identities or ())
    for identity in sorted(new - old):
        yield fact("underneath", "setting.judge.identity.added", identity=identity)
    for identity in sorted(old - new):
        yield fact("underneath", "setting.judge.identity.removed", identity=identity)


def _artifact_facts(before: RedactedRun, now: RedactedRun) -> Iterator[Fact]:
    for path in sorted(before.artifacts.keys() | now.artifacts.keys()):
        old, new = before.artifacts.get(path), now.artifacts.get(path)
        if old is None:
            yield fact("underneath", "setting.artifact.added", path=path)
        elif new is None:
            yield fact("underneath", "setting.artifact.removed", path=path)
        elif old.sha is None or new.sha is None:
            yield fact("underneath", "setting.artifact.unknown", path=path)
        elif old.sha != new.sha:
            yield fact("underneath", "setting.artifact.changed", path=path)


def judge_facts(before: RedactedRun, now: RedactedRun) -> list[Fact]:
    """How the judge differs: its identities, then its settings."""
    return [
        *_identity_facts(before.judge_config, now.judge_config),
        *_config_facts("judge", before.judge_config, now.judge_config),
    ]


def rule_facts(before: RedactedRun, now: RedactedRun) -> list[Fact]:
    """How the rules differ, check by check."""
    return [_rule_fact(move) for move in rule_moves(before, now)]


def underneath(
    before: RedactedRun, now: RedactedRun, judge: list[Fact], rules: list[Fact]
) -> list[Fact]:
    """Every setting that differs, environment first and files under test last."""
    found: list[Fact] = []
    if before.environment != now.environment:
        found.append(
            fact(
                "underneath",
                "setting.environment",
                before=before.environment,
                now=now.environment,
            )
        )
    found += _config_facts("target", before.target_config, now.target_config)
    found += judge
    found += rules
    found += _artifact_facts(before, now)
    return found
