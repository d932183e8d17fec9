"""The base every part of a document is built on, and the shared non-payload parts.

Two rules of the format live here, once:

- **Absent is not empty.** An optional key holds ``None`` in memory when the document did not
  carry it, and it is left out when written. An explicit ``null`` in the input is refused for
  those keys, because it would blur "not recorded" with a value. The few keys the format writes
  as ``null`` on purpose are listed per class in ``written_null``.
- **Refusals name the key.** Validators raise ``values.refusal(key, problem)``, as the checks
  of single values there do.

Everything in this module carries numbers, names and statuses only, so both the full run and its
redacted projection build on it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Self, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic_core import CoreSchema

from generator.document.numbers import LARGEST, at_precision, meets
from generator.document.values import (
    Amount,
    Count,
    Figure,
    Identity,
    Metadata,
    Name,
    Scalar,
    Shown,
    Status,
    Timestamp,
    Unit,
    refusal,
    visible_at,
)


def _fields_of(schema: CoreSchema) -> dict[str, Any]:
    """The fields of a model's core schema, under the validators wrapped around them."""
    found: Any = schema
    while found["type"] != "model-fields":
        found = found["schema"]
    fields: dict[str, Any] = found["fields"]
    return fields


class Record(BaseModel):
    """A part of a run document: frozen, strict about JSON types, and absent-aware."""

    model_config = ConfigDict(
        frozen=True,
        strict=True,
        extra="allow",
        allow_inf_nan=False,
    )

    written_null: ClassVar[frozenset[str]] = frozenset()
    """Keys the format writes as ``null`` on purpose; every other ``None`` means absent."""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[BaseModel], handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The record's schema with "absent is not empty" built in: a key that may be left out
        (and is not in ``written_null``) takes no ``null``, so pydantic refuses one in Rust
        (``codec`` words the refusal) instead of a check in Python of each of a run's thousands
        of records."""
        schema = handler(source)
        for name, field in _fields_of(schema).items():
            held = field["schema"]
            if (
                name not in cls.written_null
                and held["type"] == "default"
                and held.get("default", ...) is None
                and held["schema"]["type"] == "nullable"
            ):
                held["schema"] = held["schema"]["schema"]
        return schema

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any] | None:
        if self is None:  # an absent record: its key's schema takes no null (see above)
            return None
        data: dict[str, Any] = handler(self)
        fields = type(self).__pydantic_fields__
        return {
            key: value
            for key, value in data.items()
            if value is not None or key not in fields or key in self.written_null
        }


class Sealed(Record):
    """A record that admits no key it does not declare: what a redacted projection is made of."""

    model_config = ConfigDict(extra="forbid")


class Usage(Sealed):
    """Token counts a model reported. Cache counts are written only when non-zero."""

    input_tokens: Count
    output_tokens: Count
    cache_read_tokens: Count | None = None
    cache_write_tokens: Count | None = None
    thinking_tokens: Count | None = None
    """Absent: the model did not report it; ``0``: it reported zero."""


class CallTotals(Sealed):
    """The bill of one side (target or judge) of a run."""

    calls: Count
    counted: Count
    """Calls that reported token counts."""
    spent_usd: Amount
    tokens: Usage | None = None
    every_call_seen: bool | None = None
    every_cost_known: bool | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.counted > self.calls:
            raise refusal("counted", "more calls counted than were made")
        if self.tokens is not None and self.counted == 0:
            raise refusal("tokens", "token counts for a side where no call reported any")
        return self


class RunUsage(Sealed):
    """What the run cost, per side. Absent from a run: not recorded, never zero."""

    target: CallTotals
    judge: CallTotals


class Calibration(Sealed):
    """A judge-calibration case: the band its check's score must land in."""

    check: Name
    assertion_id: Identity
    low: Unit
    high: Unit

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if at_precision(self.low) > at_precision(self.high):
            raise refusal("low", "the band's low end is above its high end")
        return self


class VerdictNumbers(Record):
    """What a verdict says in numbers: shared by the full and the redacted verdict.

    Validation is digline's: ``score`` is null exactly when the status is ``error``; ``pass``
    means the score meets the threshold at 6 decimals, inclusive; the sampled interval is exactly
    the smallest and largest sample (``check_verdict``).

    Scores are shares from 0 to 1, but for a verdict marked ``own_scale`` (schema 23 admits the
    key; absent, it is 0 to 1 as in digline): a measurement such as a count, seconds or tokens,
    whose score, samples and threshold are any numbers on that scale. Such a verdict passes or
    fails where a threshold was declared for it, and is otherwise ``measured``, which no other
    verdict is: recorded, and judged by nothing.
    """

    written_null: ClassVar[frozenset[str]] = frozenset({"score"})

    assertion: Name
    assertion_id: Identity
    score: Figure | None
    status: Status
    threshold: Figure
    tolerance: Amount
    metadata: Metadata
    samples: list[Figure] | None = None
    sample_min: Figure | None = None
    sample_max: Figure | None = None
    own_scale: Literal[True] | None = None
    sample_means: Literal[True] | None = None
    judged: Literal[True] | None = None
    floor_standard_errors: Annotated[float, Field(gt=0, le=LARGEST)] | None = None


def check_verdict(verdict: VerdictNumbers) -> None:
    """Refuse a verdict whose numbers disagree (see ``VerdictNumbers``). Called by the run that
    holds it, once for all its verdicts, rather than by pydantic for each."""
    score, status = verdict.score, verdict.status
    samples, low, high = verdict.samples, verdict.sample_min, verdict.sample_max
    if verdict.own_scale is None:
        _on_unit_scale(verdict)
    if score is None:
        if status != "error":
            raise refusal("score", f"null, but the status is {status!r}")
    elif status == "error":
        raise refusal("score", "a number, but the status is 'error' (which has no score)")
    elif status == "measured":
        if verdict.own_scale is None:
            raise refusal("status", "'measured' is only for a verdict on its own scale (own_scale)")
    elif (status == "pass") != meets(score, verdict.threshold):
        side = "below" if status == "pass" else "at or above"
        raise refusal("status", f"{status!r} with a score {side} the threshold")
    if samples is None and low is None and high is None:
        return
    if samples is None or low is None or high is None:
        raise refusal("samples", "samples, sample_min and sample_max come together or not at all")
    if not samples:
        raise refusal("samples", "an empty list; leave the key out when nothing was sampled")
    # Rounding keeps order, so the smallest stored sample is the smallest sample, stored.
    smallest, largest = min(samples), max(samples)
    if low != smallest and at_precision(low) != at_precision(smallest):
        raise refusal("sample_min", "not the smallest of the samples")
    if high != largest and at_precision(high) != at_precision(largest):
        raise refusal("sample_max", "not the largest of the samples")


def _on_unit_scale(verdict: VerdictNumbers) -> None:
    """Refuse a figure outside 0 to 1 on a verdict that is not on its own scale."""
    figures = [
        ("score", verdict.score),
        ("threshold", verdict.threshold),
        ("sample_min", verdict.sample_min),
        ("sample_max", verdict.sample_max),
    ]
    if verdict.samples:
        figures += [("samples", min(verdict.samples)), ("samples", max(verdict.samples))]
    for key, figure in figures:
        if figure is not None and not 0 <= figure <= 1:
            raise refusal(key, "negative" if figure < 0 else "above 1")


class RunHeader(Record):
    """What a run document says about the run itself that is never payload.

    Shared by the run and its redacted projection, and copied across by ``redact`` unchanged:
    a key belongs here only if it may appear on a published page.
    """

    written_null: ClassVar[frozenset[str]] = frozenset({"git_commit"})

    tenant: Name
    """The perimeter (a customer or project); comparisons never cross it."""
    environment: Name
    suite: Name
    config_hash: Identity
    """Identity of the rules: checks, thresholds, tolerances, samples."""
    created_at: Timestamp
    git_commit: Shown | None
    """Commit of the suite's repository, ``-dirty`` when it had changes; null outside git."""
    projected: bool
    """Names replaced by tokens (implies a redacted document)."""
    pinned: list[Name] | None = None
    digline_version: Name | None = None
    rejudged_from: Name | None = None
    """The key of the run whose recorded answers this run judged again."""
    promoted_at: Timestamp | None = None
    resumed_at: list[Timestamp] | None = None
    judge_samples: Annotated[int, Field(ge=2, le=LARGEST)] | None = None
    usage: RunUsage | None = None
    modules_unchecked: list[Name] | None = None

    @model_validator(mode="after")
    def _rejudged(self) -> Self:
        if self.judge_samples is not None and self.rejudged_from is None:
            raise refusal("judge_samples", "only a re-judged run asks its judge several times")
        return self

    @property
    def key(self) -> str:
        """The run key, as digline forms it and the archive files it."""
        return key_of(self.created_at, self.config_hash)


class ConfigParts(Record):
    """How a system (the target or the judge) was configured; ``{}`` when nothing was declared."""

    identities: list[Name] | None = None
    """Sorted ``provider/model`` labels (judge side)."""
    values: dict[Name, Scalar] | None = None
    """A flat map of scalar settings."""
    withheld: list[Name] | None = None
    """Names of settings whose values were removed at a boundary."""

    @model_validator(mode="after")
    def _visible_settings(self) -> Self:
        for key, value in (self.values or {}).items():
            if SETTINGS.get(key) is str and isinstance(value, str):
                visible_at(f"values.{key}", value)
        return self


SETTINGS: dict[str, type] = {
    "provider": str,
    "model": str,
    "resolved_model": str,
    "reasoning_effort": str,
    "temperature": float,
    "top_p": float,
    "top_k": float,
    "max_tokens": float,
    "seed": float,
    "frequency_penalty": float,
    "presence_penalty": float,
    "input_per_mtok": float,
    "output_per_mtok": float,
    "cache_read_per_mtok": float,
    "cache_write_per_mtok": float,
    "json_mode": bool,
}
"""The config settings whose values a page may show, each with its kind (a name, a number, or
true or false).

Any other setting is published by name only (``withheld``): a target's config may hold an API
key, a system prompt or a customer's deployment, and nobody has decided that those travel.
"""


PERIMETER = frozenset({"base_url", "fingerprint"})
"""Config values that locate a customer's deployment: never published."""

PRICED_WITH_PERIMETER = frozenset(
    {
        "resolved_model",
        "input_per_mtok",
        "output_per_mtok",
        "cache_read_per_mtok",
        "cache_write_per_mtok",
    }
)
"""Config values that are perimeter too when the config names a ``base_url``."""


def perimeter_keys(values: dict[str, str | int | float | bool]) -> frozenset[str]:
    """The keys of ``values`` that must not leave the perimeter."""
    keys = PERIMETER & values.keys()
    if "base_url" in values:
        keys |= PRICED_WITH_PERIMETER & values.keys()
    return frozenset(keys)


def published_settings(values: dict[str, str | int | float | bool]) -> frozenset[str]:
    """The keys of ``values`` whose values a page may show: a known setting holding a value
    of its kind (a ``temperature`` that holds text is no temperature), outside the perimeter."""
    shown = {
        key
        for key, value in values.items()
        if (kind := SETTINGS.get(key)) is not None
        and (isinstance(value, kind) if kind is not float else isinstance(value, int | float))
        and (kind is bool) == isinstance(value, bool)
    }
    return frozenset(shown - perimeter_keys(values))


def key_of(created_at: str, config_hash: str) -> str:
    """A run's key as digline forms it: ``created_at`` with every run of characters other than
    letters and digits turned into ``-``, then the rules' hash.
    ``2026-11-29T22:43:20.961326+00:00`` → ``2026-11-29T22-43-20-961326-00-00-<hash>``."""
    return f"{re.sub(r'[^A-Za-z0-9]+', '-', created_at)}-{config_hash}"


def carries_extras(value: object) -> bool:
    """Whether any record in ``value`` holds a key its model does not declare: a quick look
    before the walk that names them, which only a document with such keys needs. Only the
    fields that can hold records are looked into (metadata cannot)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, BaseModel):
            if item.__pydantic_extra__:
                return True
            fields = item.__dict__
            stack.extend(fields[name] for name in _record_fields(type(item)))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return False


@cache
def _record_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``model`` whose values can hold records."""
    return tuple(
        name
        for name, field in model.__pydantic_fields__.items()
        if _holds_records(field.annotation)
    )


def _holds_records(annotation: object) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_holds_records(argument) for argument in get_args(annotation))
