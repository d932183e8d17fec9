"""Providers: what a ``PROVIDER/MODEL`` coordinate resolves through.

A suite names a model as digline does, ``judge = "anthropic/claude-haiku-4-5"`` or a
``[target]`` with ``type = "provider"`` and ``provider = "openai/gpt-4.1-mini"``. The part
before the first slash names a provider; runsite looks it up among the objects installed in the
entry-point group ``runsite.providers`` (one entry point per provider name, loaded only when a
suite names it), so a package adds a provider without touching runsite. runsite registers its
own two there, ``openai`` and ``anthropic`` (``generator.providers``), whose SDKs are the
extras ``runsite[openai]`` and ``runsite[anthropic]``.

A provider is any object with these three factories, each taking its arguments by keyword:

- ``judge(model=..., pricing=...)`` returns a judge for ``llm_rubric``: called with ``rubric``,
  ``output`` and ``case``, it returns a score in [0, 1] or a mapping with ``score`` and
  ``reason``;
- ``claim_judge(model=..., pricing=...)`` returns a judge for ``faithfulness``: called with
  ``output``, ``context`` and ``case``, it returns a mapping with ``supported``, ``total`` and
  ``reason``;
- ``target(model=..., prompt=..., settings=..., pricing=...)`` returns the caller of a provider
  target: called with a case, it returns a ``generator.suite.targets.Reply`` (whose ``config`` is
  recorded as the run's ``target_config``). ``prompt`` is the ``generator.suite.prompt.Prompt``
  the loader read (the prompt file, the system prompt, the tools), ``settings`` holds the
  target's other keys, for the provider to take or refuse.

``pricing`` is the ``Price`` the suite declares under ``[target.pricing]`` (for a judge: when it
names the target's own model), or None: a cost with no declared price is unknown, never 0.

A judge's mapping may also carry ``usage`` (its call's token counts) and ``cost_usd`` (what the
call cost, where known), which the run's bill counts on the judge's line apart from the
target's, and ``error``: the reason its reply could not be read, which makes the check an
error, never a fail. A factory that raises ``ValueError`` or ``TypeError`` refuses the suite
with its message. A judge's class name enters its check's identity (digline's rule), and a judge
with a ``config`` mapping (``provider``, ``model``, …) has it recorded in ``judge_config``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any, Protocol

from generator.errors import SuiteRefused
from generator.suite.prompt import Prompt
from generator.suite.target_spec import Price

GROUP = "runsite.providers"
SHIPPED = ("openai", "anthropic")
"""runsite's own providers; each one's SDK is installed by the extra of the same name."""


class Provider(Protocol):
    """What a provider installed under ``runsite.providers`` offers."""

    def judge(self, *, model: str, pricing: Price | None) -> Callable[..., Any]: ...

    def claim_judge(self, *, model: str, pricing: Price | None) -> Callable[..., Any]: ...

    def target(
        self, *, model: str, prompt: Prompt, settings: Mapping[str, Any], pricing: Price | None
    ) -> Callable[..., Any]: ...


def installed() -> list[str]:
    """The provider names installed, sorted."""
    return sorted({point.name for point in entry_points(group=GROUP)})


def split(coordinate: str) -> tuple[str, str]:
    """``provider/model`` as its two halves (a model may itself contain slashes)."""
    provider, _, model = coordinate.partition("/")
    return provider, model


def provider(name: str, source: str, entry: str, key: str) -> Provider:
    """The installed provider ``name``, or a refusal naming what is installed."""
    found = [point for point in entry_points(group=GROUP) if point.name == name]
    if not found:
        names = ", ".join(installed()) or "none"
        raise SuiteRefused(
            source,
            entry,
            key,
            f"no provider {name!r} is installed (installed: {names}); runsite's own are "
            f"{_extras()}, and another comes from a package that registers it in the "
            f"entry-point group {GROUP}",
        )
    try:
        loaded: Provider = found[0].load()
    except Exception as error:
        raise SuiteRefused(
            source,
            entry,
            key,
            f"the provider {name!r} could not be loaded ({type(error).__name__})",
        ) from None
    return loaded


def _extras() -> str:
    return " and ".join(f"{name} (pip install 'runsite[{name}]')" for name in SHIPPED)
