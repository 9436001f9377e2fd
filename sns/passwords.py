"""Password rules beyond Django's stock validators."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class NotBlankValidator:
    """A password of spaces only is no password, however long it is."""

    def validate(self, password: str, user=None) -> None:
        if not password.strip():
            raise ValidationError("password must not be blank", code="password_blank")

    def get_help_text(self) -> str:
        return "Your password cannot consist of spaces only."
