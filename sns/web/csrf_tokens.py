"""The masked CSRF token a page's forms carry, as `django.middleware.csrf.get_token`
gives it, with the mask drawn in one call.

Django masks the secret with a fresh random string on every call (against BREACH) and
draws that string one character at a time through `secrets.choice`, some 250 Python
calls per page; that and the masking were ≈ 5 % of a home view's calls, more than any
middleware. Here the mask's 32 characters come
from one `secrets.token_bytes`, each byte below 248 (four times the 62 characters)
taken modulo 62, so every character stays uniformly random as `secrets.choice` makes
it; the token's form (mask then masked secret, 64 characters of the same alphabet) is
Django's, which unmasks and checks it on the POST.
"""

from __future__ import annotations

import secrets

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token

_BASE = len(CSRF_ALLOWED_CHARS)
_INDEX = {char: i for i, char in enumerate(CSRF_ALLOWED_CHARS)}
# The largest multiple of the alphabet's length a byte can hold: a byte below it, taken
# modulo that length, is every character equally often.
_FAIR = 256 // _BASE * _BASE


def _mask_digits() -> list[int]:
    digits: list[int] = []
    while len(digits) < CSRF_SECRET_LENGTH:  # 40 bytes hold 32 fair ones but about once in 300,000
        digits += [byte % _BASE for byte in secrets.token_bytes(40) if byte < _FAIR]
    return digits[:CSRF_SECRET_LENGTH]


def masked_token(request) -> str:
    """`get_token(request)`: the request's CSRF secret masked anew, and the CSRF cookie
    marked to be sent again (renewing its expiry)."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None:  # no secret yet: Django makes one and the cookie that carries it
        return get_token(request)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = _mask_digits()
    chars = CSRF_ALLOWED_CHARS
    return "".join([chars[m] for m in mask]) + "".join(
        [chars[(_INDEX[c] + m) % _BASE] for c, m in zip(secret, mask)]
    )
