"""Forms of the mailed-code pages (sign-up, forgot password, e-mail change). As in
forms.py, they only collect input; sns.services.accounts owns every rule."""

from __future__ import annotations

from django import forms
from django.conf import settings


def _password(label: str, autocomplete: str = "new-password", **kwargs) -> forms.CharField:
    return forms.CharField(
        label=label, strip=False, widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}), **kwargs
    )


def _code(label: str = "Verification code") -> forms.CharField:
    return forms.CharField(
        label=label,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "maxlength": 12}
        ),
        help_text="The six digits in the mail we sent.",
    )


class EmailForm(forms.Form):
    email = forms.CharField(label="Email", widget=forms.EmailInput(attrs={"autocomplete": "email"}))


class EmailChangeForm(EmailForm):
    # Not needed shortly after logging in; the rule is the service's
    # (sns/reads/access.py access_owner_proof), the same as the API's.
    current_password = _password("Current password", "current-password", required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        minutes = max(1, settings.STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS // 60)
        self.fields["current_password"].help_text = (
            f"Not needed within {minutes} minutes of logging in."
        )


class SignupEmailForm(EmailForm):
    # Filled in by static/stgy.js from the browser's language and time zone.
    locale = forms.CharField(required=False, widget=forms.HiddenInput)
    timezone = forms.CharField(required=False, widget=forms.HiddenInput)


class CodeForm(forms.Form):
    code = _code()


class SignupFinishForm(forms.Form):
    nickname = forms.CharField(
        label="Nickname", strip=False, widget=forms.TextInput(attrs={"autocomplete": "nickname"})
    )
    password = _password("Password", help_text="At least 8 characters, not a common one.")


class ResetForm(forms.Form):
    code = _code()
    new_password = _password("New password", help_text="At least 8 characters, not a common one.")
    new_password2 = _password("New password again")

    def clean(self):
        data = super().clean()
        if data.get("new_password") != data.get("new_password2"):
            self.add_error("new_password2", "The two new passwords differ.")
        return data
