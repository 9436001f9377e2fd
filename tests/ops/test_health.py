"""GET /api/health (and /backend/health): 200 whenever the database answers, with the
parts that are down listed; 503 only without the database."""

from __future__ import annotations

import pytest
from django.db import connection

from agents.llm import gateway
from agents.llm.errors import LlmTransientError
from tests.clients import APIClient
from tests.conftest import requires_postgres
from tests.llm_down import HELLO, closed_port, dead_model  # noqa: F401
from tests.redis_server import own_redis, requires_redis_server  # noqa: F401

pytestmark = pytest.mark.django_db


def get_health(path="/api/health"):
    response = APIClient().get(path)
    return response.status_code, response.json()


def test_all_parts_up_without_redis_is_ok(settings):
    settings.STGY_AI_PROVIDER = "none"
    status, body = get_health()
    assert status == 200
    assert body["result"] == "ok" and body["degraded"] == []
    assert body["database"] == "ok"
    assert body["llm"] == {"provider": "none", "status": "disabled"}


def test_served_under_the_original_mount_too():
    assert get_health("/backend/health")[0] == 200


def point_redis_at(settings, url: str) -> None:
    settings.REDIS_URL = url
    settings.CELERY_BROKER_URL = url
    settings.STGY_REDIS_TIMEOUT = 0.3
    settings.CACHES = {
        "default": {
            "BACKEND": "stgy.cache.FailSoftRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.3, "socket_timeout": 0.3},
        }
    }


@requires_redis_server
def test_redis_down_is_reported_and_the_site_still_serves(settings, own_redis):
    point_redis_at(settings, own_redis.url)
    status, body = get_health()
    assert status == 200
    assert (body["cache"], body["broker"], body["degraded"]) == ("ok", "ok", [])

    own_redis.stop()
    status, body = get_health()
    assert status == 200
    assert body["result"] == "ok"
    assert body["database"] == "ok"
    assert body["cache"] == "down" and body["broker"] == "down"
    assert body["degraded"] == ["cache", "broker"]


def test_an_open_breaker_is_reported_not_fatal(settings, dead_model):  # noqa: F811
    settings.STGY_AI_BREAKER_FAILURES = 1
    settings.STGY_AI_MAX_RETRIES = 0
    assert get_health()[1]["llm"]["status"] == "ok"
    with pytest.raises(LlmTransientError):
        gateway.chat(messages=HELLO, tier="basic")
    status, body = get_health()
    assert status == 200
    assert body["llm"] == {"provider": "openai", "status": "down", "breaker": "open"}
    assert body["degraded"] == ["llm"]


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_without_the_database_it_answers_503():
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict["HOST"] = "127.0.0.1"
    connection.settings_dict["PORT"] = str(closed_port())
    try:
        status, body = get_health()
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert status == 503
    assert body["result"] == "error"
    assert body["error"] == "database is unavailable"
    assert body["database"] == "down" and "database" in body["degraded"]
    assert get_health()[0] == 200  # back once the database is


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_session_cookie_is_not_looked_up(human):
    from tests.conftest import login_client

    client = login_client(human)
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict["PORT"] = str(closed_port())
    try:
        response = client.get("/api/health")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
    assert response.status_code == 503
