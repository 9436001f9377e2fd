"""POST /users/{id}/email/start and /users/{id}/email/verify (docs/accounts.md §2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from sns.models import EmailVerification, User
from tests.accounts.mailbox import CODE, code_sent_to, last_mail_to
from tests.conftest import login_client
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def start(client, user, email):
    # The caller's own password: moving one's own account needs it (or a recent login).
    body = {"email": email, "currentPassword": PASSWORD}
    return client.post(f"/api/users/{user.hex_id}/email/start", body, format="json")


def verify(client, user, update_id, code):
    return client.post(
        f"/api/users/{user.hex_id}/email/verify",
        {"updateEmailId": update_id, "verificationCode": code},
        format="json",
    )


def test_the_code_sent_to_the_new_address_moves_the_account(human):
    client = login_client(human)
    response = start(client, human, "Alice.New@Example.com")
    assert response.status_code == 201 and list(response.json()) == ["updateEmailId"]
    assert last_mail_to("alice.new@example.com").subject == "STGY Email Change Verification"
    human.refresh_from_db()
    assert human.email != "alice.new@example.com"  # nothing changes before the code
    response = verify(client, human, response.json()["updateEmailId"], code_sent_to("alice.new@example.com"))
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    human.refresh_from_db()
    assert human.email == "alice.new@example.com"
    assert not EmailVerification.objects.exists()


def test_an_admin_may_change_anyone_and_others_may_not(human, follower, admin):
    response = start(login_client(follower), human, "x@example.com")
    assert response.status_code == 403 and response.json() == {"error": "forbidden"}
    response = start(login_client(admin), human, "by-admin@example.com")
    assert response.status_code == 201
    update_id = response.json()["updateEmailId"]
    response = verify(login_client(follower), human, update_id, code_sent_to("by-admin@example.com"))
    assert response.status_code == 403
    assert verify(login_client(admin), human, update_id, code_sent_to("by-admin@example.com")).status_code == 200
    human.refresh_from_db()
    assert human.email == "by-admin@example.com"


def test_anonymous_callers_get_401(human):
    from tests.clients import APIClient

    assert start(APIClient(), human, "x@example.com").status_code == 401


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "email required"),
        ({"email": ""}, "email required"),
        ({"email": "nope"}, "invalid e-mail address"),
    ],
)
def test_bad_starts(human, body, message):
    response = login_client(human).post(
        f"/api/users/{human.hex_id}/email/start", {**body, "currentPassword": PASSWORD}, format="json"
    )
    assert response.status_code == 400 and response.json() == {"error": message}
    assert not mail.outbox and not EmailVerification.objects.exists()


def test_wrong_reused_expired_and_foreign_tickets_are_refused(human, follower):
    client = login_client(human)
    update_id = start(client, human, "fresh@example.com").json()["updateEmailId"]
    code = code_sent_to("fresh@example.com")
    wrong = f"{(int(code) + 7) % 1_000_000:06d}"
    assert verify(client, human, update_id, wrong).json() == {"error": "Verification code mismatch."}
    # Another user's ticket on one's own id.
    other = start(login_client(follower), follower, "bobs-new@example.com").json()["updateEmailId"]
    response = verify(client, human, other, code_sent_to("bobs-new@example.com"))
    assert response.json() == {"error": "Session/user mismatch"}
    assert verify(client, human, update_id, code).status_code == 200
    response = verify(client, human, update_id, code)
    assert response.json() == {"error": "Update email info not found or expired."}
    late = start(client, human, "late@example.com").json()["updateEmailId"]
    EmailVerification.objects.filter(pk=late).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = verify(client, human, late, code_sent_to("late@example.com"))
    assert response.json() == {"error": "Update email info not found or expired."}
    human.refresh_from_db()
    assert human.email == "fresh@example.com"
    response = verify(client, human, "", "1")
    assert response.json() == {"error": "updateEmailId and verificationCode are needed"}


def test_the_tries_run_out(human, settings):
    settings.STGY_VERIFICATION_MAX_ATTEMPTS = 2
    client = login_client(human)
    update_id = start(client, human, "try@example.com").json()["updateEmailId"]
    code = code_sent_to("try@example.com")
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    verify(client, human, update_id, wrong)
    verify(client, human, update_id, wrong)
    response = verify(client, human, update_id, code)
    assert response.json() == {"error": "Update email info not found or expired."}


def test_a_taken_address_answers_alike_and_its_mail_has_no_code(human, follower):
    client = login_client(human)
    taken = start(client, human, follower.email)
    free = start(client, human, "unused@example.com")
    assert taken.status_code == free.status_code == 201
    assert list(taken.json()) == list(free.json())
    notice = last_mail_to(follower.email)
    assert not CODE.search(notice.body) and "already exists" in notice.body
    response = verify(client, human, taken.json()["updateEmailId"], "123456")
    assert response.json() == {"error": "Verification code mismatch."}
    assert User.objects.get(pk=human.pk).email == human.email


def test_the_address_limit_applies(human):
    client = login_client(human)
    start(client, human, "limit@example.com")
    start(client, human, "limit@example.com")
    response = start(client, human, "limit@example.com")
    assert response.status_code == 400 and response.json() == {"error": "address limit exceeded"}


def test_a_frozen_user_cannot_start(human):
    User.objects.filter(pk=human.pk).update(is_frozen=True)
    human.refresh_from_db()
    response = start(login_client(human), human, "ice@example.com")
    assert response.status_code == 403
    assert not mail.outbox
