"""Hypothesis strategies for documents and names anyone could hand runsite: a valid run with a
few of its values swapped for hostile ones (names of every Unicode class, numbers past any
range, timestamps of any year, wrong types, deep nesting), keys dropped or added, an older
schema declared, or bytes cut and corrupted."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st

from tests._helpers import a_planted_run, a_run

Path = tuple[str | int, ...]

hidden = st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Zs", "Co", "Mn"])
"""Characters of the classes a name may not hold, and of those at the edge of what it may."""

names = st.one_of(
    st.text(min_size=0, max_size=12),
    st.text(hidden, min_size=1, max_size=4).flatmap(
        lambda inserted: st.sampled_from(["support", "acme", "case-1"]).map(
            lambda name: name[:3] + inserted + name[3:]
        )
    ),
    st.sampled_from(
        [".", "..", ".hidden", "a/b", "a\\b", "x" * 300, "é" * 200, " ", "-", "~", "CON", "<b>"]
    ),
)
"""A tenant, suite, environment, case id or check name: any text, a familiar name with hidden
characters inside, or a name that is no folder name."""

timestamps = st.one_of(
    st.datetimes(timezones=st.timezones()).map(lambda moment: moment.isoformat()),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-14:00",
            "1969-12-31T23:59:59+00:00",
            "2026-11-29T22:43:20",
            "2026-13-01T00:00:00+00:00",
            "yesterday",
        ]
    ),
)

numbers = st.one_of(
    st.integers(),
    st.integers(min_value=2**53 - 2, max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([-0.0, 1e308, 5e-324, 10**400]),
)

scalars = st.one_of(st.none(), st.booleans(), numbers, names, timestamps)

values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)),
    max_leaves=8,
)


def _paths(value: Any, at: Path = ()) -> list[Path]:
    """Every key path into ``value``, containers and leaves alike."""
    found = [at] if at else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


def _parent(doc: Any, path: Path) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """A valid run with one to four of its parts replaced, dropped, added to or re-declared."""
    doc: dict[str, Any] = draw(st.sampled_from([a_run, a_planted_run]))()
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        parent = _parent(doc, path)
        action = draw(st.sampled_from(["replace", "replace", "name", "drop", "add", "schema"]))
        if action == "replace":
            parent[path[-1]] = draw(values)
        elif action == "name" and isinstance(parent, dict):
            parent[path[-1]] = draw(names)
        elif action == "drop":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(names)] = draw(values)
        elif action == "schema":
            doc["schema_version"] = draw(st.integers(0, 25))
    return doc


def text_of(doc: Any) -> bytes:
    """``doc`` as JSON text, as any writer might (NaN and Infinity included)."""
    return json.dumps(doc, ensure_ascii=True).encode()


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    """The bytes of a document: a mutated run, now and then cut short or corrupted."""
    data = text_of(draw(mutated()))
    damage = draw(st.sampled_from(["none", "none", "none", "cut", "byte"]))
    if damage == "cut":
        return data[: draw(st.integers(0, len(data)))]
    if damage == "byte":
        at = draw(st.integers(0, len(data) - 1))
        return data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    return data


visible_names = st.text(
    st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), min_size=1, max_size=30
)
"""Names of every script, punctuation and symbol (markup, slashes, dots): the door lets through
those that every file system keeps and that mix no scripts (``archive.names``)."""


@st.composite
def named_runs(draw: st.DrawFn, drawn: st.SearchStrategy[str] = names) -> dict[str, Any]:
    """A valid run whose tenant, suite, environment, a case id and a check name are drawn."""
    doc = a_run()
    for key in ("tenant", "suite", "environment"):
        doc[key] = draw(drawn)
    doc["results"][0]["case_id"] = draw(drawn)
    doc["results"][1]["verdicts"][0]["assertion"] = draw(drawn)
    return doc


moments = st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(9999, 12, 30)).map(
    lambda moment: moment.replace(tzinfo=UTC).isoformat()
)
"""A time any run may have been measured at: each gives the run a key of its own."""


@st.composite
def arriving(draw: st.DrawFn) -> bytes:
    """A document handed to ``import``: hostile names or values, each at a moment of its own,
    so that most take a place in the archive, now and then damaged."""
    doc = draw(st.one_of(named_runs(visible_names), named_runs(), mutated()))
    if isinstance(doc, dict) and draw(st.integers(0, 9)):
        doc["created_at"] = draw(moments)
    return text_of(doc)
