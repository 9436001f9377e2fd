"""Verification mail leaves on the mail threads, not inside the request: a password reset
answers alike, by the same path, for a registered and an unknown address, even while
the mail server takes its time, and the mail still arrives (sns/core/mailer.py,
docs/accounts.md §5). The mail goes through Django's real SMTP backend to a server of
the test's own (tests/smtp_server.py)."""

from __future__ import annotations

import re
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.clients import APIClient
from tests.smtp_server import smtp_server  # noqa: F401

pytestmark = pytest.mark.django_db


def reset_start(address: str):
    return APIClient().post(
        "/api/users/password/reset/start", {"email": address}, format="json"
    )


def arrived(server, address: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not server.sent_to(address):
        assert time.monotonic() < deadline, f"no mail to {address} arrived"
        time.sleep(0.02)
    return server.sent_to(address)


@pytest.fixture
def mail_as_in_production(settings):
    settings.STGY_EAGER_TASKS_INLINE = False
    settings.EMAIL_TIMEOUT = 2


def test_a_reset_answers_alike_whether_the_address_is_registered(
    mail_as_in_production, smtp_server, human  # noqa: F811
):
    smtp_server.hold()  # the mail server takes connections but answers nothing yet
    try:
        with CaptureQueriesContext(connection) as known_queries:
            known = reset_start(human.email)
        with CaptureQueriesContext(connection) as unknown_queries:
            unknown = reset_start("nobody@example.com")
        assert known.status_code == unknown.status_code == 201
        assert list(known.json()) == list(unknown.json()) == ["resetPasswordId", "webCode"]
        assert len(known_queries) == len(unknown_queries)
        assert smtp_server.messages == []  # both answered before any mail went out
    finally:
        smtp_server.release()

    message = arrived(smtp_server, human.email)[0]
    assert message["Subject"] == "STGY Password Reset Verification"
    code = re.search(r"\b(\d{6})\b", message.get_payload()).group(1)
    response = APIClient().post(
        "/api/users/password/reset/verify",
        {
            "email": human.email,
            "resetPasswordId": known.json()["resetPasswordId"],
            "webCode": known.json()["webCode"],
            "mailCode": code,
            "newPassword": "fresh-meadow-lantern",
        },
        format="json",
    )
    assert response.status_code == 200
    assert smtp_server.sent_to("nobody@example.com") == []


def test_a_sign_up_mail_is_sent_off_the_request_too(mail_as_in_production, smtp_server):  # noqa: F811
    smtp_server.hold()
    try:
        response = APIClient().post(
            "/api/signup/start",
            {"email": "newcomer@example.com", "password": "lantern-orchard-42"},
            format="json",
        )
        assert response.status_code == 201
    finally:
        smtp_server.release()
    message = arrived(smtp_server, "newcomer@example.com")[0]
    assert message["Subject"] == "STGY Signup Verification Code"
