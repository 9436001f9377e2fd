"""Sign-up, e-mail change and password reset, each proved by a code sent by mail
(docs/accounts.md). The routes and their messages are the original's.

What a stranger can learn is the same for every address: sign-up and e-mail change
answer alike for a taken and a free address (the mail to a taken one says so instead
of carrying a code, so no code typed for it can ever match), and a password reset for
an address without an account gets a row, a web code and the mail limits' count like a
real one, only no mail.

A failed request changes no account: the only write it makes is the try it used up
(sns/services/verification.py).
"""

from __future__ import annotations


from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..core import mail_limits, mailer
from ..reads.access import access_user_self_or_admin, access_writable
from ..core.errors import InvalidInput
from ..models import User
from ..models.accounts import EmailVerification, VerificationPurpose
from ..auth.session import auth_record_forget
from ..core.text import normalize_locale, normalize_timezone
from . import verification
from .users import _clean_email, _clean_password, owner_proof, user_create_verified

SIGNUP_MISSING = "Signup info not found or expired."
EMAIL_MISSING = "Update email info not found or expired."
RESET_MISSING = "Reset session not found or expired"
CODE_MISMATCH = "Verification code mismatch."
EMAIL_TAKEN = "Email already in use."
USER_MISMATCH = "Session/user mismatch"


def _address(email) -> str:
    try:
        return _clean_email(email)
    except InvalidInput:
        raise InvalidInput("invalid e-mail address", field="email") from None


def _taken(email: str) -> bool:
    return User.objects.filter(email=email).exists()


# ----------------------------------------------------------------------------- sign-up


def signup_start(
    *, email, password=None, locale=None, timezone_name=None, client=None
) -> EmailVerification:
    """Send a sign-up code to `email`. `password` (the API takes it here, the pages
    after the code) is checked now, against the e-mail and the nickname the account
    will start with, and kept only as a hash. `client` is the asking client's address
    (`mail_limits.client_of`), for its mail budget."""
    email = _address(email)
    fields = {
        "locale": _or_invalid(normalize_locale, locale or "en-US", "invalid locale"),
        "timezone": _or_invalid(normalize_timezone, timezone_name or "UTC", "invalid timezone"),
    }
    mail_limits.signup_room()
    if password is not None:
        probe = User(email=email, nickname=_default_nickname(email))
        fields["password"] = make_password(_clean_password(password, probe))
    mail_limits.mail_allow(email, client=client)
    taken = _taken(email)
    row, code, _ = verification.issue(
        VerificationPurpose.SIGNUP, email, with_code=not taken, **fields
    )
    if taken:
        mailer.signup_taken(email)
    else:
        mailer.signup_code(email, code)
    return row


def _or_invalid(normalize, value, message: str) -> str:
    try:
        return normalize(value)
    except InvalidInput:
        raise InvalidInput(message) from None


def _default_nickname(email: str) -> str:
    # The original names a new account after the local part of its address.
    return email.split("@", 1)[0][:50] or "user"


def _spend_signup_try(signup_id):
    # Outside the transaction that checks the code: a refusal must keep the try spent.
    return verification.spend_attempt(VerificationPurpose.SIGNUP, signup_id, SIGNUP_MISSING)


def _code_right(row: EmailVerification, code) -> None:
    if not verification.code_matches(row, row.code_hash, code):
        raise InvalidInput(CODE_MISMATCH, field="code")


def signup_verify(signup_id, code) -> User:
    """POST /signup/verify: the code and the password given at the start make the
    account, named after the address's local part."""
    mail_limits.signup_room()
    verification_id = _spend_signup_try(signup_id)
    with transaction.atomic():
        row = verification.lock(verification_id, SIGNUP_MISSING)
        _code_right(row, code)
        if not row.password:
            # Started on the sign-up page, which asks for the password after the code.
            raise InvalidInput(SIGNUP_MISSING)
        user = _create_from(row, nickname=_default_nickname(row.email), password_hash=row.password)
    mail_limits.signup_done()
    return user


def signup_check_code(signup_id, code) -> EmailVerification:
    """The sign-up page's second step: the code is right, nickname and password next."""
    mail_limits.signup_room()
    verification_id = _spend_signup_try(signup_id)
    with transaction.atomic():
        row = verification.lock(verification_id, SIGNUP_MISSING)
        _code_right(row, code)
        row.verified = True
        row.save(update_fields=["verified"])
    return row


def signup_complete(signup_id, *, nickname, password) -> User:
    """The sign-up page's last step, on a row whose code was checked."""
    mail_limits.signup_room()
    verification_id = verification.parse_id(signup_id)
    if verification_id is None:
        raise InvalidInput(SIGNUP_MISSING)
    with transaction.atomic():
        row = verification.lock(verification_id, SIGNUP_MISSING)
        if row.purpose != VerificationPurpose.SIGNUP or not row.verified:
            raise InvalidInput(SIGNUP_MISSING)
        user = _create_from(row, nickname=nickname, password=password)
    mail_limits.signup_done()
    return user


def _create_from(row: EmailVerification, **account) -> User:
    if _taken(row.email):
        raise InvalidInput(EMAIL_TAKEN, field="email")
    user = user_create_verified(
        email=row.email, locale=row.locale, timezone_name=row.timezone, **account
    )
    row.delete()
    return user


# ----------------------------------------------------------------------------- e-mail change


def email_change_start(
    actor: User, user_id: int, email, *, client=None, current_password=None, logged_in_at=None
) -> EmailVerification:
    """Mail a code to the new address. Proving the new mailbox is not proving the
    account: a person moving their own account gives the current password or acts
    from a recent login (`owner_proof`), or a stolen session could move it to the
    thief's mailbox and reset the password from there."""
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    owner_proof(actor, user, current_password=current_password, logged_in_at=logged_in_at)
    email = _address(email)
    mail_limits.mail_allow(email, client=client)
    taken = _taken(email)
    row, code, _ = verification.issue(
        VerificationPurpose.EMAIL, email, user=user, with_code=not taken
    )
    if taken:
        mailer.email_change_taken(email)
    else:
        mailer.email_change_code(email, code)
    return row


def email_change_verify(actor: User, user_id: int, update_email_id, code) -> User:
    access_writable(actor)
    user = access_user_self_or_admin(actor, user_id)
    verification_id = verification.spend_attempt(VerificationPurpose.EMAIL, update_email_id, EMAIL_MISSING)
    with transaction.atomic():
        row = verification.lock(verification_id, EMAIL_MISSING)
        if row.user_id != user.id:
            raise InvalidInput(USER_MISMATCH)
        if not verification.code_matches(row, row.code_hash, code):
            raise InvalidInput(CODE_MISMATCH, field="code")
        if _taken(row.email):
            raise InvalidInput(EMAIL_TAKEN, field="email")
        user.email = row.email
        user.updated_at = timezone.now()
        user.save(update_fields=["email", "updated_at"])
        row.delete()
    return user


# ----------------------------------------------------------------------------- password reset


def password_reset_start(email, *, client=None) -> tuple[EmailVerification, str]:
    """(row, web code). Frozen accounts other than admins' cannot reset, as in the
    original; they get the same answer as an unknown address."""
    email = _address(email)
    mail_limits.mail_allow(email, client=client)
    user = User.objects.filter(Q(is_admin=True) | Q(is_frozen=False), email=email).first()
    row, code, web_code = verification.issue(
        VerificationPurpose.RESET, email, user=user, with_code=user is not None, with_web_code=True
    )
    # Handed to the mail threads either way (code None: nothing is sent), so that the
    # answer takes the same path and time whether the address has an account.
    mailer.reset_code(email, code)
    return row, web_code


def password_reset_verify(*, email, reset_password_id, web_code, mail_code, new_password) -> User:
    verification_id = verification.spend_attempt(VerificationPurpose.RESET, reset_password_id, RESET_MISSING)
    with transaction.atomic():
        row = verification.lock(verification_id, RESET_MISSING)
        if not isinstance(email, str) or row.email != email.strip().lower():
            raise InvalidInput(USER_MISMATCH)
        if not verification.code_matches(row, row.web_code_hash, web_code):
            raise InvalidInput("Web verification code mismatch")
        if not verification.code_matches(row, row.code_hash, mail_code):
            raise InvalidInput("Mail verification code mismatch", field="code")
        user = User.objects.select_for_update().filter(pk=row.user_id).first()
        if user is None:
            raise InvalidInput(RESET_MISSING)
        if user.is_frozen and not user.is_admin:
            raise InvalidInput("User is frozen")
        user.set_password(_clean_password(new_password, user))
        user.updated_at = timezone.now()
        # A new password changes the session hash: every session of the account ends.
        user.save(update_fields=["password", "updated_at"])
        auth_record_forget(user.id)
        row.delete()
    return user
