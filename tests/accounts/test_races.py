"""Tries and single use hold when requests race (PostgreSQL, real transactions)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from sns.core.errors import InvalidInput
from sns.models import EmailVerification, User
from sns.services import accounts
from tests.accounts.mailbox import code_sent_to
from tests.conftest import requires_postgres

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]


def _race(count: int, work) -> list:
    """Run `work()` on `count` threads released together; their results or errors."""
    gate = threading.Barrier(count)
    results: list = []
    lock = threading.Lock()

    def run():
        gate.wait()
        try:
            outcome = work()
        except InvalidInput as exc:
            outcome = exc.message
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_racing_guesses_cannot_exceed_the_tries(settings):
    settings.STGY_VERIFICATION_MAX_ATTEMPTS = 3
    row = accounts.signup_start(email="race@example.com", password="lantern-orchard-42")
    right = code_sent_to("race@example.com")
    wrong = "111111" if right == "000000" else "000000"
    results = _race(8, lambda: accounts.signup_verify(str(row.id), wrong))
    assert sorted(results) == sorted(
        ["Verification code mismatch."] * 3 + ["Signup info not found or expired."] * 5
    )
    assert EmailVerification.objects.get().attempts == 3


def test_the_right_code_racing_itself_makes_one_account():
    row = accounts.signup_start(email="twice@example.com", password="lantern-orchard-42")
    code = code_sent_to("twice@example.com")
    results = _race(4, lambda: accounts.signup_verify(str(row.id), code))
    users = [r for r in results if isinstance(r, User)]
    assert len(users) == 1
    assert set(r for r in results if not isinstance(r, User)) <= {
        "Signup info not found or expired."
    }
    assert User.objects.filter(email="twice@example.com").count() == 1
    assert not EmailVerification.objects.exists()
