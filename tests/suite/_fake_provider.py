"""A provider for tests, registered as ``fake`` in the entry-point group ``runsite.providers``
by the ``fake_provider`` fixture. It stands in for the one digline's corpus runs were judged
by: every rubric scores 1.0, every output makes one claim and the context supports it. Its
classes bear that provider's names, which enter a judged check's identity."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from generator.suite.checks import Answer
from generator.suite.prompt import Prompt
from generator.suite.target_spec import Price
from generator.suite.targets import Reply


class FakeJudge:
    def __init__(self, model: str) -> None:
        self.model = model

    def __call__(self, *, rubric: str, output: Any, case: Mapping[str, Any]) -> dict[str, Any]:
        return {"score": 1.0, "reason": f"{self.model} read {len(str(output))}"}


class FakeClaimJudge:
    def __init__(self, model: str) -> None:
        self.model = model

    def __call__(self, *, output: Any, context: Any, case: Mapping[str, Any]) -> dict[str, Any]:
        return {"supported": 1, "total": 1, "reason": f"{self.model}: 1 of 1"}


class _Provider:
    def judge(self, *, model: str, pricing: Price | None) -> FakeJudge:
        return FakeJudge(model)

    def claim_judge(self, *, model: str, pricing: Price | None) -> FakeClaimJudge:
        return FakeClaimJudge(model)

    def target(
        self, *, model: str, prompt: Prompt, settings: Mapping[str, Any], pricing: Price | None
    ) -> Callable[[Any], Reply]:
        if set(settings) - {"temperature"}:
            raise ValueError(f"it takes no {', '.join(sorted(set(settings) - {'temperature'}))}")

        def call(case: Any) -> Reply:
            text = f"{model} answers {prompt.render(case)[0]}"
            config = {"provider": "fake", "model": model, **settings}
            return Reply(Answer(text, "text", latency_ms=1.0), 1.0, config=config)

        return call


provider = _Provider()


def install(folder: Path) -> None:
    """Write the metadata that registers this provider into ``folder``, to put on the path."""
    found = folder / "fake_provider-0.dist-info"
    found.mkdir(parents=True, exist_ok=True)
    (found / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-provider\nVersion: 0\n")
    (found / "entry_points.txt").write_text(
        "[runsite.providers]\nfake = tests.suite._fake_provider:provider\n"
    )
