"""The small cast every test can use: a human, their follower, an AI user, a user the
human blocks, and an admin."""

from __future__ import annotations

import os

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import TestCase, override_settings

from agents.llm.breaker import breaker_reset
from stgy.celery import app as celery_app
from tests.clients import APIClient
from tests.factories import PASSWORD, make_ai_user, make_user

requires_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")),
    reason="needs PostgreSQL: set DATABASE_URL (the CI run does)",
)
requires_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL (the CI run does)"
)


TEST_SETTINGS = {
    "STGY_EAGER_TASKS_INLINE": True,
    # A broker failure in one test must not leave the next one's publishes skipped.
    "STGY_BROKER_RETRY_SECONDS": 0,
    # Hashing is not under test here; the production hasher made the suite minutes slower.
    "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],
}


@pytest.fixture(autouse=True)
def _isolated(settings):
    """Tasks run inline during tests unless a test starts a real worker; throttle
    counters and caches never leak between tests."""
    for name, value in TEST_SETTINGS.items():
        setattr(settings, name, value)
    celery_app.conf.task_always_eager = True
    cache.clear()
    # The circuit breaker keeps a process copy of its state besides the cache.
    breaker_reset()
    yield
    cache.clear()
    breaker_reset()


@pytest.fixture
def human(db):
    return make_user("Alice", locale="en-US")


@pytest.fixture
def follower(db, human):
    from sns import services

    user = make_user("Bob")
    services.follow_add(user, human.id)
    return user


@pytest.fixture
def ai_user(db):
    return make_ai_user("Aiko", tier="balanced", personality="A cheerful chef who loves fermentation.")


@pytest.fixture
def blocked(db, human):
    from sns import services

    user = make_user("Mallory")
    services.block_add(human, user.id)
    return user


@pytest.fixture
def admin(db):
    return make_user("Root", is_admin=True)


def rows_for_the_module(django_db_blocker, build):
    """For a module-scoped fixture whose tests only read its rows (`yield from` it): they
    are built once, under the tests' settings and with on-commit work run, inside a
    transaction rolled back after the module's last test. Each test still runs in its
    own transaction within it, as under Django's `setUpTestData`, so what a test writes
    is undone before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        with override_settings(**TEST_SETTINGS), TestCase.captureOnCommitCallbacks(execute=True):
            celery_app.conf.task_always_eager = True
            rows = build()
        cache.clear()
        yield rows
        transaction.set_rollback(True)


def login_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def api():
    """An anonymous API client; use `login_client(user)` for a logged-in one."""
    return APIClient()


__all__ = ["PASSWORD", "login_client", "requires_postgres", "requires_redis", "rows_for_the_module"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (STGY_REQUIRE_ALL_TESTS=1) a skipped test is a failed test: every test that
    needs PostgreSQL, Redis, a worker or a browser must really run there."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("STGY_REQUIRE_ALL_TESTS") and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where nothing may be skipped: {report.longrepr}"

from tests.llm_down import dead_model, wall_clock  # noqa: E402,F401
from tests.llm_server import llm_server  # noqa: E402,F401
