"""The checks that read an answer's text: equal to, containing, starting or ending with,
matching, JSON (of a schema), of a length, within an edit distance of what the case expects."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

import jsonschema
from pydantic import Field, JsonValue, model_validator

from generator.document.json_text import TooDeep, json_value
from generator.document.numbers import at_precision
from generator.suite.checks import (
    ALL_KINDS,
    Answer,
    AnswerCheck,
    Judge,
    Judgement,
    Needle,
    Unit,
    text_of,
)


def _folded(text: str, needle: str, case_sensitive: bool) -> tuple[str, str]:
    return (text, needle) if case_sensitive else (text.casefold(), needle.casefold())


class Equals(AnswerCheck):
    """The output is exactly the case's ``expected``, on the same kind of output."""

    kind = "equals"
    identity_type = "Equals"
    default_accepts = ALL_KINDS
    type: Literal["equals"]

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        expected = case.get("expected")
        if expected is None:
            return Judgement.error("the case has no expected value to compare with")
        if isinstance(expected, str) != (answer.kind == "text"):
            return Judgement.error("the output and the expected value are of different kinds")
        same = answer.output == expected
        return Judgement.of(same, "identical to expected" if same else "differs from expected")


class Contains(AnswerCheck):
    """The output contains ``needle``."""

    kind = "contains"
    identity_type = "Contains"
    negated: ClassVar[bool] = False
    type: Literal["contains"]
    needle: Needle
    case_sensitive: bool = True

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text, needle = _folded(text_of(answer), self.needle, self.case_sensitive)
        found = needle in text
        return Judgement.of(
            found != self.negated,
            "the needle is in the output" if found else "the needle is absent",
        )


class NotContains(Contains):
    """The output does not contain ``needle``."""

    kind = "not_contains"
    identity_type = "NotContains"
    negated = True
    type: Literal["not_contains"]  # type: ignore[assignment]


class Affix(AnswerCheck):
    """The output starts (``at = "start"``) or ends (``at = "end"``) with ``affix``."""

    kind = "affix"
    identity_type = "Affix"
    type: Literal["affix"]
    affix: Needle
    at: Literal["start", "end"] = "start"
    case_sensitive: bool = True

    @property
    def label(self) -> str:
        return self.name or ("starts_with" if self.at == "start" else "ends_with")

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text, affix = _folded(text_of(answer), self.affix, self.case_sensitive)
        found = text.startswith(affix) if self.at == "start" else text.endswith(affix)
        return Judgement.of(found, f"the affix is {'' if found else 'not '}at the {self.at}")


class Regex(AnswerCheck):
    """The output matches ``pattern`` somewhere (``re.search``)."""

    kind = "regex"
    identity_type = "Regex"
    type: Literal["regex"]
    pattern: Needle

    @model_validator(mode="after")
    def _compiles(self) -> Regex:
        try:
            re.compile(self.pattern)
        except re.error as error:
            raise ValueError(f"pattern: not a regular expression ({error.msg})") from None
        return self

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        found = re.search(self.pattern, text_of(answer)) is not None
        return Judgement.of(found, "the pattern matches" if found else "the pattern does not match")


class IsJson(AnswerCheck):
    """The text output decodes as JSON (of the given top-level kind); undecodable text fails."""

    kind = "is_json"
    identity_type = "IsJson"
    type: Literal["is_json"]
    top_level: Literal["any", "object", "array"] = "any"

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        try:
            value = json_value(text_of(answer))
        except TooDeep as error:
            return Judgement.error(f"the output is JSON {error}, which runsite does not read")
        except ValueError:
            return Judgement.of(False, "the output is not JSON", json_kind="invalid")
        found = (
            "object"
            if isinstance(value, dict)
            else "array"
            if isinstance(value, list)
            else "scalar"
        )
        passed = self.top_level in ("any", found)
        return Judgement.of(passed, f"the output is JSON of kind {found}", json_kind=found)


def check_schema(schema: Mapping[str, Any], key: str) -> None:
    """``ValueError`` naming ``key`` when ``schema`` is not a valid JSON Schema."""
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        raise ValueError(f"{key}: not a valid JSON Schema ({error.message})") from None


class JsonSchema(AnswerCheck):
    """The output is JSON that a JSON Schema accepts; text that is not JSON is an error."""

    kind = "json_schema"
    identity_type = "JsonSchema"
    default_accepts = frozenset({"text", "structured"})
    type: Literal["json_schema"]
    schema_: dict[str, JsonValue] = Field(alias="schema")

    @model_validator(mode="after")
    def _valid_schema(self) -> JsonSchema:
        check_schema(self.schema_, "schema")
        return self

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        value = answer.output
        if answer.kind == "text":
            try:
                value = json_value(text_of(answer))
            except TooDeep as error:
                return Judgement.error(f"the output is JSON {error}, which runsite does not read")
            except ValueError:
                return Judgement.error("the output is not decodable as JSON")
        errors = list(jsonschema.Draft202012Validator(self.schema_).iter_errors(value))
        return Judgement.of(not errors, f"{len(errors)} schema violations")


class Length(AnswerCheck):
    """The output's length lies within ``minimum`` and ``maximum`` (characters or words)."""

    kind = "length"
    identity_type = "Length"
    type: Literal["length"]
    minimum: Annotated[int, Field(ge=0)] | None = None
    maximum: Annotated[int, Field(ge=0)] | None = None
    unit: Literal["characters", "words"] = "characters"

    @model_validator(mode="after")
    def _bounded(self) -> Length:
        if self.minimum is None and self.maximum is None:
            raise ValueError("minimum: a length check needs minimum, maximum or both")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError("minimum: above maximum")
        return self

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        text = text_of(answer)
        length = len(text.split()) if self.unit == "words" else len(text)
        passed = (self.minimum is None or length >= self.minimum) and (
            self.maximum is None or length <= self.maximum
        )
        bounds = {
            k: v for k, v in (("minimum", self.minimum), ("maximum", self.maximum)) if v is not None
        }
        return Judgement.of(
            passed, f"{length} {self.unit}", length=length, unit=self.unit, **bounds
        )


def edit_distance(a: str, b: str) -> int:
    """Insertions, deletions and substitutions that turn ``a`` into ``b``."""
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i]
        for j, right in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (left != right))
            )
        previous = current
    return previous[-1]


class Levenshtein(AnswerCheck):
    """How close the output is to the case's ``expected``: 1 − distance / the longer length."""

    kind = "levenshtein"
    identity_type = "Levenshtein"
    type: Literal["levenshtein"]
    threshold: Unit = 0.9

    def read(
        self, answer: Answer, case: Mapping[str, Any], judges: Mapping[str, Judge]
    ) -> Judgement:
        expected = case.get("expected")
        if expected is None:
            return Judgement.error("the case has no expected value to compare with")
        if not isinstance(expected, str):
            return Judgement.error("the expected value is not text")
        text = text_of(answer)
        longest = max(len(text), len(expected))
        if longest == 0:
            return Judgement(1.0, "both empty", {"distance": 0, "length": 0})
        distance = edit_distance(text, expected)
        return Judgement(
            at_precision(1.0 - distance / longest),
            f"{distance} edits over {longest} characters",
            {"distance": distance, "length": longest},
        )
