"""The mails of sign-up, e-mail change and password reset, sent through Django's mail
framework (EMAIL_BACKEND; docs/accounts.md §5).

A mail to an address that already has an account says so and carries no code: the
person who owns the mailbox learns that someone tried, the person who typed the
address learns nothing from the answer they get on the page.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail

log = logging.getLogger(__name__)


def _minutes() -> int:
    return max(1, settings.STGY_VERIFICATION_TTL_SECONDS // 60)


def _send(address: str, subject: str, body: str) -> None:
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # noqa: BLE001 - any transport failure
        # The answer must not depend on whether a mail could go out (it would tell
        # taken addresses from free ones when only one kind fails); the log says why.
        log.exception("could not send %r to %s", subject, address)


def signup_code(address: str, code: str) -> None:
    _send(
        address,
        "STGY Signup Verification Code",
        f"Thank you for signing up for STGY.\n"
        f"Your verification code: {code}\n"
        f"Please enter this code within {_minutes()} minutes.\n",
    )


def signup_taken(address: str) -> None:
    _send(
        address,
        "STGY Signup Verification Code",
        "Someone asked to sign up for STGY with this e-mail address, but an account with\n"
        "this address already exists, so no verification code was issued.\n"
        "If it was you, log in instead, or reset your password from the login page.\n"
        "If it was not you, you can ignore this mail.\n",
    )


def email_change_code(address: str, code: str) -> None:
    _send(
        address,
        "STGY Email Change Verification",
        f"Your verification code for email update: {code}\n"
        f"Please enter this code within {_minutes()} minutes.\n",
    )


def email_change_taken(address: str) -> None:
    _send(
        address,
        "STGY Email Change Verification",
        "Someone asked to move an STGY account to this e-mail address, but an account with\n"
        "this address already exists, so no verification code was issued.\n"
        "If it was not you, you can ignore this mail.\n",
    )


def reset_code(address: str, code: str) -> None:
    _send(
        address,
        "STGY Password Reset Verification",
        f"A password reset was requested for your STGY account.\n"
        f"Verification code: {code}\n"
        f"Please enter this code within {_minutes()} minutes.\n",
    )
