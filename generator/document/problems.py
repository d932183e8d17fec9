"""A validation error in runsite's words: where each problem is, as a key path into the
document, and what is wrong, never the value (a value may be payload, and messages reach logs).
"""

from __future__ import annotations

import json
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from generator.document.keys import DECLARED, joined, step_to
from generator.document.record import Record
from generator.document.values import BEYOND_PROBLEM, REFUSAL, json_type, pattern_problem

_EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def validation_problem(
    error: ValidationError,
    name_unknown: bool = False,
    doc: Any = None,
    model: type[BaseModel] | None = None,
) -> tuple[str, str]:
    """Where the first problem is (a key path) and what it is, in our words, never the value."""
    problems = every_problem(error, name_unknown, doc, model)
    where, problem = problems[0]
    if len(problems) > 1:
        problem += f" (and {len(problems) - 1} more)"
    return where, problem


def every_problem(
    error: ValidationError,
    name_unknown: bool = False,
    doc: Any = None,
    model: type[BaseModel] | None = None,
) -> list[tuple[str, str]]:
    """Each problem, as (key path, what is wrong), unknown keys first.

    Unless ``name_unknown``, an unknown key is located at the record that holds it and never
    named: a key that is not in the schema may itself be payload, and messages reach logs. Given
    the ``doc`` that was validated, any other key the schema does not declare (of metadata, of a
    config) is named by its place (``keys``). Given the ``model``, a null where the model says
    to leave the key out is worded so.
    """

    def path(loc: tuple[int | str, ...]) -> str:
        return _path(loc) if doc is None else _document_path(loc, doc)

    found = []
    for item in error.errors(include_url=False):
        where, problem = path(item["loc"]), _problem(item)
        if item["input"] is None and model and _leave_out(model, item["loc"]):
            problem = "null; leave the key out when it was not recorded"
        kind, ctx = item["type"], item.get("ctx") or {}
        if kind == "extra_forbidden" and not name_unknown:
            where = path(item["loc"][:-1])
        elif kind == REFUSAL and ctx.get("key"):
            key = str(ctx["key"])
            where = f"{where}{key}" if key.startswith("[") or not where else f"{where}.{key}"
        elif kind.startswith("union_tag"):
            where = f"{where}.{str(ctx.get('discriminator', '')).strip(chr(39))}"
        if kind == "extra_forbidden" and not name_unknown:
            problem = "holds a key this record does not declare"
        found.append((kind != "extra_forbidden", where, problem))
    return [(where, problem) for _, where, problem in sorted(found, key=lambda f: f[0])]


def _path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for position, part in enumerate(loc):
        if isinstance(part, int):
            path += f"[{part}]"
        elif position >= 2 and loc[position - 2] == "steps" and part in ("model", "tool"):
            continue  # the union tag pydantic adds to a step's location
        elif position >= 1 and loc[position - 1] == "artifacts":
            path += f"[{json.dumps(part, ensure_ascii=False)}]"
        else:
            path += f".{part}" if path else part
    return path


def _document_path(loc: tuple[int | str, ...], doc: Any) -> str:
    """``loc`` as a key path into ``doc``; a part that is neither a key of ``doc`` nor a declared
    one (a tag pydantic adds for a union member) is left out."""
    path, node = "", doc
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
            node = node[part] if isinstance(node, list) and part < len(node) else None
        elif isinstance(node, dict) and part in node:
            path = joined(path, step_to(part, node))
            node = node[part]
        elif part in DECLARED:  # a declared key the document left out
            path, node = joined(path, part), None
    return path


def _leave_out(model: type[BaseModel], loc: tuple[int | str, ...]) -> bool:
    """Whether ``loc`` ends at a key of a record of ``model`` that is left out when absent, and
    so takes no null (``record.Record``)."""
    held: Any = model
    owner: type[BaseModel] | None = None
    for part in loc:
        owner = None
        held = _unwrapped(held)
        if isinstance(held, type) and issubclass(held, BaseModel):
            field = held.model_fields.get(str(part))
            if field is None:
                return False
            owner, held = held, field.annotation
        elif get_origin(held) is list:
            held = get_args(held)[0]
        elif get_origin(held) is dict:
            held = get_args(held)[1]
        elif get_origin(held) in (Union, UnionType):
            held = next((m for m in get_args(held) if _tagged(m, part)), None)
            if held is None:
                return False
            owner = None
        else:
            return False
    if owner is None or not issubclass(owner, Record):
        return False
    name = str(loc[-1])
    return not owner.model_fields[name].is_required() and name not in owner.written_null


def _unwrapped(annotation: Any) -> Any:
    """``annotation`` without ``Annotated`` and without ``None`` in a union."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (Union, UnionType):
        kept = [a for a in get_args(annotation) if a is not type(None)]
        if len(kept) == 1:
            return _unwrapped(kept[0])
    return annotation


def _tagged(member: Any, tag: int | str) -> bool:
    """Whether ``member`` of a discriminated union is the one pydantic names ``tag``."""
    member = _unwrapped(member)
    if not (isinstance(member, type) and issubclass(member, BaseModel)):
        return False
    return any(tag in get_args(f.annotation) for f in member.model_fields.values())


def _problem(error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in _EXPECTED:
        return f"a JSON {json_type(error['input'])}, not {_EXPECTED[kind]}"
    if kind == "missing":
        return "missing"
    if kind == "literal_error":
        if ctx.get("expected") == "True":
            return "written only as true; leave the key out otherwise"
        return f"not one of {ctx.get('expected')}"
    if kind == "union_tag_invalid":
        return f"not one of {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        return "missing"
    if kind in ("string_too_short", "too_short"):
        return "empty"
    if kind == "greater_than_equal":
        return "negative" if ctx.get("ge") == 0 else f"below {ctx.get('ge')}"
    if kind == "greater_than":
        return f"not above {ctx.get('gt')}"
    if kind == "less_than_equal":
        return f"above {ctx.get('le')}"
    if kind == "finite_number":
        return BEYOND_PROBLEM
    if kind == "extra_forbidden":
        return "not a key of this record"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    if kind == "string_pattern_mismatch":
        return pattern_problem(ctx.get("pattern", ""), error["input"])
    if kind == "string_unicode":
        return pattern_problem("", error["input"])
    return str(error["msg"])
