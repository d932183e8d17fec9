"""The payload of a run: every string of the full document that no published page may show.

The site is redacted by construction (its pages are built from ``RedactedRun`` only); this module
says what the "checked anyway" half seeks. After rendering, the leak guard (``generator.guard``)
searches every output for these strings, and a hit refuses the output, naming the file and the
field. The rules, and why each is there:

- **What is payload** follows the redaction boundary in DESIGN.md, field by field: outputs,
  inputs, verdict reasons (case and aggregate), suspended reasons, tool arguments and results
  (in ``tool_calls`` and in ``steps``), tool names, artifact text, run metadata (keys and
  values), string values of verdict metadata at any depth, and every config value that is not
  published (``record.published_settings``: perimeter values, settings runsite does not know).
- **Unknown keys** (``model_extra``, at any level) are payload whole: ``redact`` builds by
  allow-list and nobody has decided that they travel.
- **A disclosed item is not payload**: the disclosure is the one declared way to publish it.
- **JSON text is payload in its parts too**: arguments, results and structured outputs are JSON
  text, and a page that rendered one would show its strings, not the text. A text nested deeper
  than a run document may be (``json_text.MAX_DEPTH``) is not walked, which its depth could make overflow
  Python's stack: its string literals are found in the text instead.
- **At least 8 characters, surrounding whitespace trimmed**: a shorter string ("yes", "refund")
  turns up on pages by chance, and a renderer trims what surrounds a value.
- **Nothing the redacted run shows**: a payload string found inside a string (or number) of
  ``redact(run, disclosure)``, in any case, is on the page legitimately (a case id equal to an
  output), so it is subtracted; it would only ever fail the build for nothing.

A field is a key path into the full document (``results[2].responses[0].steps[3].call.result``).
Build logs may be public, so a path names only the keys the schema declares: any other key (of
metadata, of JSON text, unknown to runsite) is named by its place (``metadata.#2``, see
``keys``), and the key itself is reported as ``metadata.#2 (key)``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator

import jiter
from pydantic import BaseModel, JsonValue
from pydantic_core import PydanticSerializationError

from generator.document.disclosure import Disclosure, all_travel
from generator.document.json_text import TooDeep, json_value, string_literals
from generator.document.keys import steps
from generator.document.model import CaseResult, Run, Verdict
from generator.document.record import carries_extras, published_settings
from generator.document.redact import redact
from generator.document.redacted import RedactedRun
from generator.document.trajectory import RecordedResponse, ToolCall, ToolStep

MINIMUM = 8
"""The shortest string that counts: shorter ones occur on pages by chance."""

Found = Iterator[tuple[str, str]]
"""Pairs of (field, string), in document order."""


def payload_strings(
    run: Run, disclosure: Disclosure, redacted: RedactedRun | None = None
) -> dict[str, str]:
    """Every payload string of ``run`` under ``disclosure``, mapped to the first field holding it.

    ``redacted`` is ``redact(run, disclosure)`` where the caller has it already.
    """
    shown = _Shown(redacted if redacted is not None else redact(run, disclosure))
    return {
        string: field
        for string, field in payload_candidates(run, disclosure).items()
        if not shown.holds(string)
    }


def unshown(strings: Iterable[str], redacted: RedactedRun) -> set[str]:
    """Those of ``strings`` (a run's ``payload_texts``) that its redaction does not show: the
    strings of ``payload_strings``, without their fields, in half the time."""
    shown = _Shown(redacted)
    return {string for string in strings if not shown.holds(string)}


def payload_candidates(run: Run, disclosure: Disclosure) -> dict[str, str]:
    """``payload_strings`` before what the redacted run shows is taken out, each string with
    its field."""
    found: dict[str, str] = {}
    for field, string in _payload(run, disclosure):
        trimmed = string.strip()
        if len(trimmed) >= MINIMUM and trimmed not in found:
            found[trimmed] = field
    return found


def payload_texts(run: Run, disclosure: Disclosure, undeclared: bool) -> set[str]:
    """The strings of ``payload_candidates`` without their fields, for a build's sieve, which
    holds every run's: the same walk written flat, in a fraction of the time (a test holds the
    two together). The texts of a run's tool calls (which its steps repeat) and its tool names
    are gathered in sets, so a JSON text is parsed, and a name's disclosure asked, once however
    often it recurs. ``undeclared`` says whether the run holds keys the schema does not declare
    (its reading knows: ``Reading.unknown``)."""
    texts: list[str] = []
    answers: set[str] = set()
    """Outputs, inputs, arguments and results: texts that may be JSON, whose strings count too."""
    tools: set[str] = set()
    """Tool names, whether disclosed or not: a run names a handful, hundreds of times."""
    answer = answers.add

    def called(call: ToolCall) -> None:
        if call.tool is not None:
            tools.add(call.tool)
        if call.arguments is not None:
            answer(call.arguments)
        if call.result is not None:
            answer(call.result)

    for case in run.results:
        if case.suspended_reason is not None:
            texts.append(case.suspended_reason)
        for verdict in case.verdicts:
            _verdict_texts(verdict, disclosure, texts)
        for response in case.responses or ():
            if response.output is not None:
                answer(response.output)
            if response.input is not None:
                answer(response.input)
            for call in response.tool_calls or ():
                called(call)
            for step in response.steps or ():
                if isinstance(step, ToolStep):
                    called(step.call)
            tools.update(name for name in response.tools or () if name is not None)
    texts += (name for name in tools if not disclosure.discloses_tool(name))
    for verdict in run.aggregate:
        _verdict_texts(verdict, disclosure, texts)
    _json_texts({k: v for k, v in run.metadata.items() if k not in disclosure.run_metadata}, texts)
    for path, artifact in run.artifacts.items():
        if artifact.text is not None and path not in disclosure.artifacts:
            texts.append(artifact.text)
    for config in (run.target_config, run.judge_config):
        values = config.values or {}
        shown = published_settings(values)
        texts += (v for k, v in values.items() if k not in shown and isinstance(v, str))
    if undeclared:
        texts += (string for _, string in _unknown(run, ""))
    for text in answers:
        texts.append(text)
        value = _json_in(text)
        if isinstance(value, _Deep):
            texts += string_literals(text)
        elif value is not None:
            _json_texts(value, texts)
    return {trimmed for text in texts if len(trimmed := text.strip()) >= MINIMUM}


def _verdict_texts(verdict: Verdict, disclosure: Disclosure, texts: list[str]) -> None:
    if verdict.reason is not None:
        texts.append(verdict.reason)
    metadata = verdict.metadata
    if metadata and not all_travel(metadata.values()):
        _json_texts([v for k, v in metadata.items() if not disclosure.releases(k, v)], texts)


def _json_texts(value: JsonValue, texts: list[str]) -> None:
    """Every string in a JSON value, object keys included, at any depth."""
    if isinstance(value, str):
        texts.append(value)
    elif isinstance(value, list):
        for item in value:
            _json_texts(item, texts)
    elif isinstance(value, dict):
        texts.extend(value)
        for item in value.values():
            _json_texts(item, texts)


class _Shown:
    """Every string and number of a redacted run (as JSON writes it), keys included, with case
    folded: the build's scan folds case, so a string shown in any case is shown."""

    def __init__(self, redacted: BaseModel) -> None:
        parts: list[str] = []
        _walk(_as_json(redacted), parts)
        self._parts = [part.casefold() for part in parts]
        self._joined = "\0".join(self._parts)
        self._longest = max(map(len, self._parts), default=0)

    def holds(self, string: str) -> bool:
        """Whether ``string`` is part of something shown (NUL joins the parts, so a string
        without one cannot match across two)."""
        folded = string.casefold()
        if len(folded) > self._longest:
            return False
        if "\0" in folded:
            return any(folded in part for part in self._parts)
        return folded in self._joined


def _as_json(model: BaseModel) -> JsonValue:
    """``model`` as JSON values: parsed back from pydantic's JSON, in a third of the time
    ``model_dump(mode="json")`` takes, which still serves a model holding a string with a lone
    surrogate (JSON cannot write one, and a document may hold one)."""
    try:
        value: JsonValue = jiter.from_json(model.model_dump_json().encode())
    except PydanticSerializationError:
        value = model.model_dump(mode="json")
    return value


def _walk(value: JsonValue, parts: list[str]) -> None:
    if isinstance(value, str):
        parts.append(value)
    elif isinstance(value, dict):
        parts.extend(value)
        for item in value.values():
            _walk(item, parts)
    elif isinstance(value, list):
        for item in value:
            _walk(item, parts)
    elif value is None:
        pass
    elif isinstance(value, bool):
        parts.append("true" if value else "false")
    elif isinstance(value, int) or math.isfinite(value):
        parts.append(repr(value))  # what json.dumps writes, without its 2 µs a number
    else:
        parts.append(json.dumps(value))


def _payload(run: Run, disclosure: Disclosure) -> Found:
    for c, case in enumerate(run.results):
        yield from _case(case, f"results[{c}]", disclosure)
    for a, verdict in enumerate(run.aggregate):
        yield from _verdict(verdict, f"aggregate[{a}]", disclosure)
    for key, step in steps(run.metadata):
        if key not in disclosure.run_metadata:
            yield from _entry(f"metadata.{step}", key, run.metadata[key])
    for path, step in steps(run.artifacts):
        text = run.artifacts[path].text
        if text is not None and path not in disclosure.artifacts:
            yield f"artifacts.{step}.text", text
    for side in ("target_config", "judge_config"):
        values = getattr(run, side).values or {}
        shown = published_settings(values)
        for key, step in steps(values):
            if key not in shown and isinstance(values[key], str):
                yield f"{side}.values.{step}", values[key]
    if carries_extras(run):
        for field, string in _unknown(run, ""):
            yield field.removeprefix("."), string


def _case(case: CaseResult, at: str, disclosure: Disclosure) -> Found:
    if case.suspended_reason is not None:
        yield f"{at}.suspended_reason", case.suspended_reason
    for v, verdict in enumerate(case.verdicts):
        yield from _verdict(verdict, f"{at}.verdicts[{v}]", disclosure)
    for r, response in enumerate(case.responses or ()):
        yield from _response(response, f"{at}.responses[{r}]", disclosure)


def _verdict(verdict: Verdict, at: str, disclosure: Disclosure) -> Found:
    if verdict.reason is not None:
        yield f"{at}.reason", verdict.reason
    for key, step in steps(verdict.metadata):
        if not disclosure.releases(key, verdict.metadata[key]):
            yield from _json(verdict.metadata[key], f"{at}.metadata.{step}")


def _response(response: RecordedResponse, at: str, disclosure: Disclosure) -> Found:
    for key in ("output", "input"):
        text = getattr(response, key)
        if text is not None:
            yield from _text(text, f"{at}.{key}")
    for k, call in enumerate(response.tool_calls or ()):
        yield from _call(call, f"{at}.tool_calls[{k}]", disclosure)
    for k, name in enumerate(response.tools or ()):
        if name is not None and not disclosure.discloses_tool(name):
            yield f"{at}.tools[{k}]", name
    for s, step in enumerate(response.steps or ()):
        if isinstance(step, ToolStep):
            yield from _call(step.call, f"{at}.steps[{s}].call", disclosure)


def _call(call: ToolCall, at: str, disclosure: Disclosure) -> Found:
    if call.tool is not None and not disclosure.discloses_tool(call.tool):
        yield f"{at}.tool", call.tool
    for key in ("arguments", "result"):
        text = getattr(call, key)
        if text is not None:
            yield from _text(text, f"{at}.{key}")


def _text(text: str, at: str) -> Found:
    """A payload text, and its strings too when it is JSON text."""
    yield at, text
    value = _json_in(text)
    if isinstance(value, _Deep):
        yield from ((at, literal) for literal in string_literals(text))
    elif value is not None:
        yield from _json(value, at)


class _Deep:
    """Stands for JSON text nested deeper than ``MAX_DEPTH``."""


def _json_in(text: str) -> JsonValue | _Deep | None:
    """The object or array ``text`` is the JSON of; ``_Deep`` where it nests past
    ``MAX_DEPTH`` (or past what the parser reaches), None where it is no such JSON."""
    if text.lstrip()[:1] not in ("{", "["):
        return None
    try:
        value: JsonValue = json_value(text)
    except TooDeep:
        return _Deep()
    except ValueError:
        return None
    return value


def _json(value: JsonValue, at: str) -> Found:
    """Every string in a JSON value, object keys included, at any depth."""
    if isinstance(value, str):
        yield at, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _json(item, f"{at}[{i}]")
    elif isinstance(value, dict):
        for key, step in steps(value):
            yield from _entry(f"{at}.{step}", key, value[key])


def _entry(at: str, key: str, value: JsonValue) -> Found:
    """An object's key (at ``at``) and its value, both payload."""
    yield f"{at} (key)", key
    yield from _json(value, at)


def _unknown(record: BaseModel, at: str) -> Found:
    """Every string under a key the model does not declare, in ``record`` and below."""
    extra = record.model_extra or {}
    for key, step in steps(extra):
        yield from _json(extra[key], f"{at}.{step}")
    for name in type(record).__pydantic_fields__:
        value = getattr(record, name)
        if isinstance(value, BaseModel | list | dict):
            yield from _records_in(value, f"{at}.{name}")


def _records_in(value: BaseModel | list[object] | dict[str, object], at: str) -> Found:
    if isinstance(value, BaseModel):
        yield from _unknown(value, at)
        return
    items = (
        ((f"{at}.{step}", value[key]) for key, step in steps(value))
        if isinstance(value, dict)
        else ((f"{at}[{i}]", item) for i, item in enumerate(value))
    )
    for where, item in items:
        if isinstance(item, BaseModel | list | dict):
            yield from _records_in(item, where)
