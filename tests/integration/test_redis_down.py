"""A person keeps using the site while Redis (cache, sessions, throttles, broker) hangs.

The site runs as in production — gunicorn, PostgreSQL, REDIS_URL set — against a Redis
server of the test's own, which the test pauses (connections hang, as behind a dead
network: the harder case than a refused connection) and resumes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar

import pytest

from sns.models import Like, Post
from tests.conftest import requires_postgres
from tests.factories import PASSWORD, make_user
from tests.integration.worker import ROOT, database_url, stop, wait_for
from tests.redis_server import free_port, own_redis, requires_redis_server  # noqa: F401

pytestmark = [requires_postgres, requires_redis_server, pytest.mark.django_db(transaction=True)]

REDIS_TIMEOUT = 0.5
# Generous: a request that waited on a hanging Redis without a timeout would take
# minutes; with one it pays at most a few timeouts.
SLOW = 5.0


class Browser:
    """urllib with a cookie jar: enough of a browser for the API and the forms."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.timings: list[tuple[str, float]] = []

    def request(self, method: str, path: str, *, json_body=None, form=None):
        headers, data = {}, None
        if json_body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(json_body).encode()
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = self.base + path
            data = urllib.parse.urlencode(form).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        started = time.monotonic()
        try:
            with self.opener.open(req, timeout=60) as response:
                status, body = response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            status, body = exc.code, exc.read().decode()
        self.timings.append((f"{method} {path}", time.monotonic() - started))
        return status, body

    def json(self, method: str, path: str, body=None):
        status, text = self.request(method, path, json_body=body)
        return status, (json.loads(text) if text.startswith(("{", "[")) else text)

    def csrf(self, path: str) -> str:
        status, html = self.request("GET", path)
        assert status == 200, html[:500]
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)


@pytest.fixture
def site(own_redis, tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": own_redis.url,
        "DEBUG": "true",
        "ALLOWED_HOSTS": "127.0.0.1",
        "STGY_AI_PROVIDER": "none",
        "STGY_REDIS_TIMEOUT": str(REDIS_TIMEOUT),
        "STGY_CACHE_RETRY_SECONDS": "1",
        "STGY_BROKER_RETRY_SECONDS": "1",
        # The test's users are made with the test suite's fast hasher.
        "PASSWORD_HASHERS": "django.contrib.auth.hashers.PBKDF2PasswordHasher,"
        "django.contrib.auth.hashers.MD5PasswordHasher",
    }
    log = tmp_path / "gunicorn.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "stgy.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--threads", "4", "--timeout", "120"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"

    def up():
        try:
            with urllib.request.urlopen(base + "/login", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    try:
        wait_for(up, 60, lambda: f"gunicorn to serve\n{log.read_text()[-3000:]}")
        yield base, log
    finally:
        stop(proc)


def test_a_person_logs_in_reads_posts_replies_likes_and_searches_while_redis_hangs(
    site, own_redis
):
    base, log = site
    alice = make_user("Alice")
    bob = make_user("Bob")
    root = Post.objects.create(owner=bob, content="Bob writes about sourdough.")

    kept = Browser(base)  # logged in before the outage, logged out during it
    status, body = kept.json("POST", "/api/auth", {"email": alice.email, "password": PASSWORD})
    assert status == 200, body
    assert own_redis.client().keys("*cached_db*"), "the session was not cached in Redis"

    own_redis.pause()
    try:
        api = Browser(base)
        assert api.json("POST", "/api/auth", {"email": alice.email, "password": PASSWORD})[0] == 200
        status, me = api.json("GET", "/api/auth")
        assert status == 200 and me["userId"] == alice.hex_id, me
        assert kept.json("GET", "/api/auth")[0] == 200  # the older session, from the database

        assert api.json("GET", "/api/posts")[0] == 200
        status, post = api.json("POST", "/api/posts", {"content": "Written while Redis sleeps.",
                                                       "tags": ["outage"]})
        assert status == 201, post
        status, reply = api.json("POST", "/api/posts", {"content": "A reply about the crumb.",
                                                        "tags": [], "replyTo": root.hex_id})
        assert status == 201, reply
        assert api.json("POST", f"/api/posts/{root.hex_id}/like")[0] == 200
        status, found = api.json("GET", "/api/posts/search?query=sleeps")
        assert status == 200 and [p["id"] for p in found["result"]] == [post["id"]], found

        pages = Browser(base)
        token = pages.csrf("/login")
        status, html = pages.request("POST", "/login", form={
            "csrfmiddlewaretoken": token, "email": alice.email, "password": PASSWORD})
        assert status == 200 and "Written while Redis sleeps." in html  # the home timeline
        token = pages.csrf("/compose")
        status, html = pages.request("POST", "/compose", form={
            "csrfmiddlewaretoken": token, "content": "Composed on the page.", "tags": "",
            "locale": "en", "allow_likes": "on", "allow_replies": "on"})
        assert status == 200 and "Composed on the page." in html, html[:2000]
        status, html = pages.request("GET", f"/posts/{root.hex_id}")
        assert status == 200 and "A reply about the crumb." in html
        assert pages.request("GET", "/search?q=sourdough")[0] == 200

        assert kept.json("DELETE", "/api/auth")[0] == 200
        assert kept.json("GET", "/api/auth")[0] == 401
    finally:
        own_redis.resume()

    assert Post.objects.filter(owner=alice).count() == 3
    assert Like.objects.filter(user=alice, post=root).exists()
    slow = [(what, round(took, 2)) for b in (kept, api, pages) for what, took in b.timings
            if took > SLOW]
    assert not slow, slow
    assert "Internal Server Error" not in log.read_text()

    # Redis answers again. The session ended during the outage must not come back from
    # the copy Redis still holds, and new sessions are cached again.
    time.sleep(1.5)
    assert kept.json("GET", "/api/auth")[0] == 401
    again = Browser(base)
    assert again.json("POST", "/api/auth", {"email": alice.email, "password": PASSWORD})[0] == 200
    key = again.cookie("session_id")
    assert any(key in k.decode() for k in own_redis.client().keys("*cached_db*"))
