"""The gateway's error vocabulary. Callers catch `LlmError`; the HTTP proxy maps the
subclasses to status codes (501 disabled, 429 budget, 503 model down or too slow,
500 anything else)."""

from __future__ import annotations


class LlmError(Exception):
    """Any failure of an LLM or embedding call. `attempts` = provider calls made."""

    def __init__(self, message: str, *, attempts: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.attempts = attempts


class LlmDisabled(LlmError):
    """STGY_AI_PROVIDER is `none`: AI features are off."""

    def __init__(self, message: str = "ai features are disabled", **kwargs) -> None:
        super().__init__(message, **kwargs)


class BudgetExceeded(LlmError):
    """A daily token budget (site or user) is used up; the call was not made."""


class LlmTransientError(LlmError):
    """Timeouts, connection errors, 429 and 5xx that outlasted every retry."""


class LlmDeadlineExceeded(LlmTransientError):
    """The caller's time limit for the whole call (a web request's) ran out first."""


class LlmUnavailable(LlmError):
    """The circuit breaker is open: the model failed repeatedly, so the call was refused
    without reaching it (attempts == 0) or stopped between retries."""

    def __init__(self, message: str = "ai service is unavailable", **kwargs) -> None:
        super().__init__(message, **kwargs)


class LlmRequestError(LlmError):
    """A failure retrying cannot fix: 4xx other than 429, a malformed answer, blank content."""


class ProviderError(Exception):
    """Raised by a provider for one failed attempt; the retry helper decides what follows.

    `retriable` is true only for timeouts, connection errors, 429 and 5xx.
    `retry_after` is the server's Retry-After in seconds, when it sent one.
    """

    def __init__(self, message: str, *, retriable: bool, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retriable = retriable
        self.status = status
        self.retry_after = retry_after
