"""The login throttle counts per client address, and a client cannot choose its address
with X-Forwarded-For unless a trusted proxy wrote it (STGY_TRUSTED_PROXIES)."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client

from tests.clients import APIClient
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
_forged = (f"203.0.113.{n}" for n in itertools.count(1))


def rate(settings, value: str, proxies: int | None = None) -> None:
    """The login rate, and the number of trusted proxies (None: as configured)."""
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {"login": value}
    if proxies is not None:
        rest["NUM_PROXIES"] = proxies
    settings.REST_FRAMEWORK = rest


def api_login(user, *, remote: str = "198.51.100.7", xff: str | None = None, password="wrong"):
    extra = {"REMOTE_ADDR": remote}
    if xff is not None:
        extra["HTTP_X_FORWARDED_FOR"] = xff
    return APIClient().post(
        "/api/auth", {"email": user.email, "password": password}, format="json", **extra
    )


def test_rotating_x_forwarded_for_does_not_reset_the_login_throttle(settings, human):
    rate(settings, "3/min")  # the default configuration: no proxy trusted
    statuses = [api_login(human, xff=next(_forged)).status_code for _ in range(5)]
    assert statuses == [401, 401, 401, 429, 429]
    # Even with the right password: the address is out of attempts for now.
    assert api_login(human, xff=next(_forged), password=PASSWORD).status_code == 429
    # Another socket address is another client.
    assert api_login(human, remote="198.51.100.8").status_code == 401


def test_the_login_page_and_the_api_share_the_buckets(settings, human):
    rate(settings, "2/min")
    page = Client(REMOTE_ADDR="198.51.100.9")
    for _ in range(2):
        page.post("/login", {"email": human.email, "password": "wrong"},
                  HTTP_X_FORWARDED_FOR=next(_forged))
    assert api_login(human, remote="198.51.100.9", xff=next(_forged)).status_code == 429


def test_behind_one_trusted_proxy_the_address_it_saw_is_used(settings, human):
    rate(settings, "2/min", proxies=1)
    proxy = "10.0.0.2"
    # The client forges the left part; the proxy appends the address it really saw.
    statuses = [
        api_login(human, remote=proxy, xff=f"{next(_forged)}, 192.0.2.50").status_code
        for _ in range(3)
    ]
    assert statuses == [401, 401, 429]
    # A different client behind the same proxy has its own bucket.
    assert api_login(human, remote=proxy, xff="192.0.2.51").status_code == 401
