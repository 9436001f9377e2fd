"""POST /signup/start and /signup/verify (docs/accounts.md §1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from sns.models import EmailVerification, User
from tests.accounts.mailbox import CODE, code_sent_to, last_mail_to
from tests.clients import APIClient

pytestmark = pytest.mark.django_db
GOOD = "lantern-orchard-42"


def start(client, email, password=GOOD, **extra):
    return client.post("/api/signup/start", {"email": email, "password": password, **extra}, format="json")


def verify(client, signup_id, code):
    return client.post(
        "/api/signup/verify", {"signupId": signup_id, "verificationCode": code}, format="json"
    )


def test_the_code_from_the_mail_creates_the_account():
    client = APIClient()
    response = start(client, "Mina.Park@Example.com", locale="ja_jp", timezone="Asia/Tokyo")
    assert response.status_code == 201
    signup_id = response.json()["signupId"]
    assert list(response.json()) == ["signupId"]
    message = last_mail_to("mina.park@example.com")
    assert message.subject == "STGY Signup Verification Code"
    assert not User.objects.filter(email="mina.park@example.com").exists()

    response = verify(client, signup_id, code_sent_to("mina.park@example.com"))
    assert response.status_code == 201
    user = User.objects.get(email="mina.park@example.com")
    assert response.json() == {"userId": user.hex_id}
    assert (user.nickname, user.locale, user.timezone) == ("mina.park", "ja-JP", "Asia/Tokyo")
    assert user.check_password(GOOD)
    login = client.post("/api/auth", {"email": "mina.park@example.com", "password": GOOD}, format="json")
    assert login.status_code == 200
    # Single use: the row is gone and the same code answers as a missing sign-up.
    assert not EmailVerification.objects.exists()
    again = verify(client, signup_id, code_sent_to("mina.park@example.com"))
    assert again.status_code == 400 and again.json() == {"error": "Signup info not found or expired."}


def test_the_code_is_stored_hashed_only():
    start(APIClient(), "hash@example.com")
    code = code_sent_to("hash@example.com")
    row = EmailVerification.objects.get()
    stored = " ".join(str(v) for v in row.__dict__.values())
    assert code not in stored and GOOD not in stored
    assert len(row.code_hash) == 64


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "email and password are needed"),
        ({"email": "a@example.com"}, "email and password are needed"),
        ({"email": "", "password": GOOD}, "email and password are needed"),
        ({"email": "not-an-address", "password": GOOD}, "invalid e-mail address"),
        ({"email": "a@example.com", "password": GOOD, "locale": "??"}, "invalid locale"),
        ({"email": "a@example.com", "password": GOOD, "timezone": "Mars/Base"}, "invalid timezone"),
        ({"email": "a@example.com", "password": "short"}, "This password is too short."),
        ({"email": "kettle.river@example.com", "password": "kettle.river"}, "too similar to the"),
        ({"email": "a@example.com", "password": " " * 12}, "password must not be blank"),
    ],
)
def test_bad_starts_are_refused_and_write_nothing(body, message):
    response = APIClient().post("/api/signup/start", body, format="json")
    assert response.status_code == 400 and message in response.json()["error"]
    assert not EmailVerification.objects.exists() and not mail.outbox


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "signupId and verificationCode are needed"),
        ({"signupId": "x"}, "signupId and verificationCode are needed"),
        ({"signupId": "not-a-uuid", "verificationCode": "123456"}, "Signup info not found or expired."),
        (
            {"signupId": "00000000-0000-4000-8000-000000000000", "verificationCode": "123456"},
            "Signup info not found or expired.",
        ),
    ],
)
def test_bad_verifies_are_refused(body, message):
    response = APIClient().post("/api/signup/verify", body, format="json")
    assert response.status_code == 400 and response.json() == {"error": message}
    assert not User.objects.exists()


def test_a_wrong_code_is_refused_and_the_tries_run_out(settings):
    settings.STGY_VERIFICATION_MAX_ATTEMPTS = 3
    client = APIClient()
    signup_id = start(client, "guess@example.com").json()["signupId"]
    right = code_sent_to("guess@example.com")
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    for _ in range(3):
        response = verify(client, signup_id, wrong)
        assert response.json() == {"error": "Verification code mismatch."}
    # Out of tries, the right code is refused too, as a missing sign-up.
    response = verify(client, signup_id, right)
    assert response.json() == {"error": "Signup info not found or expired."}
    assert not User.objects.filter(email="guess@example.com").exists()
    assert EmailVerification.objects.get().attempts == 3


def test_an_expired_code_is_refused():
    client = APIClient()
    signup_id = start(client, "late@example.com").json()["signupId"]
    EmailVerification.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = verify(client, signup_id, code_sent_to("late@example.com"))
    assert response.json() == {"error": "Signup info not found or expired."}
    assert not User.objects.filter(email="late@example.com").exists()


def test_the_code_lives_fifteen_minutes_by_default():
    start(APIClient(), "ttl@example.com")
    row = EmailVerification.objects.get()
    assert row.expires_at - row.created_at == timedelta(seconds=900)
    assert "within 15 minutes" in last_mail_to("ttl@example.com").body


def test_a_taken_address_gets_the_same_answer_and_a_mail_without_a_code(human):
    client = APIClient()
    taken = start(client, human.email.upper())
    free = start(client, "free@example.com")
    assert taken.status_code == free.status_code == 201
    assert list(taken.json()) == list(free.json()) == ["signupId"]
    notice = last_mail_to(human.email)
    assert notice.subject == last_mail_to("free@example.com").subject
    assert not CODE.search(notice.body) and "already exists" in notice.body
    # No code can match: every guess reads as a plain mismatch, as for a free address.
    for guess in ("000000", "123456"):
        response = verify(client, taken.json()["signupId"], guess)
        assert response.json() == {"error": "Verification code mismatch."}
    assert User.objects.filter(email=human.email).count() == 1


def test_an_address_taken_between_start_and_verify_is_refused():
    client = APIClient()
    signup_id = start(client, "race@example.com").json()["signupId"]
    code = code_sent_to("race@example.com")
    other = start(client, "race@example.com").json()["signupId"]
    assert verify(client, other, code_sent_to("race@example.com")).status_code == 201
    response = verify(client, signup_id, code)
    assert response.json() == {"error": "Email already in use."}
    assert User.objects.filter(email="race@example.com").count() == 1


def test_the_mail_limits_per_address_domain_and_site(settings):
    settings.STGY_MAIL_CLIENT_LIMIT_PER_MIN = 100  # one client here (tests/accounts/test_mail_budgets.py)
    client = APIClient()
    assert start(client, "one@example.com").status_code == 201
    assert start(client, "one@example.com").status_code == 201
    response = start(client, "one@example.com")
    assert response.status_code == 400 and response.json() == {"error": "address limit exceeded"}
    settings.STGY_MAIL_DOMAIN_LIMIT_PER_MIN = 3
    assert start(client, "two@example.com").status_code == 201
    response = start(client, "three@example.com")
    assert response.json() == {"error": "domain limit exceeded"}
    settings.STGY_MAIL_GLOBAL_LIMIT_PER_MIN = 4
    assert start(client, "x@elsewhere.org").status_code == 201
    response = start(client, "y@another.net")
    assert response.json() == {"error": "global limit exceeded"}
    assert len(mail.outbox) == 4


def test_the_hourly_sign_up_limit(settings):
    settings.STGY_HOURLY_GLOBAL_SIGNUP_COUNT_LIMIT = 1
    client = APIClient()
    first = start(client, "first@example.com").json()["signupId"]
    second = start(client, "second@example.com").json()["signupId"]
    assert verify(client, first, code_sent_to("first@example.com")).status_code == 201
    response = verify(client, second, code_sent_to("second@example.com"))
    assert response.status_code == 403 and response.json() == {"error": "too often signups"}
    response = start(client, "third@example.com")
    assert response.status_code == 403 and response.json() == {"error": "too often signups"}
    assert not User.objects.filter(email="second@example.com").exists()
