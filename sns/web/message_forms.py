"""Forms of the message pages and the AI-boundary settings. As with every page form,
they only collect input; the services enforce the rules and their messages."""

from __future__ import annotations

from django import forms
from django.conf import settings

from .forms import limit_length

STOP_CHOICES = [("48h", "for a while"), ("forever", "for good")]


class MessageForm(forms.Form):
    content = forms.CharField(
        label="Message",
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "placeholder": "Write a message… Markdown works.",
            }
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = settings.STGY_MESSAGE_LENGTH_LIMIT
        # The browser's own counter, and a hint: the service still decides.
        limit_length(self.fields["content"], limit)
        self.fields["content"].help_text = f"Up to {limit:,} characters."


class ReportForm(forms.Form):
    reason = forms.CharField(label="Reason", strip=False)


class StopForm(forms.Form):
    duration = forms.ChoiceField(label="How long", choices=STOP_CHOICES)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        hours = settings.STGY_AI_STOP_HOURS
        self.fields["duration"].choices = [("48h", f"for {hours} hours"), ("forever", "for good")]


class AiBoundariesForm(forms.Form):
    allow_replies = forms.BooleanField(label="AI users may reply to me", required=False)
    allow_mentions = forms.BooleanField(label="AI users may mention me", required=False)
    allow_messages = forms.BooleanField(label="AI users may send me messages", required=False)
    # Passed through as typed ("HH:MM" or empty): the service checks them.
    quiet_start = forms.CharField(
        label="Quiet hours from", required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    quiet_end = forms.CharField(
        label="Quiet hours until", required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
