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
from dataclasses import dataclass, replace
from typing import TypeVar

from django.conf import settings

from .breaker import (
    BreakerRead,
    breaker_admit,
    breaker_checked,
    breaker_failure,
    breaker_is_open,
    breaker_release,
    breaker_success,
)
from .deadline import current_call_time_limit
from .errors import (
    LlmDeadlineExceeded,
    LlmError,
    LlmRequestError,
    LlmTransientError,
    LlmUnavailable,
    ProviderError,
)

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int
    base_delay: float
    max_delay: float
    timeout: float  # seconds per attempt
    deadline: float | None = None  # seconds for the whole call; None = no bound

    @classmethod
    def from_settings(cls) -> RetryPolicy:
        """The configured policy: every call within STGY_AI_CALL_DEADLINE_MS, and within
        the caller's time limit if it set a shorter one (a web request's)."""
        limits = [s for s in (call_deadline(), current_call_time_limit()) if s is not None]
        deadline = min(limits) if limits else None
        timeout = max(0.001, settings.STGY_AI_RPC_TIMEOUT_MS / 1000.0)
        return cls(
            max_retries=max(0, int(settings.STGY_AI_MAX_RETRIES)),
            base_delay=max(0.0, float(settings.STGY_AI_RETRY_BASE_DELAY)),
            max_delay=max(0.0, float(settings.STGY_AI_RETRY_MAX_DELAY)),
            timeout=timeout if deadline is None else min(timeout, deadline),
            deadline=deadline,
        )


def call_deadline() -> float | None:
    """STGY_AI_CALL_DEADLINE_MS in seconds: how long one model call — attempts, backoff,
    the wait for a slot — may hold whoever makes it, a Celery worker above all; None
    (0) for no bound."""
    ms = settings.STGY_AI_CALL_DEADLINE_MS
    return ms / 1000.0 if ms and ms > 0 else None


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
def concurrency_slot(timeout: float | None = None) -> Iterator[bool]:
    """Hold one slot; yields False (holding nothing) if none freed within `timeout`."""
    semaphore = _semaphore()
    acquired = semaphore.acquire(timeout=timeout) if timeout is not None else semaphore.acquire()
    try:
        yield acquired
    finally:
        if acquired:
            semaphore.release()


def call_with_retries(
    attempt: Callable[[float], T],
    *,
    policy: RetryPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    force: bool = False,
    breaker: BreakerRead | None = None,
) -> tuple[T, int]:
    """Run `attempt(timeout_seconds)` under the policy; return (result, attempts made).

    `attempt` raises ProviderError for a failed try. The slot is held per attempt, not
    across the backoff sleep, so a waiting retry does not block other callers.
    The circuit breaker may refuse the call; with `force` (an operator's health check)
    it is made anyway, and its outcome still counts. `breaker` is the caller's recent
    read of the breaker's state, if it has one (`breaker_admit`).
    Raises LlmUnavailable, LlmDeadlineExceeded, LlmTransientError or LlmRequestError,
    each carrying the attempt count.
    """
    policy = policy or RetryPolicy.from_settings()
    admission = breaker_checked() if force else breaker_admit(probe_seconds=policy.timeout, read=breaker)
    if admission.probe:
        policy = replace(policy, max_retries=0)  # the probe asks once; no retry storm
    try:
        stop_when_open = not (force or admission.probe)
        result = _retry_loop(attempt, policy, sleep, stop_when_open=stop_when_open)
    except (LlmTransientError, LlmUnavailable) as exc:
        if exc.attempts:
            breaker_failure(admission)
        else:  # out of time before reaching the model: no news about it
            breaker_release(admission)
        raise
    except LlmError:
        breaker_success(admission)  # the endpoint answered, if not usefully
        raise
    except BaseException:
        breaker_release(admission)  # a probe that crashed must still free its slot
        raise
    breaker_success(admission)
    return result


def _retry_loop(
    attempt: Callable[[float], T],
    policy: RetryPolicy,
    sleep: Callable[[float], None],
    *,
    stop_when_open: bool,
) -> tuple[T, int]:
    ends = None if policy.deadline is None else time.monotonic() + policy.deadline
    attempts = 0
    last_error = ""

    def deadline_passed() -> LlmDeadlineExceeded:
        detail = f" (last error: {last_error})" if last_error else ""
        limit_ms = policy.deadline * 1000
        return LlmDeadlineExceeded(
            f"no answer within the {limit_ms:.0f} ms time limit{detail}", attempts=attempts
        )

    while True:
        timeout = policy.timeout
        if ends is not None:
            left = ends - time.monotonic()
            if left <= 0:
                raise deadline_passed()
            timeout = min(timeout, left)
        with concurrency_slot(timeout if ends is not None else None) as acquired:
            if not acquired:
                last_error = "every LLM slot of this process was busy"
                raise deadline_passed()
            attempts += 1
            try:
                return attempt(timeout), attempts
            except ProviderError as exc:
                error = exc
        if not error.retriable:
            raise LlmRequestError(error.message, attempts=attempts) from error
        last_error = error.message
        if ends is not None and time.monotonic() >= ends:
            raise deadline_passed() from error
        if attempts > policy.max_retries:
            raise LlmTransientError(error.message, attempts=attempts) from error
        delay = backoff_delay(attempts, policy, error.retry_after)
        if ends is not None and time.monotonic() + delay >= ends:
            raise deadline_passed() from error  # waiting would only end in the same answer
        sleep(delay)
        if stop_when_open and breaker_is_open():
            # Another call opened the breaker meanwhile: retrying now is what it prevents.
            raise LlmUnavailable(
                f"ai service is unavailable (circuit breaker opened; last error: {last_error})",
                attempts=attempts,
            ) from error
