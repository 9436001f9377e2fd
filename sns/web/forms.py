"""Page forms. They only collect and shape input (a tag list from a comma-separated
field, booleans from checkboxes); every rule — lengths, formats, who may do what —
is the services' to enforce, so a form never refuses what the API would accept."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from sns.core.errors import InvalidInput
from sns.core.text import normalize_locale

from . import kept_widgets

LOCALE_CHOICES = [
    ("en-US", "English (US)"),
    ("en-GB", "English (UK)"),
    ("ja-JP", "日本語"),
    ("zh-CN", "中文 (简体)"),
    ("ko-KR", "한국어"),
    ("fr-FR", "Français"),
    ("de-DE", "Deutsch"),
    ("es-ES", "Español"),
]


def _text(label: str, *, required: bool = False, widget=forms.TextInput, **attrs) -> forms.CharField:
    return forms.CharField(label=label, required=required, strip=False, widget=widget(attrs=attrs))


class LoginForm(forms.Form):
    email = forms.CharField(
        label=_("Email"), widget=forms.EmailInput(attrs={"autocomplete": "username"})
    )
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class PasswordForm(forms.Form):
    # Not needed shortly after logging in; the rule is the service's (sns/reads/access.py
    # access_owner_proof), the same as the API's.
    current_password = forms.CharField(
        label="Current password",
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password = forms.CharField(
        label="New password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    new_password2 = forms.CharField(
        label="New password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        minutes = max(1, settings.STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS // 60)
        self.fields["current_password"].help_text = (
            f"Not needed within {minutes} minutes of logging in."
        )

    def clean(self):
        data = super().clean()
        if data.get("new_password") != data.get("new_password2"):
            self.add_error("new_password2", "The two new passwords differ.")
        return data


def limit_length(field: forms.Field, limit: int) -> None:
    """The limit the service enforces, shown to the person: the browser stops typing at
    it (maxlength counts UTF-16 units, as the services do) and static/stgy.js shows a
    live counter; the service still decides."""
    field.widget.attrs.update({"maxlength": str(limit), "data-limit": str(limit)})


class PostForm(forms.Form):
    # On every timeline page: widgets kept rendered (sns/web/kept_widgets.py).
    content = forms.CharField(
        label=_("Post"),
        strip=False,
        widget=kept_widgets.Textarea(
            attrs={
                "rows": 4,
                "placeholder": "What's on your mind? Markdown works.",
                "data-preview-source": "",
            }
        ),
    )
    tags = _text(_("Tags"), widget=kept_widgets.TextInput, placeholder="comma, separated, tags")
    locale = forms.CharField(
        label=_("Language"),
        required=False,
        widget=kept_widgets.TextInput(attrs={"list": "locale-choices", "size": 8}),
    )
    allow_likes = forms.BooleanField(label=_("Allow likes"), required=False, initial=True, widget=kept_widgets.CheckboxInput)
    allow_replies = forms.BooleanField(label=_("Allow replies"), required=False, initial=True, widget=kept_widgets.CheckboxInput)
    publish = forms.BooleanField(label=_("Public on my site"), required=False, widget=kept_widgets.CheckboxInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit_length(self.fields["content"], settings.STGY_CONTENT_LENGTH_LIMIT)

    def tag_list(self) -> list[str]:
        return [t for t in (self.cleaned_data.get("tags") or "").split(",") if t.strip()]

    def service_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "content": data["content"],
            "tags": self.tag_list(),
            "locale": data.get("locale") or None,
            "allow_likes": data["allow_likes"],
            "allow_replies": data["allow_replies"],
        }

    def published_at(self, previous=None):
        """The publication time to store: a post stays published as it was (a
        scheduled one keeps its time), a newly published one is public from now on,
        an unticked one is private (docs/publication.md §2)."""
        from django.utils import timezone

        if not self.cleaned_data.get("publish"):
            return None
        return previous or timezone.now()


class ReplyForm(forms.Form):
    # On every post page, like PostForm's.
    content = forms.CharField(
        label="Reply",
        strip=False,
        widget=kept_widgets.Textarea(
            attrs={"rows": 3, "placeholder": "Write a reply…", "data-preview-source": ""}
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit_length(self.fields["content"], settings.STGY_CONTENT_LENGTH_LIMIT)


class _LocaleChoiceField(forms.ChoiceField):
    """A choice among LOCALE_CHOICES, written as the rulebook writes locales first
    (`ja_jp` is `ja-JP`), so a request built by hand is read as the API reads it."""

    def to_python(self, value):
        value = super().to_python(value)
        try:
            return normalize_locale(value) if value else value
        except InvalidInput:
            return value


class ProfileForm(forms.Form):
    nickname = _text(_("Nickname"), required=True)
    introduction = forms.CharField(
        label=_("Introduction (Markdown)"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    # A list, not a free-text box: a language typed as "Japanese" or "jp" was taken and
    # left the interface in English (sns/web/language.py reads the code).
    locale = _LocaleChoiceField(
        label=_("Language"),
        choices=LOCALE_CHOICES,
        help_text=_("The interface is in English and Japanese; your posts default to this language."),
    )
    timezone = forms.CharField(
        label=_("Time zone"), widget=forms.TextInput(attrs={"list": "timezone-choices"})
    )
    block_strangers = forms.BooleanField(
        label=_("Block strangers"),
        required=False,
        help_text=_("Only people you follow can like, reply to or follow you."),
    )
    ai_personality = forms.CharField(
        label="AI personality",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8}),
    )

    def __init__(self, *args, is_ai: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        # A language set before the list (or through the API) stays a choice, so saving
        # the form never changes it unasked.
        current = self.initial.get("locale")
        if current and current not in dict(LOCALE_CHOICES):
            self.fields["locale"].choices = [(current, current), *LOCALE_CHOICES]
        if not is_ai:
            # Only an AI user may change its own personality; humans do not see the field.
            del self.fields["ai_personality"]

    def service_fields(self) -> dict:
        data = self.cleaned_data
        fields = {
            "nickname": data["nickname"],
            "introduction": data["introduction"],
            "locale": data["locale"],
            "timezone_name": data["timezone"],
            "block_strangers": data["block_strangers"],
        }
        if "ai_personality" in self.fields:
            fields["ai_personality"] = data["ai_personality"]
        return fields


class SearchForm(forms.Form):
    q = forms.CharField(label="Search", required=False)


class PostReportForm(forms.Form):
    """Report a post or a reply: why (one of the rulebook's reasons) and a note."""

    reason = forms.ChoiceField(label="What is wrong with it?", widget=forms.RadioSelect)
    note = forms.CharField(
        label="Anything the moderators should know (optional)",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args, **kwargs):
        from sns.models.reports import POST_REPORT_REASONS

        super().__init__(*args, **kwargs)
        self.fields["reason"].choices = POST_REPORT_REASONS
        limit_length(self.fields["note"], settings.STGY_REPORT_NOTE_LENGTH_LIMIT)
