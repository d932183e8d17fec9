"""The two identities a run records about its suite's rules, computed as digline computes them.

``assertion_id`` names one check: the first 16 hex digits of the SHA-256 of the JSON object
``{"__type__": <digline's class name>, <field>: <value>, …}`` over every field digline's class
of the check declares (its defaults included), except its threshold, tolerance and declared
floor width (and, for a run-level check, ``by_group`` and ``group``). Values are canonical:
floats at 6 decimals, mappings with sorted keys, sets as sorted lists, a judge as its class name
in angle brackets; the JSON has sorted keys, no spaces and ASCII escapes. So moving a limit
keeps the identity (a comparison pairs the check across the change and reports what moved),
while renaming the check or changing what it looks for makes it another check. runsite's own
checks (``subsequence``, ``before``, ``never``, ``max_steps``) follow the same rule.

``config_hash`` names the rules as a whole: the same digest over the JSON array
``[checks, samples, min_agreement, aggregates]``, where checks and aggregates are sorted
``[assertion_id, threshold, tolerance]`` triples and ``min_agreement`` is the share as a
number (``null`` when the suite does not sample); the digest of a declared price is appended
when there is one, then ``{"floor_standard_errors": [[assertion_id, width], …]}`` when any
check declares a floor. Cases and the target are not rules: a new case or a new model leaves
it unchanged.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from generator.document.numbers import at_precision
from generator.suite.checks import Rule

_LIMITS = frozenset({"threshold", "tolerance", "floor_standard_errors", "by_group", "group"})
"""Fields that say how a result is judged, not what is checked: never in an identity."""


def _number(value: float) -> float:
    """A number at storage precision, an integer left one (digline rounds with ``round``)."""
    return value if isinstance(value, int) else at_precision(value)


def _canonical(value: Any) -> Any:
    if isinstance(value, float):
        return at_precision(value)
    if isinstance(value, Mapping):
        return {str(k): _canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def assertion_id(rule: Rule, instruments: Mapping[str, str]) -> str:
    """The identity of one check; ``instruments`` names each judge's class, by reference."""
    fields = rule.identity_fields(instruments)
    payload = {k: _canonical(v) for k, v in fields.items() if k not in _LIMITS}
    return _digest(payload | {"__type__": rule.identity_type})


def _limits(rule: Rule, identity: str, as_float: bool = False) -> list[Any]:
    """A rule's limits as digline enters them: an aggregate's always as floats."""
    limits = (
        (float(rule.threshold), float(rule.tolerance))
        if as_float
        else (
            rule.threshold,
            rule.tolerance,
        )
    )
    return [identity, *map(_number, limits)]


def config_hash(
    checks: Sequence[tuple[Rule, str]],
    aggregates: Sequence[tuple[Rule, str]],
    samples: int,
    agreement: float | None,
    pricing: str = "",
) -> str:
    """The identity of a suite's rules, from each rule beside its ``assertion_id``."""
    body: list[Any] = [
        sorted(_limits(rule, identity) for rule, identity in checks),
        samples,
        agreement,
        sorted(_limits(rule, identity, as_float=True) for rule, identity in aggregates),
    ]
    if pricing:
        body.append(pricing)
    widths = sorted(
        [identity, _number(width)]
        for rule, identity in checks
        if (width := getattr(rule, "floor_standard_errors", None)) is not None
    )
    if widths:
        body.append({"floor_standard_errors": widths})
    return _digest(body)


def pricing_digest(model: str, rates: Mapping[str, float | None]) -> str:
    """The identity of one declared price: the model and its per-million rates."""
    return _digest({"model": model} | {k: _canonical(v) for k, v in rates.items()})
