"""What GET /health reports: each part the site runs on, and whether it can serve.

Only the database is essential: without it no page or API answer can be made, so the
check answers 503. Redis (cache and broker) and the model are degradations the site is
built to ride out (docs/operations.md), so they are reported and the answer stays 200.
Every probe is bounded by the site's own short timeouts and never raises.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import connection

log = logging.getLogger(__name__)
HEALTH_CACHE_KEY = "stgy:health:probe"


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure to reach it is "down"; the check must answer
        log.warning("health: database unreachable: %s", exc)
        connection.close_if_unusable_or_obsolete()
        return "down"
    return "ok"


def cache_status() -> str:
    """"ok", "down", or "local" (no Redis: an in-process cache)."""
    if not hasattr(cache, "is_available"):
        return "local"
    # The fail-soft cache absorbs the failure and marks itself down (stgy/cache.py);
    # while it rests after an outage this costs nothing.
    cache.get(HEALTH_CACHE_KEY)
    return "ok" if cache.is_available() else "down"


def broker_status() -> str:
    """"ok", "down", or "inline" (no broker: tasks run in the web process)."""
    from agents.runner import broker_available

    from .queues import broker_client

    client = broker_client()
    if client is None:
        return "inline"
    if not broker_available():
        return "down"  # this process just failed to publish and is resting
    try:
        client.ping()
    except Exception as exc:
        log.info("health: broker unreachable: %s", exc)
        return "down"
    finally:
        client.close()
    return "ok"


def llm_status() -> dict:
    """The configured provider and its circuit breaker; "disabled" when AI is off."""
    from agents.llm import gateway

    if not gateway.ai_enabled():
        return {"provider": gateway.provider_name(), "status": "disabled"}
    try:
        breaker = gateway.breaker_state()["state"]
    except Exception as exc:  # the breaker's shared state lives in the cache
        log.info("health: breaker state unreadable: %s", exc)
        breaker = "unknown"
    status = {"open": "down", "half-open": "recovering"}.get(breaker, "ok")
    return {"provider": gateway.provider_name(), "status": status, "breaker": breaker}


def health() -> tuple[int, dict]:
    """(HTTP status, body). The body keeps the original's `result` field."""
    database = database_status()
    parts = {
        "database": database,
        "cache": cache_status(),
        "broker": broker_status(),
        "llm": llm_status(),
    }
    if database != "ok":
        return 503, {"result": "error", "error": "database is unavailable", "degraded": ["database"], **parts}
    # `result` stays "ok" whenever the site serves, as the original's only field said;
    # what is missing is listed beside it.
    degraded = [name for name in ("cache", "broker") if parts[name] == "down"]
    if parts["llm"]["status"] in ("down", "recovering"):
        degraded.append("llm")
    return 200, {"result": "ok", "degraded": degraded, **parts}
