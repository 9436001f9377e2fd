"""The one timeout-and-retry policy for every outgoing model call (chat and embeddings),
and the process-wide concurrency limit.

Only transient failures are retried — timeouts, connection errors, 429 and 5xx — with
exponential backoff and full jitter, capped by STGY_AI_RETRY_MAX_DELAY; a Retry-After
from the server replaces the computed delay (still capped). Everything else fails at
once: repeating a 400 or an unparsable answer only spends money.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings

from .errors import LlmRequestError, LlmTransientError, ProviderError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int
    base_delay: float
    max_delay: float
    timeout: float  # seconds per attempt

    @classmethod
    def from_settings(cls) -> "RetryPolicy":
        return cls(
            max_retries=max(0, int(settings.STGY_AI_MAX_RETRIES)),
            base_delay=max(0.0, float(settings.STGY_AI_RETRY_BASE_DELAY)),
            max_delay=max(0.0, float(settings.STGY_AI_RETRY_MAX_DELAY)),
            timeout=max(0.001, settings.STGY_AI_RPC_TIMEOUT_MS / 1000.0),
        )


def backoff_delay(retry: int, policy: RetryPolicy, retry_after: float | None = None) -> float:
    """Seconds to wait before retry number `retry` (1-based)."""
    if retry_after is not None and retry_after >= 0:
        return min(retry_after, policy.max_delay)
    ceiling = min(policy.max_delay, policy.base_delay * (2 ** (retry - 1)))
    return random.uniform(0.0, ceiling)


# Per-process limit on calls in flight. Across processes the Celery worker pool
# (workers × concurrency) is what bounds the site-wide number of calls.
_slots_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    size = max(1, int(settings.STGY_AI_CONCURRENCY))
    with _slots_lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


@contextmanager
def concurrency_slot() -> Iterator[None]:
    semaphore = _semaphore()
    semaphore.acquire()
    try:
        yield
    finally:
        semaphore.release()


def call_with_retries(
    attempt: Callable[[float], T],
    *,
    policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> tuple[T, int]:
    """Run `attempt(timeout_seconds)` under the policy; return (result, attempts made).

    `attempt` raises ProviderError for a failed try. The slot is held per attempt, not
    across the backoff sleep, so a waiting retry does not block other callers.
    Raises LlmTransientError or LlmRequestError carrying the attempt count.
    """
    policy = policy or RetryPolicy.from_settings()
    attempts = 0
    while True:
        attempts += 1
        try:
            with concurrency_slot():
                return attempt(policy.timeout), attempts
        except ProviderError as exc:
            if not exc.retriable:
                raise LlmRequestError(exc.message, attempts=attempts) from exc
            if attempts > policy.max_retries:
                raise LlmTransientError(exc.message, attempts=attempts) from exc
            sleep(backoff_delay(attempts, policy, exc.retry_after))
