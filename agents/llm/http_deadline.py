"""A wall-clock end for each HTTP request the openai SDK makes, kept by the socket.

The SDK's `timeout` is httpx's: a bound on each wait — to connect, for each read, for
each write — renewed by every byte. A model endpoint that sends a byte now and then
(of the status line, the headers or the body) never trips it, and held a Celery worker
for as long as it liked. Here every blocking socket call of the connection pool may
wait only for the time left before the end set by `request_ends_at` (the retry loop's
attempt time, itself within STGY_AI_CALL_DEADLINE_MS; agents/llm/retry.py), and past it
fails as httpcore's own timeouts do, so the SDK reports a timeout like any other.
Only the name lookup is outside it (the system resolver's own timeouts), as in
sns/core/netfetch.py, which keeps the same kind of deadline for fetches of users' URLs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore2

_ends: ContextVar[float | None] = ContextVar("stgy_llm_http_ends", default=None)


@contextmanager
def request_ends_at(seconds: float) -> Iterator[None]:
    """Within the block, HTTP requests of the model client end `seconds` from now."""
    ends = time.monotonic() + seconds
    outer = _ends.get()
    token = _ends.set(ends if outer is None else min(outer, ends))
    try:
        yield
    finally:
        _ends.reset(token)


def _left(timeout: float | None, expired: type[Exception]) -> float | None:
    """The wait a socket call may make: its own timeout, cut to the time left."""
    ends = _ends.get()
    if ends is None:
        return timeout
    left = ends - time.monotonic()
    if left <= 0:
        raise expired("the model call's time limit passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore2.NetworkStream):
    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _left(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context, server_hostname=None, timeout=None) -> httpcore2.NetworkStream:
        left = _left(timeout, httpcore2.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, left))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class DeadlineBackend(httpcore2.NetworkBackend):
    """httpcore's blocking socket backend, with each call bound by the request's end."""

    def __init__(self) -> None:
        self._inner = httpcore2.SyncBackend()

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        left = _left(timeout, httpcore2.ConnectTimeout)
        return _Stream(self._inner.connect_tcp(host, port, left, local_address, socket_options))

    def connect_unix_socket(self, path, timeout=None, socket_options=None):
        left = _left(timeout, httpcore2.ConnectTimeout)
        return _Stream(self._inner.connect_unix_socket(path, left, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def with_deadline(transport: Any) -> Any:
    """The transport, its connection pool on DeadlineBackend. httpx takes no network
    backend; its transport's pool (httpcore's ConnectionPool, or a proxy's) does, and
    keeps it in `_network_backend`, read each time a connection is opened."""
    pool = getattr(transport, "_pool", None)
    if pool is not None and hasattr(pool, "_network_backend"):
        pool._network_backend = DeadlineBackend()
    return transport
