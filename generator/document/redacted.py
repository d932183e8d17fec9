"""The redacted run: what may leave the perimeter, as a type of its own.

Everything a page, a report or a reading is built from is a ``RedactedRun``. Its records are
sealed (an undeclared key is refused), and the run checks its own contents against the
disclosure it was made under, so a redacted document read back from disk that carries a payload
field is refused as well: redacted by construction, and checked anyway.

What it keeps: ids, names of suites and checks, case ids, scores, thresholds, tolerances,
samples and intervals, statuses, counts, token counts, costs, latencies, timestamps, commits,
schema, config identities and non-perimeter values, and the skeleton of each recorded
trajectory (step index, actor, a model step's finish, a tool step's status). Tool names appear
only where the disclosure names them; otherwise a tool reads ``tool #N``, numbered by first
appearance within its run.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Self

from pydantic import ConfigDict, model_validator

from generator.document.disclosure import Disclosure, Withheld, all_travel, travels
from generator.document.keys import steps
from generator.document.record import (
    Calibration,
    ConfigParts,
    RunHeader,
    Sealed,
    Usage,
    VerdictNumbers,
    check_verdict,
    perimeter_keys,
    published_settings,
)
from generator.document.values import (
    Amount,
    Count,
    Metadata,
    Name,
    Shown,
    ToolStatus,
    check_each,
    refusal,
)

_NUMBERED_TOOL = re.compile(r"tool #[1-9][0-9]*")


class RedactedVerdict(VerdictNumbers):
    """A verdict without its reason; metadata holds numbers and disclosed keys only."""

    model_config = ConfigDict(extra="forbid")


class RedactedStep(Sealed):
    """One step of a trajectory's skeleton."""

    index: Count
    actor: Literal["model", "tool"]
    finish: Name | None = None
    """A model step's finish reason, where one was reported."""
    tool: Name | None = None
    """A tool step's tool: its name where disclosed, else ``tool #N``; absent when unnamed."""
    status: ToolStatus | None = None
    """A tool step's outcome."""

    def model_post_init(self, context: Any, /) -> None:
        """Checked as each step is made, and only then: ``redact`` makes each distinct step of
        a run once and shares it, and an after-validator would run again for each of the run's
        750 steps as the redacted run takes them in."""
        if self.actor == "model":
            if self.tool is not None or self.status is not None:
                raise refusal("actor", "a model step carries no tool and no status")
        elif self.finish is not None or self.status is None:
            raise refusal("status", "a tool step carries a status and no finish")


class RedactedCall(Sealed):
    """A tool call reduced to which tool (as a label) and whether it succeeded."""

    tool: Name | None = None
    status: ToolStatus


class RedactedResponse(Sealed):
    """A recorded answer with the answer taken out: its numbers and its trajectory's skeleton."""

    oversize: Literal[True] | None = None
    kind: Literal["text", "structured", "conversation"] | None = None
    cost_usd: Amount | None = None
    latency_ms: Amount | None = None
    usage: Usage | None = None
    finish: Name | None = None
    tools: list[Name | None] | None = None
    tool_calls: list[RedactedCall] | None = None
    steps: list[RedactedStep] | None = None


class RedactedCase(Sealed):
    """A case's verdicts and the skeletons of its answers."""

    case_id: Name
    suspended: bool
    verdicts: list[RedactedVerdict]
    responses: list[RedactedResponse] | None = None
    canary: Literal[True] | None = None
    calibration: Calibration | None = None
    error_kind: Literal["raised", "shape"] | None = None

    def tool_labels(self) -> list[str]:
        """Every tool label in the case, in reading order (steps, calls, then names)."""
        labels: list[str] = []
        for response in self.responses or ():
            labels += [step.tool for step in response.steps or () if step.tool]
            labels += [call.tool for call in response.tool_calls or () if call.tool]
            labels += [name for name in response.tools or () if name is not None]
        return labels


class RedactedArtifact(Sealed):
    """A file under test: withheld, or (when disclosed) its hash and text."""

    withheld: Literal[True] | None = None
    sha: Name | None = None
    text: str | None = None


class RedactedConfig(ConfigParts):
    """A system's configuration without its perimeter values."""

    model_config = ConfigDict(extra="forbid")


class RedactedRun(RunHeader):
    """A run as it may be published."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[23]
    disclosure: Disclosure
    metadata: Metadata
    results: list[RedactedCase]
    aggregate: list[RedactedVerdict]
    artifacts: dict[Shown, RedactedArtifact]
    target_config: RedactedConfig
    judge_config: RedactedConfig
    withheld: Withheld | None = None
    """What was taken out; absent from a redacted document written before it was counted."""

    def released(self) -> Disclosure:
        """What of its disclosure this run holds: the names a disclosure gives are of items any
        run may hold, and a page says what this one released (run annotations it has, check
        details one of its verdicts gives as text, files whose text it carries, tools it
        called)."""
        shown = self.disclosure
        verdicts = [*(v for case in self.results for v in case.verdicts), *self.aggregate]
        details = {k for v in verdicts for k, value in v.metadata.items() if not travels(value)}
        labels = {label for case in self.results for label in case.tool_labels()}
        names: bool | list[str] = bool(labels)
        if shown.tool_names is not True:
            names = [name for name in shown.tool_names or () if name in labels] or False
        return Disclosure(
            run_metadata=[key for key in shown.run_metadata if key in self.metadata],
            score_metadata=[key for key in shown.score_metadata if key in details],
            artifacts=[
                path
                for path in shown.artifacts
                if path in self.artifacts and self.artifacts[path].text is not None
            ],
            tool_names=names,
        )

    @model_validator(mode="after")
    def _nothing_undisclosed(self) -> Self:
        shown = self.disclosure
        for key, step in steps(self.metadata):
            if key not in shown.run_metadata:
                raise refusal(f"metadata.{step}", "run metadata that the disclosure does not name")
        for path, step in steps(self.artifacts):
            if self.artifacts[path].text is not None and path not in shown.artifacts:
                raise refusal(f"artifacts.{step}.text", "text the disclosure does not name")
        for side in ("target_config", "judge_config"):
            values = getattr(self, side).values or {}
            for key in sorted(perimeter_keys(values)):
                raise refusal(f"{side}.values.{key}", "a perimeter value, which never travels")
            published = published_settings(values)
            for key, step in steps(values):
                if key not in published:
                    raise refusal(
                        f"{side}.values.{step}", "a setting whose value is never published"
                    )
        check_each("aggregate", self.aggregate, self._check_verdict)
        check_each("results", self.results, self._check_case)
        return self

    def _check_case(self, case: RedactedCase) -> None:
        check_each("verdicts", case.verdicts, self._check_verdict)
        for label in set(case.tool_labels()):
            if not _NUMBERED_TOOL.fullmatch(label) and not self.disclosure.discloses_tool(label):
                raise refusal("responses", "a tool name the disclosure does not name")

    def _check_verdict(self, verdict: RedactedVerdict) -> None:
        """Refuse a verdict whose numbers disagree, or whose metadata the disclosure keeps."""
        check_verdict(verdict)
        metadata = verdict.metadata
        if metadata and not all_travel(metadata.values()):
            for key, step in steps(metadata):
                if not self.disclosure.releases(key, metadata[key]):
                    raise refusal(f"metadata.{step}", "a value that is not a number")
