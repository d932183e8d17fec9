"""A suite as data: ``suite.toml`` beside a ``cases.json``, parsed into a ``Suite``.

The form is digline's declarative suite, all of it, with runsite's own additions beside it (a
``function`` target, judges written ``module:function``, four more trajectory checks). Every
rule a suite can break is found here, when it loads, and refused with one line naming the file,
the entry and every problem in it, unknown keys first (with the nearest known key): a silently
ignored ``treshold`` would leave a check running on the default that passes, and a report of the
missing ``threshold`` alone would hide the typo that caused it.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from generator.archive.names import unfit
from generator.document.problems import every_problem
from generator.errors import SuiteRefused
from generator.suite.agent_checks import TRAJECTORY_CHECKS, contradictions
from generator.suite.aggregates import AGGREGATES, Aggregate
from generator.suite.budgets import CostBudget, LatencyBudget
from generator.suite.checks import AnswerCheck, Rule
from generator.suite.judged import Faithfulness, LlmRubric, Repeated
from generator.suite.pii import PiiAbsent
from generator.suite.sampling import agreement_share
from generator.suite.target_spec import (
    READABLE,
    TARGETS,
    HttpTarget,
    ProviderTarget,
    Target,
)
from generator.suite.text_checks import (
    Affix,
    Contains,
    Equals,
    IsJson,
    JsonSchema,
    Length,
    Levenshtein,
    NotContains,
    Regex,
)

M = TypeVar("M", bound=BaseModel)
Name = Annotated[str, Field(min_length=1)]

CHECKS: dict[str, type[AnswerCheck]] = {
    check.kind: check
    for check in (
        Equals,
        Contains,
        NotContains,
        Affix,
        IsJson,
        JsonSchema,
        Length,
        Levenshtein,
        Regex,
        LlmRubric,
        Faithfulness,
        PiiAbsent,
        CostBudget,
        LatencyBudget,
        Repeated,
    )
} | TRAJECTORY_CHECKS
"""Every per-case check, by the ``type`` a suite writes."""

ALIASES: dict[str, dict[str, str]] = {"tools_called": {"tools": "expected"}}
"""runsite's own spellings of a digline parameter, by check type."""

_WHY_NOT: dict[tuple[str, str], str] = (
    {
        ("pii_absent", "patterns"): "patterns carry a checksum function, which a data file cannot "
        "give; the check uses its default patterns",
        ("[suite]", "disclosure"): "what leaves the perimeter is declared in runsite.toml "
        "under [disclosure], never in a suite",
        ("case", "calibration"): "calibration cases are not run by runsite; remove the key",
    }
    | {
        ("repeated", key): "a repeated check takes it from the check in inner"
        for key in Repeated.derived
    }
    | {(kind, "group"): "the per-group copies are made by by_group = true" for kind in AGGREGATES}
)
"""Keys digline's format knows that no runsite suite can hold, and why."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


class SuiteSection(_Strict):
    """``[suite]``."""

    tenant: Name
    environment: Name
    name: Name
    cases: Name
    """The cases file, relative to the suite file."""
    samples: Annotated[int, Field(ge=1)] = 1
    min_agreement: str | float | None = None
    """How many samples must share one outcome, as a share of them: ``"3/5"``."""
    record_responses: bool = False
    artifacts: list[Name] = Field(default_factory=list)
    """Files under test (a prompt), recorded with their hash and text."""
    pinned: list[Name] = Field(default_factory=list)
    """Artifacts declared must-not-drift: recorded as such in every run."""


class Case(_Strict):
    """One case of ``cases.json``; ``suspended`` holds the reason it is set aside."""

    id: Name
    vars: dict[str, JsonValue] = Field(default_factory=dict)
    expected: JsonValue = None
    label: Literal["positive", "negative"] | None = None
    group: Name | None = None
    context: list[str] = Field(default_factory=list)
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    suspended: Name | None = None
    canary: bool = False
    """The case watches the model rather than measuring it: no aggregate counts it."""

    def as_mapping(self) -> dict[str, Any]:
        """The case as its target and judges receive it: the keys the file gave."""
        return self.model_dump(mode="json", exclude_unset=True, exclude={"suspended"})

    def fields(self) -> dict[str, Any]:
        """The case as an http body reads it: a field the file left out at its default
        (``expected``, ``label`` and ``group`` null, ``context`` empty), as digline posts it."""
        return self.model_dump(mode="json", exclude={"suspended", "canary"})


@dataclass(frozen=True)
class Suite:
    """A suite that loaded: every rule checked, ready to run."""

    tenant: str
    environment: str
    name: str
    samples: int
    agreement: float | None
    """The share of samples that must reach one outcome; None when the suite does not sample."""
    record_responses: bool
    artifacts: tuple[str, ...]
    pinned: tuple[str, ...]
    target: Target
    checks: tuple[AnswerCheck, ...]
    aggregates: tuple[Aggregate, ...]
    """Every aggregate, each ``by_group`` one followed by its copies per group."""
    cases: tuple[Case, ...]


def parse_suite(
    doc: Mapping[str, Any], cases: Sequence[Any], source: str, cases_source: str
) -> Suite:
    """The suite ``doc`` (parsed TOML) declares, over ``cases`` (parsed JSON), or a refusal."""
    _refuse_unknown(doc, {"suite", "target", "assertions"}, source, "", "top level")
    section = _model(SuiteSection, doc.get("suite"), source, "[suite]", "[suite]")
    _check_names(section, source)
    target = _target(doc.get("target"), source)
    entries = doc.get("assertions")
    if not isinstance(entries, list) or not entries:
        raise SuiteRefused(source, "[[assertions]]", "", "a suite declares at least one check")
    rules = [_rule(entry, source, f"[[assertions]] #{n}") for n, entry in enumerate(entries, 1)]
    if not isinstance(cases, list):
        raise SuiteRefused(cases_source, "", "", "the cases file holds a JSON array of cases")
    parsed = tuple(
        _model(Case, case, cases_source, f"case #{n}", "case") for n, case in enumerate(cases, 1)
    )
    _check_cases(parsed, section, cases_source)
    checks = tuple(r for r in rules if isinstance(r, AnswerCheck))
    _check_aggregates(rules, checks, source)
    if any(isinstance(rule, Aggregate) for rule in rules):
        _check_labels(parsed, cases_source)
    conflict = contradictions(checks)
    if conflict:
        position, key, problem = conflict
        raise SuiteRefused(
            source, f"[[assertions]] #{rules.index(checks[position]) + 1}", key, problem
        )
    if isinstance(target, HttpTarget):
        check_references(target.body, source)
    _check_pinned(section, source)
    groups = sorted({case.group for case in parsed if case.group is not None})
    return Suite(
        tenant=section.tenant,
        environment=section.environment,
        name=section.name,
        samples=section.samples,
        agreement=_agreement(section, source),
        record_responses=section.record_responses,
        artifacts=tuple(section.artifacts),
        pinned=tuple(sorted(section.pinned)),
        target=target,
        checks=checks,
        aggregates=tuple(
            copy for rule in rules if isinstance(rule, Aggregate) for copy in rule.expanded(groups)
        ),
        cases=parsed,
    )


def _nearest(key: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _unknown(table: Mapping[str, Any], known: set[str], owner: str) -> list[str]:
    """One problem per key nothing here reads, each with the nearest known key."""
    problems = []
    for key in table:
        if key in known:
            continue
        why = _WHY_NOT.get((owner, key))
        if why:
            problems.append(f"{key}: not written in a runsite suite: {why}")
        else:
            problems.append(f"{key}: not a key of {owner}{_nearest(key, list(known))}")
    return problems


def _refuse_unknown(
    table: Mapping[str, Any], known: set[str], source: str, entry: str, owner: str
) -> None:
    problems = _unknown(table, known, owner)
    if problems:
        raise SuiteRefused(source, entry, "", "; ".join(problems))


def _keys(model: type[BaseModel]) -> set[str]:
    fields = {f.alias or name for name, f in model.model_fields.items()}
    return fields - {"type"} - getattr(model, "derived", frozenset())


def _model(
    model: type[M], value: Any, source: str, entry: str, owner: str = "", known: Any = None
) -> M:
    """``value`` as ``model``, or one refusal naming its unknown keys, then every other problem."""
    if not isinstance(value, dict):
        raise SuiteRefused(source, entry, "", "missing, or not a table of keys")
    owner = owner or entry
    problems = _unknown(value, known if known is not None else _keys(model), owner)
    given = {k: v for k, v in value.items() if not any(p.startswith(f"{k}:") for p in problems)}
    try:
        found = model.model_validate(given)
    except ValidationError as error:
        problems += [f"{where}: {what}" if where else what for where, what in every_problem(error)]
    if problems:
        raise SuiteRefused(source, entry, "", "; ".join(problems))
    return found


def _target(value: Any, source: str) -> Target:
    kind = value.get("type") if isinstance(value, dict) else None
    if kind not in TARGETS:
        raise SuiteRefused(source, "[target]", "type", f"not one of {', '.join(TARGETS)}")
    model = TARGETS[str(kind)]
    if model is ProviderTarget:
        for key, why in _PROVIDER_REFUSALS.items():
            if key in value:
                raise SuiteRefused(source, "[target]", key, why)
        return _model(model, value, source, "[target]", known=set(value))
    return _model(model, value, source, "[target]", f"a {kind} target", _keys(model) | {"type"})


_KEY = "a key never goes in a suite file: the provider's SDK reads it from its environment variable"
_PROVIDER_REFUSALS = {
    "api_key": _KEY,
    "auth_token": _KEY,
    "model": 'the model is the second half of provider = "PROVIDER/MODEL"',
    "client": "a client is a Python object, which a data file cannot give",
}


def check_references(body: dict[str, JsonValue], source: str) -> None:
    """Every ``case.`` string in the tables of an http body names a case field. Whether a case
    has the value is asked when it runs: a case without it errors, as digline has it."""
    for path, leaf in _leaves(body, "body"):
        if not (isinstance(leaf, str) and leaf.startswith("case.")):
            continue
        parts = leaf.split(".")[1:]
        if (
            not parts
            or parts[0] not in READABLE
            or (parts[0] in ("vars", "metadata")) != (len(parts) == 2)
        ):
            raise SuiteRefused(
                source, "[target]", path, "a case. reference that names no case field"
            )


def _leaves(value: JsonValue, path: str) -> list[tuple[str, JsonValue]]:
    """The values in a body's tables, by their path; an array is one value, posted as written."""
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, f"{path}.{key}")]
    return [(path, value)]


def _rule(entry: Any, source: str, where: str) -> Rule:
    known: dict[str, type[Rule]] = {**CHECKS, **AGGREGATES}
    kind = entry.get("type") if isinstance(entry, dict) else None
    if not isinstance(kind, str) or kind not in known:
        hint = _nearest(kind, list(known)) if isinstance(kind, str) else ""
        raise SuiteRefused(source, where, "type", f"not a check runsite knows{hint}")
    model = known[kind]
    keys = _keys(model) | set(ALIASES.get(kind, {})) | {"type"}
    if model is Repeated:
        inner = entry.get("inner")
        if isinstance(inner, dict) and inner.get("type") in AGGREGATES:
            raise SuiteRefused(source, f"{where}.inner", "type", "an aggregate cannot be repeated")
        if isinstance(inner, dict):
            entry = entry | {"inner": _rule(inner, source, f"{where}.inner")}
    return _model(model, entry, source, where, kind, keys)


def _agreement(section: SuiteSection, source: str) -> float | None:
    if section.samples == 1:
        return None
    if section.min_agreement is None:
        raise SuiteRefused(
            source,
            "[suite]",
            "min_agreement",
            f"mandatory once samples > 1 (here {section.samples})",
        )
    share = agreement_share(section.min_agreement, section.samples)
    if share is None:
        counts = ", ".join(f"{k}/{section.samples}" for k in range(1, section.samples + 1))
        raise SuiteRefused(
            source,
            "[suite]",
            "min_agreement",
            f"no count of {section.samples} samples gives this share; one of {counts}",
        )
    return share


def _check_aggregates(rules: Sequence[Rule], checks: Sequence[AnswerCheck], source: str) -> None:
    """Each aggregate counts exactly one per-case check, named by ``over``."""
    for n, rule in enumerate(rules, 1):
        if not isinstance(rule, Aggregate):
            continue
        where = f"[[assertions]] #{n}"
        if "[group=" in rule.label:
            raise SuiteRefused(source, where, "name", "names with [group= are made by by_group")
        matches = sum(1 for check in checks if check.label == rule.over)
        if matches != 1:
            problem = (
                "names no per-case check of this suite"
                if not matches
                else (f"names {matches} per-case checks; give the one counted a name of its own")
            )
            raise SuiteRefused(source, where, "over", problem)


def _check_labels(cases: Sequence[Case], source: str) -> None:
    """An aggregate counts a confusion matrix, so every case but a canary carries a label, a
    suspended one too (as digline has it): a case left out would make a count that looks whole."""
    for n, case in enumerate(cases, 1):
        if case.label is None and not case.canary:
            raise SuiteRefused(
                source, f"case #{n}", "label", "missing, and an aggregate of the suite counts it"
            )


def _check_cases(cases: Sequence[Case], section: SuiteSection, source: str) -> None:
    if not cases:
        raise SuiteRefused(source, "", "", "the cases file holds no case")
    seen: set[str] = set()
    for n, case in enumerate(cases, 1):
        if case.id in seen:
            raise SuiteRefused(source, f"case #{n}", "id", "the same case id appears twice")
        seen.add(case.id)
        if case.canary and case.group is not None:
            raise SuiteRefused(source, f"case #{n}", "group", "a canary is counted in no group")
        if case.canary and section.samples < 2:
            raise SuiteRefused(
                source, f"case #{n}", "canary", "a canary needs samples of at least 2 in [suite]"
            )


def _check_names(section: SuiteSection, source: str) -> None:
    """The tenant and name become folders of the archive: refused now, by the door's rules,
    rather than once the run was made and paid for."""
    for key, name in (("tenant", section.tenant), ("name", section.name)):
        problem = unfit(name)
        if problem:
            raise SuiteRefused(source, "[suite]", key, problem)


def _check_pinned(section: SuiteSection, source: str) -> None:
    for path in section.pinned:
        if path not in section.artifacts:
            raise SuiteRefused(source, "[suite]", "pinned", "names a file artifacts does not")
