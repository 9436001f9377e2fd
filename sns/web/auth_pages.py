"""Log in, log out, change password (sign-up and the other mailed-code pages are
account_pages.py's)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.throttling import ScopedRateThrottle

from sns.selectors import agreements as selectors_agreements
from sns.core.errors import InvalidInput, Throttled
from sns.services.sessions import session_login, session_logout, session_password_change

from .forms import LoginForm, PasswordForm
from .pageview import bound_form, page, safe_next


class _LoginScope:
    throttle_scope = "login"


def _login_allowed(request) -> bool:
    """The API's login throttle, counted in the same buckets: a password guesser gains
    nothing by switching between the login page and POST /api/auth."""
    return ScopedRateThrottle().allow_request(request, _LoginScope())


def _terms_for(request) -> dict:
    """The newest terms of use in the browser's first language, for the sign-up form."""
    term = selectors_agreements.agreement_latest()
    if term is None:
        return {"agreement": None, "agreement_text": ""}
    locale = request.META.get("HTTP_ACCEPT_LANGUAGE", "en").split(",")[0].split(";")[0]
    return {"agreement": term, "agreement_text": term.text_for(locale.strip())}


@require_http_methods(["GET", "POST"])
@page(public=True)
def login_page(request):
    if request.user.is_authenticated:
        return redirect("web:home")
    form = bound_form(request, LoginForm)
    if request.method == "POST" and form.is_valid():
        if not _login_allowed(request):
            raise Throttled("too many login attempts; wait a minute")
        email, password = form.cleaned_data["email"], form.cleaned_data["password"]
        if session_login(request, email=email, password=password) is None:
            # Not LoginRequired (401): that one would send the person back here silently.
            raise InvalidInput("The email or the password is not correct.", field="password")
        return redirect(safe_next(request) or "web:home")
    return render(request, "auth/login.html", {"form": form, "next": safe_next(request) or ""})


@require_POST
@page(public=True)
def logout_page(request):
    session_logout(request)
    return redirect("web:login")


@require_http_methods(["GET", "POST"])
@page
def password_change(request):
    form = bound_form(request, PasswordForm)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        session_password_change(
            request,
            request.user,
            request.user.id,
            data["new_password"],
            current_password=data["current_password"],
        )
        messages.success(request, "Your password has been changed.")
        return redirect("web:settings")
    return render(request, "auth/password.html", {"form": form})
