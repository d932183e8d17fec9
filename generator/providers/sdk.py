"""What the two SDK providers share: the settings that go to the client, one call with the
SDK's failures turned into sentences, and the provider object that builds targets and judges.

Both SDKs are generated alike: a client with ``base_url``, ``timeout`` and ``max_retries`` (it
retries a 429 or a 5xx with backoff, honouring the API's ``retry-after``), and the same
exceptions for a timeout, a connection refused and an HTTP error it gave up on. A provider
module says only what differs: how the client is built, how the request is written, how the
reply is read.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.document.problems import every_problem
from generator.providers.caller import ModelCaller, declared
from generator.providers.completion import CallFailed, Completion, Unreadable
from generator.providers.judging import DEFAULT_MAX_TOKENS, ClaimJudge, ScoreJudge
from generator.suite.http_target import host_of
from generator.suite.prompt import Prompt
from generator.suite.target_spec import Price, ToolSpec


class ClientSettings(BaseModel):
    """The settings of a provider target that go to the SDK's client rather than the model:
    where the API is, and the SDK's own timeout (seconds per attempt) and retries (with backoff
    on 429 and 5xx). Unset, the SDK's defaults hold."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    base_url: Annotated[str, Field(pattern=r"^https?://[^/\s]")] | None = None
    timeout: Annotated[float, Field(gt=0)] | None = None
    max_retries: Annotated[int, Field(ge=0)] | None = None

    def options(self) -> dict[str, Any]:
        """The keyword arguments of the SDK's client."""
        given = {
            "base_url": self.base_url,
            "timeout": self.timeout,
            "max_retries": self.max_retries,
        }
        return {key: value for key, value in given.items() if value is not None}


def settings_of(
    model: type[BaseModel], values: Mapping[str, Any], why_not: Mapping[str, str]
) -> Any:
    """The target's settings as ``model`` declares them; ``ValueError`` naming every key the
    provider does not take (with why, where there is a reason) or every value it refuses."""
    unknown = sorted(set(values) - set(model.model_fields))
    if unknown:
        reasons = dict.fromkeys(why_not[key] for key in unknown if key in why_not)
        raise ValueError(f"it takes no {', '.join(unknown)}{''.join(f': {r}' for r in reasons)}")
    try:
        return model.model_validate(dict(values))
    except ValidationError as error:
        raise ValueError("; ".join(f"{k}: {p}" for k, p in every_problem(error))) from None


def refused(status: int, body: Any, retries: int) -> CallFailed:
    """An HTTP error the SDK gave up on: the status, the retries it made where it retries that
    status (a rate limit, a server error), and the API's own message where it gave one."""
    detail = body.get("error", body) if isinstance(body, dict) else None
    message = detail.get("message") if isinstance(detail, dict) else None
    retried = status in (408, 409, 429) or status >= 500
    return CallFailed(
        f"the API answered HTTP {status}"
        + (f" after {retries} retries" if retried else "")
        + (f": {message}" if isinstance(message, str) and message else "")
    )


class SdkCall(ABC):
    """One call through an SDK's client, as the target and the judges make it."""

    official: ClassVar[str]
    """The host of the maker's own endpoint."""

    def __init__(self, model: str, settings: ClientSettings, sampling: Mapping[str, Any]) -> None:
        self.client = self.connect(settings)
        self.settings = settings
        host = host_of(str(self.client.base_url))
        self.host = host if host != self.official else None
        """Where the API is, when it is not the maker's own endpoint."""
        self.request: dict[str, Any] = {"model": model}
        self.request |= {k: v for k, v in self.sent(sampling).items() if v is not None}

    @abstractmethod
    def connect(self, settings: ClientSettings) -> Any:
        """The SDK's client; ``ValueError`` when the SDK or its key is missing."""

    def sent(self, sampling: Mapping[str, Any]) -> Mapping[str, Any]:
        """The sampling settings as the API names them."""
        return sampling

    @abstractmethod
    def __call__(self, system: str | None, user: str, tools: tuple[ToolSpec, ...]) -> Completion:
        """One call: the system prompt (or None), the user message, the tools offered."""

    def ask(self, sdk: Any, create: Callable[[], Any]) -> dict[str, Any]:
        """The JSON body of the reply ``create`` gets through ``sdk``, or why there is none."""
        try:
            reply = create()
        except sdk.APITimeoutError:
            late = f"{self.settings.timeout:g} s" if self.settings.timeout else "the SDK's timeout"
            raise CallFailed(f"the API did not answer within {late}") from None
        except sdk.APIConnectionError:
            where = self.host or self.official
            raise CallFailed(f"the API could not be reached at {where}") from None
        except sdk.APIStatusError as error:
            raise refused(error.status_code, error.body, self.client.max_retries) from None
        except ValueError:
            raise Unreadable("the API's reply is not JSON") from None
        if not isinstance(reply, BaseModel):
            raise Unreadable("the API's reply is not a JSON object")
        return reply.model_dump(mode="json")


class SdkProvider:
    """A provider whose calls go through one SDK: its target and its two judges."""

    name: ClassVar[str]
    settings: ClassVar[type[ClientSettings]]
    """What its target takes: the client's settings and its sampling settings."""
    why_not: ClassVar[Mapping[str, str]] = {}
    """Why it refuses a setting other APIs take."""
    call: ClassVar[type[SdkCall]]
    judges: ClassVar[tuple[type[ScoreJudge], type[ClaimJudge]]]

    def target(
        self, *, model: str, prompt: Prompt, settings: Mapping[str, Any], pricing: Price | None
    ) -> ModelCaller:
        chosen = settings_of(self.settings, settings, self.why_not)
        sampling = chosen.model_dump(exclude=set(ClientSettings.model_fields))
        call = self.call(model, chosen, sampling)
        config = declared(self.name, model, pricing, base_url=call.host, **sampling)
        return ModelCaller(call, prompt, pricing, config)

    def judge(self, *, model: str, pricing: Price | None) -> ScoreJudge:
        return self.judges[0](*self._judging(model, pricing))

    def claim_judge(self, *, model: str, pricing: Price | None) -> ClaimJudge:
        return self.judges[1](*self._judging(model, pricing))

    def _judging(
        self, model: str, pricing: Price | None
    ) -> tuple[SdkCall, Price | None, dict[str, Any]]:
        """A judge grades with the provider's defaults, at the endpoint its SDK finds: a
        coordinate names the instrument, never its settings."""
        call = self.call(model, ClientSettings(), {"max_tokens": DEFAULT_MAX_TOKENS})
        config = declared(self.name, model, None, base_url=call.host, max_tokens=DEFAULT_MAX_TOKENS)
        return call, pricing, config
