"""A session ended while Redis was away stays ended, even when the web process that ended
it is gone before Redis answers again (docs/architecture.md §9, "Authentication").

The site runs as in production (gunicorn, PostgreSQL, REDIS_URL set) against a Redis
server of the test's own, which the test pauses (connections hang) and resumes. The
copies Redis holds of an ended session, and of a user's auth record from before a
password change, outlive the process that could not delete them; only what that
process wrote in the database can drop them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.conftest import requires_postgres
from tests.factories import PASSWORD, make_user
from tests.integration.test_redis_down import Browser
from tests.integration.worker import ROOT, database_url, stop, wait_for
from tests.redis_server import free_port, own_redis, requires_redis_server  # noqa: F401

pytestmark = [requires_postgres, requires_redis_server, pytest.mark.django_db(transaction=True)]


class Site:
    """gunicorn with one worker, which the test stops and starts again."""

    def __init__(self, redis_url: str, log_dir) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.redis_url = redis_url
        self.log = log_dir / "gunicorn.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": self.redis_url,
            "DEBUG": "true",
            "ALLOWED_HOSTS": "127.0.0.1",
            "STGY_AI_PROVIDER": "none",
            "STGY_REDIS_TIMEOUT": "0.5",
            "STGY_CACHE_RETRY_SECONDS": "1",
            "STGY_BROKER_RETRY_SECONDS": "1",
            "PASSWORD_HASHERS": "django.contrib.auth.hashers.PBKDF2PasswordHasher,"
            "django.contrib.auth.hashers.MD5PasswordHasher",
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "stgy.wsgi:application", "--bind",
             f"127.0.0.1:{self.port}", "--workers", "1", "--threads", "2", "--timeout", "120"],
            cwd=ROOT, env=env, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )

        def up():
            try:
                # A page that reads no session: the new process makes no cache call yet.
                with urllib.request.urlopen(self.base + "/api/health", timeout=5) as response:
                    return response.status in (200, 503)
            except urllib.error.HTTPError as exc:
                return exc.code == 503
            except OSError:
                return False

        wait_for(up, 60, lambda: f"gunicorn to serve\n{self.log.read_text()[-3000:]}")

    def reading_redis_again(self) -> None:
        """Wait until the process uses Redis again (it rests a moment after an outage,
        serving from the database meanwhile)."""

        def cache_ok():
            with urllib.request.urlopen(self.base + "/api/health", timeout=5) as response:
                return json.loads(response.read())["cache"] == "ok"

        wait_for(cache_ok, 30, "the site to use Redis again")

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)
            self.proc = None


@pytest.fixture
def site(own_redis, tmp_path):
    site = Site(own_redis.url, tmp_path)
    site.start()
    yield site
    site.stop()


def auth_status(site: Site, session_key: str) -> int:
    """GET /api/auth with the cookie `session_key`, as a client that kept it would send."""
    request = urllib.request.Request(
        site.base + "/api/auth", headers={"Cookie": f"session_id={session_key}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def logged_in(site: Site, user) -> Browser:
    browser = Browser(site.base)
    status, body = browser.json("POST", "/api/auth", {"email": user.email, "password": PASSWORD})
    assert status == 200, body
    assert browser.json("GET", "/api/auth")[0] == 200
    return browser


def test_a_logout_during_an_outage_survives_a_restart_before_redis_returns(site, own_redis):
    alice = make_user("Alice")
    kept = logged_in(site, alice)
    kept_key = kept.cookie("session_id")
    other = logged_in(site, alice)  # a second session of hers, left alone throughout
    assert own_redis.client().keys("*cached_db*"), "the sessions were not cached in Redis"

    own_redis.pause()
    try:
        assert kept.json("DELETE", "/api/auth")[0] == 200
        assert auth_status(site, kept_key) == 401
        # The process that ended the session dies before Redis answers again; what it
        # could not delete in Redis, it can no longer remember.
        site.stop()
        site.start()
    finally:
        own_redis.resume()
    site.reading_redis_again()

    assert auth_status(site, kept_key) == 401
    assert other.json("GET", "/api/auth")[0] == 200
    assert "Internal Server Error" not in site.log.read_text()


def test_a_logout_during_an_outage_survives_a_restart_after_redis_returns(site, own_redis):
    alice = make_user("Alice")
    kept = logged_in(site, alice)
    kept_key = kept.cookie("session_id")

    own_redis.pause()
    try:
        assert kept.json("DELETE", "/api/auth")[0] == 200
        site.stop()
    finally:
        own_redis.resume()
    # The new process never saw the outage: its first read of Redis must not trust it.
    site.start()
    assert auth_status(site, kept_key) == 401


def test_a_password_changed_during_an_outage_ends_the_other_sessions_after_a_restart(
    site, own_redis
):
    bob = make_user("Bob")
    changing = logged_in(site, bob)
    other = logged_in(site, bob)

    own_redis.pause()
    try:
        status, body = changing.json("PUT", f"/api/users/{bob.hex_id}/password",
                                     {"password": "a-fresh-long-secret", "currentPassword": PASSWORD})
        assert status == 200, body
        assert changing.json("GET", "/api/auth")[0] == 200  # the changer's own session is kept
        site.stop()
        site.start()
    finally:
        own_redis.resume()
    site.reading_redis_again()

    # Redis still holds Bob's auth record from before the change, with the old hash.
    assert other.json("GET", "/api/auth")[0] == 401
    assert changing.json("GET", "/api/auth")[0] == 200
