"""The JSON Schema of a document's models, each field described by its docstring.

The models do not read their fields' docstrings when they are made: pydantic's
``use_attribute_docstrings`` parses the source of every class, a tenth of a second at each start
of runsite, for the one command that shows them. That command's schema finds them here instead.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON Schema, as pydantic writes it, with each field's docstring."""
    return model.model_json_schema(schema_generator=_Described)


class _Described(GenerateJsonSchema):
    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        written = super().model_schema(schema)
        docs = _field_docstrings(schema["cls"])
        for name, field in written.get("properties", {}).items():
            if name in docs:
                field.setdefault("description", docs[name])
        return written


def _field_docstrings(cls: type) -> dict[str, str]:
    """The docstring under each annotated attribute of ``cls`` and of the classes it inherits
    from (its own first), cleaned as ``inspect.cleandoc`` cleans one."""
    found: dict[str, str] = {}
    for base in reversed(cls.__mro__):
        if issubclass(base, BaseModel) and base is not BaseModel:
            found.update(_own_docstrings(base))
    return found


def _own_docstrings(cls: type) -> dict[str, str]:
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    found = {}
    for before, after in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(before, ast.AnnAssign)
            and isinstance(before.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[before.target.id] = inspect.cleandoc(after.value.value)
    return found
