"""POST /users/password/reset/start and /users/password/reset/verify (docs/accounts.md §3)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from sns.models import EmailVerification, User
from tests.accounts.mailbox import code_sent_to, last_mail_to
from tests.clients import APIClient
from tests.conftest import login_client
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
NEW = "fresh-meadow-lantern"


def start(client, email):
    return client.post("/api/users/password/reset/start", {"email": email}, format="json")


def verify(client, **fields):
    return client.post("/api/users/password/reset/verify", fields, format="json")


def ticket(client, user):
    body = start(client, user.email).json()
    return {
        "email": user.email,
        "resetPasswordId": body["resetPasswordId"],
        "webCode": body["webCode"],
        "mailCode": code_sent_to(user.email),
        "newPassword": NEW,
    }


def test_both_codes_set_a_new_password_and_end_old_sessions(human):
    old_session = login_client(human)
    assert old_session.get("/api/auth").status_code == 200
    client = APIClient()
    response = start(client, human.email.upper())
    assert response.status_code == 201
    body = response.json()
    assert sorted(body) == ["resetPasswordId", "webCode"] and len(body["webCode"]) == 6
    assert last_mail_to(human.email).subject == "STGY Password Reset Verification"
    response = verify(
        client,
        email=human.email,
        resetPasswordId=body["resetPasswordId"],
        webCode=body["webCode"],
        mailCode=code_sent_to(human.email),
        newPassword=NEW,
    )
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    human.refresh_from_db()
    assert human.check_password(NEW) and not human.check_password(PASSWORD)
    assert old_session.get("/api/auth").status_code == 401
    assert not EmailVerification.objects.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"webCode": "WRONG"}, "Web verification code mismatch"),
        ({"mailCode": "WRONG"}, "Mail verification code mismatch"),
        ({"email": "someone.else@example.com"}, "Session/user mismatch"),
        ({"resetPasswordId": "00000000-0000-4000-8000-000000000000"}, "Reset session not found or expired"),
        ({"newPassword": "short"}, "This password is too short."),
        ({"newPassword": "   " * 4}, "password must not be blank"),
        ({"mailCode": ""}, "email, resetPasswordId, webCode, mailCode, newPassword are required"),
    ],
)
def test_refusals_change_nothing(human, change, message):
    client = APIClient()
    fields = {**ticket(client, human), **change}
    response = verify(client, **fields)
    assert response.status_code == 400 and message in response.json()["error"]
    human.refresh_from_db()
    assert human.check_password(PASSWORD)


def test_the_password_may_not_be_like_the_nickname(human):
    User.objects.filter(pk=human.pk).update(nickname="Wandering Heron")
    client = APIClient()
    response = verify(client, **{**ticket(client, human), "newPassword": "Wandering Heron!"})
    assert "too similar to the nickname" in response.json()["error"]


def test_a_ticket_works_once_and_expires(human):
    client = APIClient()
    fields = ticket(client, human)
    assert verify(client, **fields).status_code == 200
    assert verify(client, **fields).json() == {"error": "Reset session not found or expired"}
    fields = ticket(client, human)
    EmailVerification.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert verify(client, **fields).json() == {"error": "Reset session not found or expired"}


def test_guessing_the_mail_code_runs_out_of_tries(human, settings):
    settings.STGY_VERIFICATION_MAX_ATTEMPTS = 4
    client = APIClient()
    fields = ticket(client, human)
    for guess in ("000001", "000002", "000003", "000004"):
        assert verify(client, **{**fields, "mailCode": guess}).json() == {
            "error": "Mail verification code mismatch"
        }
    assert verify(client, **fields).json() == {"error": "Reset session not found or expired"}
    human.refresh_from_db()
    assert human.check_password(PASSWORD)


def test_an_unknown_or_frozen_address_answers_like_a_known_one(human, follower):
    User.objects.filter(pk=follower.pk).update(is_frozen=True)
    client = APIClient()
    known = start(client, human.email)
    for email in ("nobody@example.com", follower.email):
        answer = start(client, email)
        assert answer.status_code == known.status_code == 201
        assert sorted(answer.json()) == sorted(known.json())
        body = answer.json()
        response = verify(
            client, email=email, resetPasswordId=body["resetPasswordId"], webCode=body["webCode"],
            mailCode="123456", newPassword=NEW,
        )
        # The same refusal a wrong guess on a real account gets.
        assert response.json() == {"error": "Mail verification code mismatch"}
    # No mail to the unknown or frozen address; their starts count in the limits all the same.
    assert [m.to for m in mail.outbox] == [[human.email]]
    start(client, "nobody@example.com")
    assert start(client, "nobody@example.com").json() == {"error": "address limit exceeded"}


@pytest.mark.parametrize(
    ("body", "message"), [({}, "email required"), ({"email": "x"}, "invalid e-mail address")]
)
def test_bad_starts(body, message):
    response = APIClient().post("/api/users/password/reset/start", body, format="json")
    assert response.status_code == 400 and response.json() == {"error": message}
    assert not EmailVerification.objects.exists()
