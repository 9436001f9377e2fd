"""Reading verification codes out of the mails Django's test outbox holds."""

from __future__ import annotations

import re

from django.core import mail

CODE = re.compile(r"\b(\d{6})\b")


def last_mail_to(address: str):
    sent = [m for m in mail.outbox if address in m.to]
    assert sent, f"no mail to {address}"
    return sent[-1]


def code_sent_to(address: str) -> str:
    match = CODE.search(last_mail_to(address).body)
    assert match, "the mail carries no code"
    return match.group(1)


def sign_up_through_the_code(*, email, nickname, password, **start):
    """The pages' sign-up, service by service: start, the code from the mail, then
    nickname and password."""
    from sns.services import accounts

    row = accounts.signup_start(email=email, **start)
    accounts.signup_check_code(str(row.id), code_sent_to(row.email))
    return accounts.signup_complete(str(row.id), nickname=nickname, password=password)
