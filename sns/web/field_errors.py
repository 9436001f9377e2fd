"""Which form field a rulebook error concerns, so a page can show it beside that field.

The services speak the API's vocabulary: their messages start with the field they
refuse ("content is too long", "nickname is required", "tags are too many"), or say
"invalid <field>" ("invalid designTheme"), or carry the field explicitly
(`DomainError(..., field="code")`, for messages such as "Verification code mismatch."
that name no field). The API's names are camelCase, the forms' snake_case; a few forms
call the service's field by another name (the password forms' `new_password`).

An error that concerns no field of the submitted form (a throttle, "blocked by the
owner") stays a banner at the top of the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.text import capfirst

from sns.core.errors import DomainError

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
# A service's field name -> the form fields that carry it, in order of preference.
_ALIASES = {
    "password": ("password", "new_password"),
    "timezone_name": ("timezone",),
}


def _snake(name: str) -> str:
    return _CAMEL.sub(r"_\1", name).lower()


def _candidates(exc: DomainError) -> list[str]:
    names = [exc.field] if getattr(exc, "field", None) else []
    words = _WORD.findall(exc.message)
    if words:
        names.append(words[0])
        if words[0].lower() == "invalid" and len(words) > 1:
            names.append(words[1])
    found: list[str] = []
    for name in names:
        snake = _snake(name)
        found.extend(_ALIASES.get(snake, (snake,)))
    return found


def error_field(exc: DomainError, field_names: Iterable[str]) -> str | None:
    """The first of `field_names` (a form's fields, or the keys a form posted) that the
    error concerns, or None."""
    names = set(field_names)
    return next((name for name in _candidates(exc) if name in names), None)


def field_message(message: str, name: str, label) -> str:
    """The rulebook's message as a sentence for a person beside the field `name`: the
    API's name of the field it starts with becomes the field's label ("siteName is too
    long" -> "Site name is too long"). The API keeps the message as it is."""
    match = _WORD.match(message)
    if match and name in _ALIASES.get(_snake(match.group()), (_snake(match.group()),)):
        message = f"{label}{message[match.end():]}"
    return capfirst(message)


def attach_errors(form, errors: dict[str, str]) -> dict[str, str]:
    """Put kept errors on an unbound form's fields, so they render beside them with
    aria-invalid and an aria-describedby that points at the message (Django's own
    field rendering). Returns the errors that match no field of this form."""
    if not errors:
        return {}
    form.cleaned_data = {}  # add_error expects it; an unbound form has none
    left = {}
    for name, message in errors.items():
        # A hidden field (the sign-up form's language) has nowhere to show it: a banner.
        if name in form.fields and not form.fields[name].widget.is_hidden:
            form.add_error(name, field_message(message, name, form.fields[name].label or name))
            # The first refused field takes the focus when the page loads.
            if len(form.errors) == 1:
                form.fields[name].widget.attrs["autofocus"] = True
        else:
            left[name] = message
    return left
