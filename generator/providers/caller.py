"""A provider target: one call per sample, the case's prompt filled in, the reply read into the
answer the checks judge and the response the run records.

The half of a provider target that has nothing to do with the provider, as digline splits it:
the provider supplies ``complete`` and the configuration it sends; the filling-in, the timing,
the price and the trajectory are here, once. A reply's trajectory is one model step (with how
the turn ended) and one tool step per tool it asked for, whose outcome is ``not_reported``: the
tool runs after the reply, in the application, and nobody reported it. A reply that asked for
no tool says the model called none (``[]``), which is a fact the API reported.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from generator.document.numbers import at_precision
from generator.providers.completion import CallFailed, Complete, Completion, Unreadable
from generator.suite.checks import Answer
from generator.suite.collect import ModelCall, ToolCallRecord
from generator.suite.prompt import Prompt
from generator.suite.spec import Case
from generator.suite.target_spec import Price
from generator.suite.targets import Reply
from generator.suite.trajectory import from_calls

PRICE_KEYS = ("input_per_mtok", "output_per_mtok", "cache_read_per_mtok", "cache_write_per_mtok")


def priced(price: Price | None, usage: dict[str, int] | None) -> tuple[float | None, str | None]:
    """What a call cost at the declared price, or None and why it is unknown (never 0)."""
    if price is None:
        return None, "no price is declared for this model: [target.pricing] is absent"
    if usage is None:
        return None, "the API reported no token usage to price"
    cost = price.cost(usage)
    if cost is None:
        return None, "the call used cached tokens, and [target.pricing] declares no rate for them"
    return at_precision(cost), None


def declared(provider: str, model: str, price: Price | None, **sent: Any) -> dict[str, Any]:
    """The configuration a provider target records: what it sends (unset values left out), and
    the price it declares."""
    rates = price.model_dump() if price else {}
    values = {"provider": provider, "model": model, **sent, **rates}
    return {key: value for key, value in values.items() if value is not None}


class ModelCaller:
    """Calls the model once per sample of a case, through ``complete``."""

    def __init__(
        self, complete: Complete, prompt: Prompt, price: Price | None, config: dict[str, Any]
    ) -> None:
        if prompt.user is None:
            raise ValueError("it sends prompt_file as the user message, and none is declared")
        self.user = prompt.user
        self.complete = complete
        self.prompt = prompt
        self.price = price
        self.config = config
        """What the target sends; every answer adds the model the API said answered."""

    def __call__(self, case: Case) -> Reply:
        user = self.user.render(case.vars)
        system = self.prompt.system.render(case.vars) if self.prompt.system else None
        started = time.perf_counter()
        try:
            completion = self.complete(system, user, self.prompt.tools)
        except (CallFailed, Unreadable) as error:
            kind: Literal["raised", "shape"] = (
                "raised" if isinstance(error, CallFailed) else "shape"
            )
            latency = (time.perf_counter() - started) * 1000
            return Reply(None, latency, user, config=self.config, error=str(error), error_kind=kind)
        latency = (time.perf_counter() - started) * 1000
        return self._reply(completion, user, latency)

    def _reply(self, completion: Completion, user: str, latency: float) -> Reply:
        requested = tuple(
            ToolCallRecord(r.tool) if r.arguments is None else ToolCallRecord(r.tool, r.arguments)
            for r in completion.tool_calls
        )
        call = ModelCall(completion.finish, requested, completion.usage, latency, completion.model)
        cost, unpriced = priced(self.price, completion.usage)
        answer = Answer(
            completion.text,
            "text",
            cost_usd=cost,
            latency_ms=latency,
            trajectory=from_calls([call]),
            unpriced=unpriced,
            input=user,
        )
        answered = {"resolved_model": completion.model} if completion.model else {}
        return Reply(answer, latency, user, completion.usage, self.config | answered)
