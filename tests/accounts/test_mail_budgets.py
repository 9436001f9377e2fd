"""One client cannot use up the site's mail: each client address has its own budget,
checked before the site-wide limit (sns/core/mail_limits.py, docs/accounts.md §4)."""

from __future__ import annotations

import itertools

import pytest
from django.core import mail
from django.test import Client

from sns.core.mail_limits import client_of
from tests.clients import APIClient
from tests.conftest import login_client
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
ATTACKER = "198.51.100.66"
_addresses = (f"victim{n}@example{n}.org" for n in itertools.count())


def reset(address: str, *, remote: str, **extra):
    return APIClient().post(
        "/api/users/password/reset/start", {"email": address}, format="json",
        REMOTE_ADDR=remote, **extra,
    )


def signup(address: str, *, remote: str):
    return APIClient().post(
        "/api/signup/start", {"email": address, "password": "lantern-orchard-42"},
        format="json", REMOTE_ADDR=remote,
    )


@pytest.fixture
def site_limit(settings):
    settings.STGY_MAIL_GLOBAL_LIMIT_PER_MIN = 10
    settings.STGY_MAIL_CLIENT_LIMIT_PER_MIN = 3
    settings.STGY_MAIL_CLIENT_LIMIT_PER_HOUR = 30


def test_one_client_cannot_use_up_everyones_mail(site_limit):
    answers = [reset(next(_addresses), remote=ATTACKER).json() for _ in range(10)]
    assert all("resetPasswordId" in a for a in answers[:3])
    assert answers[3:] == [{"error": "client limit exceeded"}] * 7
    # Everyone else still gets their mail.
    assert signup("newcomer@example.com", remote="203.0.113.5").status_code == 201
    assert reset(next(_addresses), remote="203.0.113.6").status_code == 201
    assert any("newcomer@example.com" in m.to for m in mail.outbox)


def test_the_hourly_budget(settings, site_limit):
    settings.STGY_MAIL_CLIENT_LIMIT_PER_MIN = 100
    settings.STGY_MAIL_CLIENT_LIMIT_PER_HOUR = 4
    statuses = [reset(next(_addresses), remote=ATTACKER).status_code for _ in range(5)]
    assert statuses == [201, 201, 201, 201, 400]


def test_a_forged_forwarded_for_does_not_make_a_new_client(site_limit):
    statuses = [
        reset(next(_addresses), remote=ATTACKER, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code
        for n in range(4)
    ]
    assert statuses == [201, 201, 201, 400]


def test_an_ipv6_client_is_its_64(rf):
    one = client_of(rf.get("/", REMOTE_ADDR="2001:db8:1:2::10"))
    assert one == client_of(rf.get("/", REMOTE_ADDR="2001:db8:1:2:ffff::1")) == "2001:db8:1:2::/64"
    assert client_of(rf.get("/", REMOTE_ADDR="2001:db8:1:3::10")) != one
    assert client_of(rf.get("/", REMOTE_ADDR="198.51.100.7")) == "198.51.100.7"


def test_the_pages_and_the_e_mail_change_spend_the_same_budget(site_limit, human):
    for _ in range(3):
        assert reset(next(_addresses), remote=ATTACKER).status_code == 201
    response = Client(REMOTE_ADDR=ATTACKER).post(
        "/password-reset", {"email": next(_addresses)}, follow=True
    )
    assert "client limit exceeded" in response.content.decode()
    response = login_client(human).post(
        f"/api/users/{human.hex_id}/email/start",
        {"email": "alice@new.example.com", "currentPassword": PASSWORD},
        format="json", REMOTE_ADDR=ATTACKER,
    )
    assert response.status_code == 400 and response.json() == {"error": "client limit exceeded"}
