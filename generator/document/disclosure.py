"""What crosses the boundary and what stays behind: the disclosure a team declares in
``runsite.toml``, the rule by which a metadata value travels on its own merit, and the counts
of what a redaction withheld."""

from __future__ import annotations

from collections.abc import Collection

from pydantic import Field, JsonValue

from generator.document.record import Sealed
from generator.document.values import Count, Name


def travels(value: JsonValue) -> bool:
    """Whether a metadata value may cross the boundary on its own merit: numbers and booleans."""
    return isinstance(value, (bool, int, float))


_TRAVELLING = frozenset({bool, int, float})


def all_travel(values: Collection[JsonValue]) -> bool:
    """Whether every one of ``values`` ``travels``: asked of each verdict's metadata three times
    a build (redacting, checking the redacted run, listing payload), by type first, in C."""
    return _TRAVELLING.issuperset(map(type, values)) or all(map(travels, values))


class Disclosure(Sealed):
    """Named items a team releases beyond what always travels, declared in ``runsite.toml``.

    Reviewed like code; a redaction never releases more than its disclosure names, and the
    redacted run carries the disclosure so every page can say what was released.
    """

    run_metadata: list[Name] = Field(default_factory=list)
    """Keys of the run's ``metadata`` whose values are published."""
    score_metadata: list[Name] = Field(default_factory=list)
    """Keys of verdict metadata whose non-numeric values are published."""
    artifacts: list[Name] = Field(default_factory=list)
    """Paths of files under test whose text is published."""
    tool_names: bool | list[Name] = False
    """``true`` publishes every tool's name; a list publishes those names only."""

    def discloses_tool(self, name: str) -> bool:
        """Whether ``name`` may appear on a page."""
        return self.tool_names is True or (
            isinstance(self.tool_names, list) and name in self.tool_names
        )

    def releases(self, key: str, value: JsonValue) -> bool:
        """Whether verdict metadata ``key`` may be published: a number or a boolean travels on
        its own merit, anything else only when the disclosure names its key."""
        return travels(value) or key in self.score_metadata

    def meet(self, other: Disclosure) -> Disclosure:
        """What both disclosures release: redacting again never widens."""
        if self.tool_names is True:
            names = other.tool_names
        elif other.tool_names is True:
            names = self.tool_names
        else:
            names = sorted(set(self.tool_names or ()) & set(other.tool_names or ())) or False
        return Disclosure(
            run_metadata=sorted(set(self.run_metadata) & set(other.run_metadata)),
            score_metadata=sorted(set(self.score_metadata) & set(other.score_metadata)),
            artifacts=sorted(set(self.artifacts) & set(other.artifacts)),
            tool_names=names,
        )


NOTHING = Disclosure()
"""The default disclosure: nothing beyond what always travels."""


class Withheld(Sealed):
    """How much payload the redaction took out where nothing else in the redacted run says
    so: counts, never what was counted, so a page names only what its run had."""

    reasons: Count
    """Verdicts (of cases and of the whole run) that gave a reason."""
    set_aside: Count
    """Cases set aside with a reason."""
    run_metadata: Count
    """Keys of the run's metadata the disclosure does not name."""
