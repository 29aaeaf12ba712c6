"""The engine's exceptions. Expected outcomes (not found, blocked, clarify) are Answer statuses,
not exceptions; these are failures.

    EngineError
    ├── StoreError                 the knowledge store could not be read
    ├── ToolError                  a tool call was malformed (bad JSON, unknown tool, bad argument)
    └── ProviderError              the model provider failed
        ├── ProviderTimeout        no answer in time
        ├── ProviderRateLimited    the provider said 429 after our retries
        ├── ProviderUnavailable    5xx, refused connection, or a stream cut short
        └── ProviderBadResponse    an answer we cannot read
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
