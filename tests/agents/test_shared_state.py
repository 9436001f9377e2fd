"""agents/llm/shared_state.py over the site's fail-soft Redis cache when Redis is away."""

from __future__ import annotations

import socket

from django.test import override_settings

from agents.llm.shared_state import SharedState


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_values_survive_in_the_process_while_the_fail_soft_cache_is_down(settings):
    settings.STGY_CACHE_RETRY_SECONDS = 30
    dead = {
        "default": {
            "BACKEND": "stgy.cache.FailSoftRedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    # No retry window of its own: every call asks the cache, which answers with misses.
    store = SharedState(cache_retry_seconds=0)
    with override_settings(CACHES=dead):
        store.set("open-until", 123.0)
        assert store.incr("failures") == 1
        assert store.incr("failures") == 2
        assert store.get_many(["open-until", "failures"]) == {"open-until": 123.0, "failures": 2}
