"""The light/dark theme a person picks (the footer's switch): a cookie, so it applies
before any script runs and without an account; "system" follows the device's setting
(static/stgy.css, prefers-color-scheme)."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from .pageview import safe_next

COOKIE = "stgy_theme"
THEMES = (("system", "System"), ("light", "Light"), ("dark", "Dark"))
_VALUES = {value for value, _ in THEMES}


def theme_of(request) -> str:
    value = request.COOKIES.get(COOKIE, "") if request is not None else ""
    return value if value in _VALUES else "system"


@require_POST
def theme(request):
    choice = request.POST.get("theme", "")
    response = redirect(safe_next(request) or "/")
    if choice in _VALUES:
        response.set_cookie(
            COOKIE, choice, max_age=365 * 86400, samesite="Lax", httponly=True,
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response
