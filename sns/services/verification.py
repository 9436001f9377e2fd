"""The mechanics every e-mail verification shares (docs/accounts.md §2).

* A code is six random digits, sent by mail and stored only as an HMAC keyed with
  SECRET_KEY, so a database copy does not give the codes away.
* A row lives STGY_VERIFICATION_TTL_SECONDS and allows STGY_VERIFICATION_MAX_ATTEMPTS
  tries. `spend_attempt` counts a try with one conditional UPDATE *before* any code is
  compared, so parallel guesses cannot exceed the limit; a row out of tries or time
  answers as a missing one.
* `lock` then takes the row FOR UPDATE inside the caller's transaction; the caller
  deletes it when the code is used, so a code works once, and two requests racing with
  the right code get one success and one "not found".
"""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from ..core.errors import InvalidInput
from ..models.accounts import EmailVerification

_HMAC_SALT = "sns.verification"


def new_code() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"


def code_hash(verification_id: uuid.UUID, code: str) -> str:
    return salted_hmac(_HMAC_SALT, f"{verification_id}:{code}", algorithm="sha256").hexdigest()


def code_matches(row: EmailVerification, stored_hash: str, code) -> bool:
    if not stored_hash or not isinstance(code, str):
        return False
    return constant_time_compare(stored_hash, code_hash(row.id, code.strip()))


def issue(purpose: str, email: str, *, with_code: bool = True, with_web_code: bool = False, **fields):
    """A new verification row; returns (row, mail code or None, web code or None)."""
    now = timezone.now()
    # Expired rows are of no use to anyone; sweeping them here keeps the table small
    # without a periodic task (the expiry index makes this cheap).
    EmailVerification.objects.filter(expires_at__lte=now).delete()
    row = EmailVerification(
        purpose=purpose,
        email=email,
        created_at=now,
        expires_at=now + timedelta(seconds=settings.STGY_VERIFICATION_TTL_SECONDS),
        **fields,
    )
    code = new_code() if with_code else None
    web_code = new_code() if with_web_code else None
    row.code_hash = code_hash(row.id, code) if code else ""
    row.web_code_hash = code_hash(row.id, web_code) if web_code else ""
    row.save(force_insert=True)
    return row, code, web_code


def parse_id(raw) -> uuid.UUID | None:
    if not isinstance(raw, str):
        return None
    try:
        return uuid.UUID(raw.strip())
    except ValueError:
        return None


def spend_attempt(purpose: str, raw_id, missing: str) -> uuid.UUID:
    """Count one try of the row `raw_id` names, or raise InvalidInput(missing) when
    there is no such live row with tries left. Runs in its own autocommit statement:
    a refused code must still have used up its try."""
    verification_id = parse_id(raw_id)
    spent = verification_id is not None and EmailVerification.objects.filter(
        pk=verification_id,
        purpose=purpose,
        expires_at__gt=timezone.now(),
        attempts__lt=settings.STGY_VERIFICATION_MAX_ATTEMPTS,
    ).update(attempts=F("attempts") + 1)
    if not spent:
        raise InvalidInput(missing)
    return verification_id


def lock(verification_id: uuid.UUID, missing: str) -> EmailVerification:
    """The row, locked until the caller's transaction ends; call inside atomic()."""
    row = (
        EmailVerification.objects.select_for_update()
        .filter(pk=verification_id, expires_at__gt=timezone.now())
        .first()
    )
    if row is None:
        raise InvalidInput(missing)
    return row
