"""A bound on the whole time of one model call — every attempt and every backoff — for
callers that cannot wait: web requests.

The retry policy suits Celery workers, which may wait minutes for a slow model; a web
worker may not, since a handful of requests held that long stall the whole site. The
middleware sets the bound (STGY_AI_WEB_DEADLINE_MS) around every request, so any view
that reaches the gateway is covered without knowing it. The bound is a context
variable: work the request hands to a thread pool or to Celery keeps the normal policy.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

_call_limit: ContextVar[float | None] = ContextVar("stgy_llm_call_limit", default=None)


@contextmanager
def call_time_limit(seconds: float | None) -> Iterator[None]:
    """Within the block, each model call ends (LlmDeadlineExceeded) after `seconds`."""
    token = _call_limit.set(seconds)
    try:
        yield
    finally:
        _call_limit.reset(token)


def current_call_time_limit() -> float | None:
    return _call_limit.get()


def web_call_time_limit() -> float | None:
    ms = settings.STGY_AI_WEB_DEADLINE_MS
    return ms / 1000.0 if ms and ms > 0 else None


class WebDeadlineMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        with call_time_limit(web_call_time_limit()):
            return self.get_response(request)
