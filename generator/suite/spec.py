"""A suite as data: ``suite.toml`` beside a ``cases.json``, parsed into a ``Suite``.

Every rule a suite can break is found here, when it loads, and refused with one line naming the
file, the entry and the key, so nothing runs half way before a typo surfaces. An unknown key is
always refused (with the nearest known key): a silently ignored ``treshold`` would leave a check
running on the default that passes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from generator.document.codec import validation_problem
from generator.errors import SuiteRefused
from generator.suite.agent_checks import TRAJECTORY_CHECKS, contradictions
from generator.suite.aggregates import AGGREGATES, Aggregate
from generator.suite.checks import CHECKS, Check, Rule

M = TypeVar("M", bound=BaseModel)
Name = Annotated[str, Field(min_length=1)]
Reference = Annotated[str, Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")]
"""``module.path:attribute``, relative to the suite's folder."""


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
    min_agreement: str | None = None
    """How many samples must share one outcome, as a count: ``"3/5"``."""
    record_responses: bool = False
    artifacts: list[Name] = Field(default_factory=list)
    """Files under test (a prompt), recorded with their hash and text."""


class Price(_Strict):
    """What a model charges, in USD per million tokens."""

    input_per_mtok: Annotated[float, Field(ge=0)]
    output_per_mtok: Annotated[float, Field(ge=0)]
    cache_read_per_mtok: Annotated[float, Field(ge=0)] = 0.0
    cache_write_per_mtok: Annotated[float, Field(ge=0)] = 0.0

    def cost(self, usage: Mapping[str, int]) -> float:
        """The price of one call's tokens."""
        return (
            usage.get("input_tokens", 0) * self.input_per_mtok
            + usage.get("output_tokens", 0) * self.output_per_mtok
            + usage.get("cache_read_tokens", 0) * self.cache_read_per_mtok
            + usage.get("cache_write_tokens", 0) * self.cache_write_per_mtok
        ) / 1_000_000


class FunctionTarget(_Strict):
    """A Python function in the suite's folder, called with each case as a mapping."""

    type: Literal["function"]
    function: Reference
    prices: dict[str, Price] = Field(default_factory=dict)
    """Per model: what the calls an agent hands to ``record_call`` cost."""


class HttpTarget(_Strict):
    """An application behind a URL, sent a JSON body built from each case."""

    type: Literal["http"]
    url: Annotated[str, Field(pattern=r"^https?://")]
    output_path: Name
    cost_path: Name | None = None
    latency_from_response: Name | None = None
    config_path: Name | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    timeout: Annotated[float, Field(gt=0)] = 30.0
    body: dict[str, JsonValue]


class Case(_Strict):
    """One case of ``cases.json``; ``suspended`` holds the reason it is set aside."""

    id: Name
    vars: dict[str, JsonValue] = Field(default_factory=dict)
    expected: JsonValue = None
    label: str | None = None
    group: str | None = None
    context: JsonValue = None
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    suspended: Name | None = None

    def as_mapping(self) -> dict[str, Any]:
        """The case as its target and judges receive it: the keys the file gave."""
        return self.model_dump(mode="json", exclude_unset=True, exclude={"suspended"})


CASE_FIELDS = frozenset(Case.model_fields) - {"suspended"}


@dataclass(frozen=True)
class Suite:
    """A suite that loaded: every rule checked, ready to run."""

    tenant: str
    environment: str
    name: str
    samples: int
    needed: int
    """Samples that must share one outcome (1 when the suite does not sample)."""
    min_agreement: str | None
    record_responses: bool
    artifacts: tuple[str, ...]
    target: FunctionTarget | HttpTarget
    checks: tuple[Check, ...]
    aggregates: tuple[Aggregate, ...]
    cases: tuple[Case, ...]


def parse_suite(
    doc: Mapping[str, Any], cases: Sequence[Any], source: str, cases_source: str
) -> Suite:
    """The suite ``doc`` (parsed TOML) declares, over ``cases`` (parsed JSON), or a refusal."""
    _known_keys(doc, {"suite", "target", "assertions"}, source, "")
    section = _model(SuiteSection, doc.get("suite"), source, "[suite]")
    target = _target(doc.get("target"), source)
    entries = doc.get("assertions")
    if not isinstance(entries, list) or not entries:
        raise SuiteRefused(source, "[[assertions]]", "", "a suite declares at least one check")
    rules = [_rule(entry, source, f"[[assertions]] #{n}") for n, entry in enumerate(entries, 1)]
    checks = tuple(r for r in rules if isinstance(r, Check))
    aggregates = tuple(r for r in rules if isinstance(r, Aggregate))
    if not isinstance(cases, list):
        raise SuiteRefused(
            cases_source, "", "", "the cases file holds a JSON array of case objects"
        )
    parsed = tuple(
        _model(Case, case, cases_source, f"case #{n}") for n, case in enumerate(cases, 1)
    )
    needed = _needed(section, source)
    _check_names(rules, source)
    conflict = contradictions(checks)
    if conflict:
        position, key, problem = conflict
        raise SuiteRefused(
            source, f"[[assertions]] #{rules.index(checks[position]) + 1}", key, problem
        )
    _check_cases(parsed, aggregates, cases_source)
    if isinstance(target, HttpTarget):
        _check_references(target.body, parsed, source)
    return Suite(
        tenant=section.tenant,
        environment=section.environment,
        name=section.name,
        samples=section.samples,
        needed=needed,
        min_agreement=section.min_agreement,
        record_responses=section.record_responses,
        artifacts=tuple(section.artifacts),
        target=target,
        checks=checks,
        aggregates=aggregates,
        cases=parsed,
    )


def _known_keys(table: Mapping[str, Any], known: set[str], source: str, entry: str) -> None:
    for key in table:
        if key not in known:
            raise SuiteRefused(source, entry, key, f"not a key here{_nearest(key, known)}")


def _nearest(key: str, known: set[str] | frozenset[str]) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _model(model: type[M], value: Any, source: str, entry: str) -> M:
    if not isinstance(value, dict):
        raise SuiteRefused(source, entry, "", "missing, or not a table of keys")
    try:
        return model.model_validate(value)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        if first["type"] == "extra_forbidden":
            key = str(first["loc"][-1])
            known = {f.alias or name for name, f in model.model_fields.items()}
            raise SuiteRefused(
                source, entry, key, f"not a key of {_kind(value, entry)}{_nearest(key, known)}"
            ) from None
        where, problem = validation_problem(error)
        raise SuiteRefused(source, entry, where, problem) from None


def _kind(value: Mapping[str, Any], entry: str) -> str:
    return str(value["type"]) if "type" in value else entry


def _target(value: Any, source: str) -> FunctionTarget | HttpTarget:
    kinds: dict[str, type[FunctionTarget | HttpTarget]] = {
        "function": FunctionTarget,
        "http": HttpTarget,
    }
    kind = value.get("type") if isinstance(value, dict) else None
    if kind not in kinds:
        raise SuiteRefused(source, "[target]", "type", f"not one of {', '.join(kinds)}")
    return _model(kinds[str(kind)], value, source, "[target]")


def _rule(entry: Any, source: str, where: str) -> Rule:
    known: dict[str, type[Rule]] = {**CHECKS, **TRAJECTORY_CHECKS, **AGGREGATES}
    kind = entry.get("type") if isinstance(entry, dict) else None
    if not isinstance(kind, str) or kind not in known:
        hint = _nearest(kind, set(known)) if isinstance(kind, str) else ""
        raise SuiteRefused(source, where, "type", f"not a check runsite knows{hint}")
    return _model(known[kind], entry, source, where)


def _needed(section: SuiteSection, source: str) -> int:
    if section.samples == 1:
        return 1
    if section.min_agreement is None:
        raise SuiteRefused(
            source,
            "[suite]",
            "min_agreement",
            f"mandatory once samples > 1 (here {section.samples})",
        )
    match = re.fullmatch(r"(\d+)/([1-9]\d*)", section.min_agreement)
    counts = [f"{k}/{section.samples}" for k in range(1, section.samples + 1)]
    if match:
        top, bottom = int(match[1]), int(match[2])
        needed, rest = divmod(top * section.samples, bottom)
        if rest == 0 and 1 <= needed <= section.samples:
            return needed
    raise SuiteRefused(
        source,
        "[suite]",
        "min_agreement",
        f"no count of {section.samples} samples gives this share; one of {', '.join(counts)}",
    )


def _check_names(rules: Sequence[Rule], source: str) -> None:
    seen: dict[str, int] = {}
    for n, rule in enumerate(rules, 1):
        if rule.label in seen:
            raise SuiteRefused(
                source,
                f"[[assertions]] #{n}",
                "name",
                f"{rule.label!r} already names check #{seen[rule.label]}; give one a name",
            )
        seen[rule.label] = n
    per_case = {rule.label for rule in rules if isinstance(rule, Check)}
    for n, rule in enumerate(rules, 1):
        if isinstance(rule, Aggregate) and rule.over not in per_case:
            raise SuiteRefused(
                source, f"[[assertions]] #{n}", "over", "names no per-case check of this suite"
            )


def _check_cases(cases: Sequence[Case], aggregates: Sequence[Aggregate], source: str) -> None:
    seen: set[str] = set()
    for n, case in enumerate(cases, 1):
        if case.id in seen:
            raise SuiteRefused(source, f"case #{n}", "id", "the same case id appears twice")
        seen.add(case.id)
        if aggregates and case.label is not None and case.label not in ("positive", "negative"):
            raise SuiteRefused(source, f"case #{n}", "label", "not one of positive, negative")
    if not cases:
        raise SuiteRefused(source, "", "", "the cases file holds no case")


def _check_references(body: dict[str, JsonValue], cases: Sequence[Case], source: str) -> None:
    """Every ``case.`` leaf of an http body names a field each measured case has."""
    for path, leaf in _leaves(body, "body"):
        if not (isinstance(leaf, str) and leaf.startswith("case.")):
            continue
        parts = leaf.split(".")[1:]
        if (
            not parts
            or parts[0] not in CASE_FIELDS
            or (parts[0] in ("vars", "metadata")) != (len(parts) == 2)
        ):
            raise SuiteRefused(
                source, "[target]", path, "a case. reference that names no case field"
            )
        for case in cases:
            if case.suspended is None and read_reference(case, parts) is _MISSING:
                raise SuiteRefused(
                    source, "[target]", path, f"the case {case.id!r} has no such field"
                )


_MISSING = object()


def read_reference(case: Case, parts: Sequence[str]) -> Any:
    """The value a ``case.`` reference names in ``case``, or ``_MISSING``."""
    value: Any = case.as_mapping()
    for part in parts:
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


def _leaves(value: JsonValue, path: str) -> list[tuple[str, JsonValue]]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [leaf for n, item in enumerate(value) for leaf in _leaves(item, f"{path}[{n}]")]
    return [(path, value)]
