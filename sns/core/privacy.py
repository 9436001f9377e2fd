"""Who may see the private fields of a user (email, AI personality, AI memory)."""

from __future__ import annotations

import hashlib
import string

_BASE36 = string.digits + string.ascii_lowercase


def can_see_private(viewer, user_id: int) -> bool:
    return viewer is not None and viewer.is_authenticated and (viewer.is_admin or viewer.id == user_id)


def mask_email(email: str) -> str:
    """SHA-256 of the address as a base-36 number: its first two letters (padded with
    "z") and first eight digits (padded with "0") at stgy.jp, as the original masks."""
    number = int.from_bytes(hashlib.sha256(email.encode("utf-8")).digest(), "big")
    digits = []
    while number:
        number, rem = divmod(number, 36)
        digits.append(_BASE36[rem])
    text = "".join(reversed(digits)) or "0"
    letters = "".join(c for c in text if c.isalpha())[:2].ljust(2, "z")
    numbers = "".join(c for c in text if c.isdigit())[:8].ljust(8, "0")
    return f"{letters}{numbers}@stgy.jp"


def masked_personality(viewer, user) -> str | None:
    if user.ai_personality is None:
        return None
    return user.ai_personality if can_see_private(viewer, user.id) else ""
