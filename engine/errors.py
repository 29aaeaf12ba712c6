"""The engine's failures. Expected outcomes (not found, blocked, clarify) are Answer statuses,
not exceptions; these are failures.

    EngineError
    ├── StoreError                 the knowledge store could not be read
    ├── ToolError                  a tool call was malformed (bad JSON, unknown tool, bad argument)
    └── ProviderError              the model provider failed
        ├── ProviderTimeout        no answer in time
        ├── ProviderRateLimited    the provider said 429 after our retries
        ├── ProviderUnavailable    5xx, refused connection, or a stream cut short
        └── ProviderBadResponse    an answer we cannot read

A failure while answering does not escape `Engine.answer` or `Engine.stream`: the answer ends
with status error, an error event, and `Answer.failure` set to the failure's class (its name
in `Answer.reason`, which is what gets stored). Besides its own tree, the engine reports a
provider's or store's TimeoutError and ConnectionError that were not wrapped, as they are.
Callers map these classes to what the failure means to them (askapp: an HTTP status).
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every failure the engine raises."""


class StoreError(EngineError):
    pass


class ToolError(EngineError):
    pass


class ProviderError(EngineError):
    pass


class ProviderTimeout(ProviderError):
    pass


class ProviderRateLimited(ProviderError):
    pass


class ProviderUnavailable(ProviderError):
    pass


class ProviderBadResponse(ProviderError):
    pass


Failure = type[Exception]
# What ends an answer with status error instead of escaping the engine.
ANSWERED_FAILURES: tuple[Failure, ...] = (EngineError, TimeoutError, ConnectionError)


def failure_classes() -> list[Failure]:
    """Every class an Answer's `failure` can be: the engine's own tree (as defined in the
    engine's modules) and the two foreign failures it reports unwrapped."""
    found: list[Failure] = []
    waiting: list[Failure] = [EngineError]
    while waiting:
        cls = waiting.pop(0)
        if cls.__module__.split(".")[0] == "engine" and cls not in found:
            found.append(cls)
            waiting.extend(cls.__subclasses__())
    return [*found, TimeoutError, ConnectionError]


def failure_named(name: str) -> Failure | None:
    """The failure class a stored reason names (an Answer read back from storage)."""
    return next((cls for cls in failure_classes() if cls.__name__ == name), None)
