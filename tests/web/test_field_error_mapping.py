"""Which field a rulebook error concerns (sns/web/field_errors.py), and how its message
reads beside that field."""

from __future__ import annotations

import pytest

from sns.core.errors import InvalidInput, Throttled
from sns.web.field_errors import error_field, field_message


@pytest.mark.parametrize(
    "error, fields, expected",
    [
        (InvalidInput("content is too long"), ["content", "tags"], "content"),
        (InvalidInput("tags are too many"), ["content", "tags"], "tags"),
        (InvalidInput("invalid designTheme"), ["design_theme"], "design_theme"),
        (InvalidInput("siteName is too long"), ["site_name"], "site_name"),
        (InvalidInput("timezone is invalid"), ["timezone"], "timezone"),
        (InvalidInput("This password is too common.", field="password"), ["new_password"], "new_password"),
        (InvalidInput("password required"), ["password"], "password"),
        (InvalidInput("Verification code mismatch.", field="code"), ["code"], "code"),
        # The field must be one the form has: otherwise, no field (a banner).
        (InvalidInput("content is too long"), ["nickname"], None),
        (InvalidInput("blocked by the owner"), ["content"], None),
        (Throttled("too often posts"), ["content"], None),
        (InvalidInput(""), ["content"], None),
    ],
)
def test_error_field(error, fields, expected):
    assert error_field(error, fields) == expected


def test_field_message_uses_the_label():
    assert field_message("siteName is too long", "site_name", "Site name") == "Site name is too long"
    assert field_message("content is too long", "content", "Reply") == "Reply is too long"
    assert field_message("password required", "new_password", "New password") == "New password required"
    # A message that does not start with the field keeps its words, capitalised.
    assert field_message("invalid sidebar count", "show_side_recent", "Recent") == "Invalid sidebar count"
    assert field_message("Email already in use.", "email", "Email") == "Email already in use."
