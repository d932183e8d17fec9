"""What a provider target sends: its prompt file and system prompt, filled in from each case's
``vars``, and the tools it declares.

A slot is ``{name}``, ``name`` an identifier, and nothing else is one: a prompt that shows a
JSON example keeps its braces as written (``str.format`` would raise on them), and the names a
template asks for are known before anything runs, so a case lacking one is refused when the
suite loads rather than erroring half way through a paid run. Values render the same way in
every process, as digline renders them: text as it is, a number or a boolean by ``str``, a list
or an object as compact JSON with sorted keys.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import JsonValue

from generator.suite.spec import Case
from generator.suite.target_spec import ToolSpec

SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def rendered(value: JsonValue) -> str:
    """One ``vars`` value as prompt text."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return str(value)


@dataclass(frozen=True)
class Template:
    """A prompt with ``{name}`` slots; ``name`` is the file it came from, or ``system``."""

    name: str
    text: str

    @property
    def slots(self) -> frozenset[str]:
        return frozenset(SLOT.findall(self.text))

    def render(self, values: Mapping[str, JsonValue]) -> str:
        """The text with every slot filled from ``values`` (which holds every slot)."""
        return SLOT.sub(lambda slot: rendered(values[slot.group(1)]), self.text)


@dataclass(frozen=True)
class Prompt:
    """A provider target's call, before a case fills it in."""

    user: Template | None
    """None where the target declares no prompt file."""
    system: Template | None = None
    tools: tuple[ToolSpec, ...] = ()

    def render(self, case: Case) -> tuple[str | None, str | None]:
        """The user message and the system prompt for ``case``."""
        system = self.system.render(case.vars) if self.system else None
        return self.user.render(case.vars) if self.user else None, system

    def unfilled(self, cases: Sequence[Case]) -> tuple[str, str, str] | None:
        """(case id, slot, template) of the first slot a measured case gives no value for."""
        for case in cases:
            if case.suspended is not None:
                continue
            for template in (self.user, self.system):
                missing = sorted(template.slots - set(case.vars)) if template else []
                if template and missing:
                    return case.id, missing[0], template.name
        return None
