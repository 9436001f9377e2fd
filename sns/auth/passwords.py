"""The one password rule, for the API, the pages, the admin site and the management
commands alike (docs/accounts.md §6): `password_check` runs AUTH_PASSWORD_VALIDATORS,
which hold these validators of ours beside Django's stock ones."""

from __future__ import annotations

import re

from django.contrib.auth import password_validation
from django.contrib.auth.password_validation import UserAttributeSimilarityValidator
from django.core.exceptions import FieldDoesNotExist, ValidationError

from ..core.errors import InvalidInput
from ..core.textguard import refuse_invalid


def password_check(password, user=None, *, self_service: bool = True) -> str:
    """`password` unchanged, or InvalidInput (400) with the validators' sentences.
    Self-service passwords (sign-up, reset, a person's own) meet every validator, with
    `user` (saved or not) the account they are for; one an admin sets only has to be
    non-blank, as in the original."""
    if not isinstance(password, str) or not password:
        raise InvalidInput("password required")
    refuse_invalid(password, "password")
    validators = None if self_service else [NotBlankValidator()]
    try:
        password_validation.validate_password(password, user, password_validators=validators)
    except ValidationError as exc:
        raise InvalidInput(" ".join(exc.messages), field="password") from None
    return password


class NotBlankValidator:
    """A password of spaces only is no password, however long it is."""

    def validate(self, password: str, user=None) -> None:
        if not password.strip():
            raise ValidationError("password must not be blank", code="password_blank")

    def get_help_text(self) -> str:
        return "Your password cannot consist of spaces only."


_SEPARATORS = re.compile(r"[\W_]+")
# Pieces shorter than this are too common inside other words to count as personal.
_MIN_PIECE = 3
# What must be left of a password once the personal pieces are taken out of it.
_MIN_LETTERS_LEFT = 4


def _pieces(value: str) -> set[str]:
    """The pieces a person's e-mail or nickname offers a guesser: each word of it, and
    each side of an "@" with its separators removed ("j.smith" -> "jsmith")."""
    value = value.lower()
    chunks = [value, *value.split("@")]
    pieces = {piece for chunk in chunks for piece in _SEPARATORS.split(chunk)}
    pieces |= {_SEPARATORS.sub("", chunk) for chunk in chunks}
    return {piece for piece in pieces if len(piece) >= _MIN_PIECE}


class PersonalInfoValidator(UserAttributeSimilarityValidator):
    """Django's similarity check, and one it misses: a password built from the account's
    own e-mail or nickname. Django compares the whole password with each attribute by a
    ratio, so "jsmith2024!" passes for j.smith@bigcorporation.example (the local part
    plus digits) and "AliceAlice" for the nickname Alice (the name doubled). Here every
    piece of those attributes is taken out of the password, and fewer than four letters
    left means it was made of them."""

    def validate(self, password: str, user=None) -> None:
        super().validate(password, user)
        if user is None:
            return
        rest = password.lower()
        taken: dict[str, int] = {}
        for attribute in self.user_attributes:
            value = getattr(user, attribute, None)
            if not isinstance(value, str):
                continue
            for piece in sorted(_pieces(value), key=len, reverse=True):
                before = len(rest)
                rest = rest.replace(piece, "")
                taken[attribute] = taken.get(attribute, 0) + before - len(rest)
        if not any(taken.values()):
            return
        if sum(ch.isalpha() for ch in rest) < _MIN_LETTERS_LEFT:
            attribute = max(taken, key=taken.get)
            try:
                name = str(user._meta.get_field(attribute).verbose_name)
            except FieldDoesNotExist:
                name = attribute
            raise ValidationError(
                self.get_error_message(),
                code="password_too_similar",
                params={"verbose_name": name},
            )
