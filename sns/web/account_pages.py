"""The mailed-code pages (docs/accounts.md §7): sign-up (address → code → nickname and
password), "forgot password" from the login page, and e-mail change from the settings
page. The ticket a step hands to the next (the verification id, the reset's web code)
is kept in the session, never in the page."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from sns.core.mail_limits import client_of
from sns.selectors import agreements as selectors_agreements
from sns.services import accounts, agreements
from sns.services.sessions import session_begin, session_logged_in_at

from .account_forms import (
    CodeForm,
    EmailChangeForm,
    EmailForm,
    ResetForm,
    SignupEmailForm,
    SignupFinishForm,
)
from .auth_pages import _terms_for
from .pageview import bound_form, page

_SIGNUP = "accounts:signup"
_RESET = "accounts:reset"
_EMAIL = "accounts:email"


def _step(request, form, action, *, title, intro, button, back=("", "")):
    """A step's page: its form, what it asks, and `back` (URL name, label) to go back."""
    back_url, back_label = back
    return render(
        request,
        "auth/step.html",
        {
            "form": form,
            "title": title,
            "intro": intro,
            "action": reverse(action),
            "button": button,
            "back_url": reverse(back_url) if back_url else "",
            "back_label": back_label,
        },
    )


def _after_step(key: str, first_step: str):
    """A later step's view gets the ticket an earlier step left in the session; without
    one (the person came here directly, or the session was renewed) the person is sent
    to the first step."""

    def decorate(view):
        @wraps(view)
        def wrapped(request):
            ticket = request.session.get(key)
            if not ticket:
                return redirect(first_step)
            return view(request, ticket)

        return wrapped

    return decorate


# ----------------------------------------------------------------------------- sign-up


@require_http_methods(["GET", "POST"])
@page(public=True)
def signup(request):
    if request.user.is_authenticated:
        return redirect("web:home")
    form = bound_form(request, SignupEmailForm)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        row = accounts.signup_start(
            email=data["email"],
            locale=data["locale"] or None,
            timezone_name=data["timezone"] or None,
            client=client_of(request),
        )
        request.session[_SIGNUP] = str(row.id)
        return redirect("web:signup-code")
    return render(request, "auth/signup.html", {"form": form, **_terms_for(request)})


@require_http_methods(["GET", "POST"])
@page(public=True)
@_after_step(_SIGNUP, "web:signup")
def signup_code(request, signup_id):
    form = bound_form(request, CodeForm)
    if request.method == "POST" and form.is_valid():
        accounts.signup_check_code(signup_id, form.cleaned_data["code"])
        return redirect("web:signup-finish")
    return _step(
        request, form, "web:signup-code", title="Check your mail",
        intro="We sent a verification code to the address you gave. Enter it here.",
        button="Continue", back=("web:signup", "Use another address"),
    )


@require_http_methods(["GET", "POST"])
@page(public=True)
@_after_step(_SIGNUP, "web:signup")
def signup_finish(request, signup_id):
    form = bound_form(request, SignupFinishForm)
    if request.method == "POST" and form.is_valid():
        user = accounts.signup_complete(
            signup_id, nickname=form.cleaned_data["nickname"], password=form.cleaned_data["password"]
        )
        del request.session[_SIGNUP]
        # The first step showed the newest terms and said signing up accepts them.
        latest = selectors_agreements.agreement_latest_id()
        if latest is not None:
            agreements.agreement_accept(user, latest)
        session_begin(request, user)
        messages.success(request, f"Welcome to STGY, {user.nickname}!")
        return redirect("web:home")
    return _step(
        request, form, "web:signup-finish", title="Choose a nickname and a password",
        intro="Your address is verified. One last step.", button="Sign up",
    )


# ----------------------------------------------------------------------------- forgot password


@require_http_methods(["GET", "POST"])
@page(public=True)
def password_reset(request):
    form = bound_form(request, EmailForm)
    if request.method == "POST" and form.is_valid():
        row, web_code = accounts.password_reset_start(
            form.cleaned_data["email"], client=client_of(request)
        )
        request.session[_RESET] = {"id": str(row.id), "web": web_code, "email": row.email}
        return redirect("web:password-reset-code")
    return _step(
        request, form, "web:password-reset", title="Forgot your password?",
        intro="Enter the address of your account; we will mail you a code to set a new password.",
        button="Send the code", back=("web:login", "Back to log in"),
    )


@require_http_methods(["GET", "POST"])
@page(public=True)
@_after_step(_RESET, "web:password-reset")
def password_reset_code(request, ticket):
    form = bound_form(request, ResetForm)
    if request.method == "POST" and form.is_valid():
        accounts.password_reset_verify(
            email=ticket["email"],
            reset_password_id=ticket["id"],
            web_code=ticket["web"],
            mail_code=form.cleaned_data["code"],
            new_password=form.cleaned_data["new_password"],
        )
        del request.session[_RESET]
        messages.success(request, "Your password has been reset. Log in with the new one.")
        return redirect("web:login")
    return _step(
        request, form, "web:password-reset-code", title="Set a new password",
        intro="If an account uses that address, we mailed it a code. Enter it with your new password.",
        button="Set the new password", back=("web:password-reset", "Send another code"),
    )


# ----------------------------------------------------------------------------- e-mail change


@require_http_methods(["GET", "POST"])
@page
def email_change(request):
    form = bound_form(request, EmailChangeForm)
    if request.method == "POST" and form.is_valid():
        row = accounts.email_change_start(
            request.user,
            request.user.id,
            form.cleaned_data["email"],
            client=client_of(request),
            current_password=form.cleaned_data["current_password"],
            logged_in_at=session_logged_in_at(request.session),
        )
        request.session[_EMAIL] = str(row.id)
        return redirect("web:email-code")
    return _step(
        request, form, "web:email", title="Change e-mail address",
        intro=f"Now {request.user.email}. We will mail a code to the new address.",
        button="Send the code", back=("web:settings", "Back to settings"),
    )


@require_http_methods(["GET", "POST"])
@page
@_after_step(_EMAIL, "web:email")
def email_code(request, update_id):
    form = bound_form(request, CodeForm)
    if request.method == "POST" and form.is_valid():
        user = accounts.email_change_verify(
            request.user, request.user.id, update_id, form.cleaned_data["code"]
        )
        del request.session[_EMAIL]
        messages.success(request, f"Your e-mail address is now {user.email}.")
        return redirect("web:settings")
    return _step(
        request, form, "web:email-code", title="Check your mail",
        intro="We sent a verification code to the new address. Enter it here.",
        button="Change the address", back=("web:email", "Use another address"),
    )

