"""The run document at schema 23: one JSON file per run of a suite, in digline's format.

Keys follow ``reference/digline-format.md`` §a; schema 23 adds the recorded trajectory (see
``trajectory``). Unknown keys are kept (``extra="allow"``) so a document survives the archive
intact, and the codec warns about them by name; the redacted projection is built by allow-list,
so none of them can reach a page.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, Self

from pydantic import AfterValidator, model_validator

from generator.document.record import (
    Calibration,
    ConfigParts,
    Record,
    RunHeader,
    VerdictNumbers,
    check_verdict,
    perimeter_keys,
)
from generator.document.trajectory import RecordedResponse, check_response
from generator.document.values import Metadata, Name, Shown, check_at, check_each, refusal

SCHEMA = 23
"""The schema runsite writes."""


class Verdict(VerdictNumbers):
    """One check's judgement of one case (or, in ``aggregate``, of the whole run)."""

    reason: str | None = None
    """A sentence for a person, which may quote the output: payload."""


class CaseResult(Record):
    """Everything measured on one case: a verdict per check, and the recorded answers."""

    case_id: Name
    suspended: bool
    suspended_reason: str | None = None
    verdicts: list[Verdict]
    responses: list[RecordedResponse] | None = None
    """One per sample, only when the suite records responses; never in a baseline."""
    canary: Literal[True] | None = None
    calibration: Calibration | None = None
    error_kind: Literal["raised", "shape"] | None = None


def _check_case(case: CaseResult) -> None:
    """Refuse a suspended case that was measured, or a measured one with a suspension reason;
    then each verdict and response of the case."""
    if case.suspended:
        if case.verdicts:
            raise refusal("verdicts", "a suspended case was not measured, so it has no verdict")
        if case.responses:
            raise refusal("responses", "a suspended case was not measured, so it has no answer")
    elif case.suspended_reason is not None:
        raise refusal("suspended_reason", "a reason for a case that is not suspended")
    check_each("verdicts", case.verdicts, check_verdict)
    check_each("responses", case.responses or (), check_response)


def _sha256(value: str) -> str:
    if not re.fullmatch(r"[0-9a-f]{64}", value):
        raise ValueError("not a SHA-256 digest in lowercase hexadecimal")
    return value


class Artifact(Record):
    """A file under test: its hash and text, or ``{"withheld": true}`` past a boundary."""

    sha: Annotated[str, AfterValidator(_sha256)] | None = None
    text: str | None = None
    withheld: Literal[True] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Self:
        if self.withheld:
            if self.sha is not None or self.text is not None:
                raise refusal("withheld", "a withheld artifact carries no sha and no text")
        elif self.sha is None or self.text is None:
            raise refusal("sha" if self.sha is None else "text", "missing")
        return self


class SystemConfig(ConfigParts):
    """How the target or the judge was configured."""


class Run(RunHeader):
    """A run document. Pure data: reading, writing and migrating live in ``codec``.

    Its parts are checked here, in one pass over the run, rather than each by pydantic: a run
    holds thousands of records, and a call into Python for each was most of a read."""

    schema_version: Literal[23]
    redacted: bool
    metadata: Metadata
    results: list[CaseResult]
    aggregate: list[Verdict]
    artifacts: dict[Shown, Artifact]
    target_config: SystemConfig
    judge_config: SystemConfig

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.projected and not self.redacted:
            raise refusal("projected", "a projected document is redacted too")
        seen: set[str] = set()
        for position, case in enumerate(self.results):
            check_at(f"results[{position}]", _check_case, case)
            if case.case_id in seen:
                raise refusal(f"results[{position}].case_id", "the same case id appears twice")
            seen.add(case.case_id)
        check_each("aggregate", self.aggregate, check_verdict)
        for side in ("target_config", "judge_config"):
            self._check_config(side, getattr(self, side))
        if self.redacted:
            self._check_nothing_leaks()
        return self

    def _check_config(self, side: str, config: SystemConfig) -> None:
        if config.values is None or self.projected:
            return
        for key in ("provider", "model"):
            if key not in config.values:
                raise refusal(f"{side}.values.{key}", "missing (a declared config names both)")

    def _check_nothing_leaks(self) -> None:
        """A document that says it is redacted must carry no payload."""
        for c, case in enumerate(self.results):
            if case.suspended_reason is not None:
                raise refusal(f"results[{c}].suspended_reason", "present in a redacted document")
            for v, verdict in enumerate(case.verdicts):
                if verdict.reason is not None:
                    raise refusal(
                        f"results[{c}].verdicts[{v}].reason", "present in a redacted document"
                    )
            for r, response in enumerate(case.responses or ()):
                if not response.withheld:
                    raise refusal(
                        f"results[{c}].responses[{r}]", "not withheld in a redacted document"
                    )
        for a, verdict in enumerate(self.aggregate):
            if verdict.reason is not None:
                raise refusal(f"aggregate[{a}].reason", "present in a redacted document")
        for side in ("target_config", "judge_config"):
            values = getattr(self, side).values or {}
            for key in sorted(perimeter_keys(values)):
                raise refusal(f"{side}.values.{key}", "a perimeter value in a redacted document")
