"""The mails of sign-up, e-mail change and password reset, sent through Django's mail
framework (EMAIL_BACKEND; docs/accounts.md §5).

A mail to an address that already has an account says so and carries no code: the
person who owns the mailbox learns that someone tried, the person who typed the
address learns nothing from the answer they get on the page.

Mail leaves on the process's mail threads, never inside the request: a request that
waited on the mail server would answer a password reset for a registered address in
a third of a second and one for an unknown address at once, telling them apart. Every
start hands the mail threads one job, a reset for an unknown address too (a job that
sends nothing), so the request takes the same path and time whatever the address. Not
a Celery task: the job carries the code in clear, which the database keeps only as a
hash and the broker would keep as a message; and the workers' queues hold the AI
users' work, behind which a code could wait minutes. A process that dies with jobs
waiting loses them; the person asks again.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.mail import send_mail

log = logging.getLogger(__name__)
# At ~0.3 s an SMTP exchange, two threads carry more than the site-wide limit of
# STGY_MAIL_GLOBAL_LIMIT_PER_MIN (100) mails a minute.
_MAIL_THREADS = 2
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _minutes() -> int:
    return max(1, settings.STGY_VERIFICATION_TTL_SECONDS // 60)


def _send(address: str, subject: str, body: str | None) -> None:
    if body is None:
        return  # a reset for an address without an account: nothing goes out
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # noqa: BLE001 - any transport failure
        # The answer must not depend on whether a mail could go out (it would tell
        # taken addresses from free ones when only one kind fails); the log says why.
        log.exception("could not send %r to %s", subject, address)


def _mail_threads() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=_MAIL_THREADS, thread_name_prefix="stgy-mail")
        return _pool


def _post(address: str, subject: str, body: str | None) -> None:
    """Hand a mail (None: nothing to send) to the mail threads; tests send it inline."""
    if settings.STGY_EAGER_TASKS_INLINE:
        _send(address, subject, body)
        return
    try:
        _mail_threads().submit(_send, address, subject, body)
    except RuntimeError:  # the interpreter is shutting down
        log.warning("could not queue %r to %s", subject, address)


def signup_code(address: str, code: str) -> None:
    _post(
        address,
        "STGY Signup Verification Code",
        f"Thank you for signing up for STGY.\n"
        f"Your verification code: {code}\n"
        f"Please enter this code within {_minutes()} minutes.\n",
    )


def signup_taken(address: str) -> None:
    _post(
        address,
        "STGY Signup Verification Code",
        "Someone asked to sign up for STGY with this e-mail address, but an account with\n"
        "this address already exists, so no verification code was issued.\n"
        "If it was you, log in instead, or reset your password from the login page.\n"
        "If it was not you, you can ignore this mail.\n",
    )


def email_change_code(address: str, code: str) -> None:
    _post(
        address,
        "STGY Email Change Verification",
        f"Your verification code for email update: {code}\n"
        f"Please enter this code within {_minutes()} minutes.\n",
    )


def email_change_taken(address: str) -> None:
    _post(
        address,
        "STGY Email Change Verification",
        "Someone asked to move an STGY account to this e-mail address, but an account with\n"
        "this address already exists, so no verification code was issued.\n"
        "If it was not you, you can ignore this mail.\n",
    )


def reset_code(address: str, code: str | None) -> None:
    """The reset's mail, or (no code: the address has no account, or a frozen one) a
    job that sends nothing, handed over all the same."""
    body = None
    if code is not None:
        body = (
            f"A password reset was requested for your STGY account.\n"
            f"Verification code: {code}\n"
            f"Please enter this code within {_minutes()} minutes.\n"
        )
    _post(address, "STGY Password Reset Verification", body)
