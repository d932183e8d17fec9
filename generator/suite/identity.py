"""The two identities a run records about its suite's rules, stable across processes.

``assertion_id`` names one check: the first 16 hex digits of the SHA-256 of the canonical JSON
``{"name": …, "parameters": …, "type": …}``, where the parameters are everything the check
declares except its name, threshold and tolerance. So moving a limit keeps the identity (a
comparison pairs the check across the change and reports the rule that moved), while renaming
the check or changing what it looks for makes it another check.

``config_hash`` names the rules as a whole: the first 16 hex digits of the SHA-256 of the
canonical JSON ``{"min_agreement": …, "rules": [{"id", "threshold", "tolerance"}, …],
"samples": …}``, rules in declared order. Cases and the target are not rules: a new case or a
new model leaves it unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from generator.document.codec import canonical
from generator.suite.checks import Rule


def _digest(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()[:16]


def assertion_id(rule: Rule) -> str:
    """The identity of one check."""
    return _digest({"name": rule.label, "parameters": rule.parameters(), "type": rule.type})


def config_hash(rules: Sequence[Rule], samples: int, needed: int) -> str:
    """The identity of a suite's rules: its checks, their limits, and its sampling."""
    return _digest(
        {
            "min_agreement": f"{needed}/{samples}" if samples > 1 else None,
            "rules": [
                {"id": assertion_id(r), "threshold": r.threshold, "tolerance": r.tolerance}
                for r in rules
            ],
            "samples": samples,
        }
    )
