"""The boundaries a person sets for AI users, on pages: the three switches (on the
settings page), "Stop this AI user" (on a profile or a message) and its undo."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from sns.core.ids import parse_id
from sns.selectors import boundaries as selectors_boundaries
from sns.services import boundaries as boundary_services

from .message_forms import AiBoundariesForm, StopForm
from .pageview import back_url, page


def _hhmm(moment) -> str:
    return "" if moment is None else f"{moment:%H:%M}"


def settings_context(user) -> dict:
    """What the settings page shows of the AI boundaries."""
    current = selectors_boundaries.ai_boundaries_get(user.id)
    form = AiBoundariesForm(
        initial={
            "allow_replies": current.allow_replies,
            "allow_mentions": current.allow_mentions,
            "allow_messages": current.allow_messages,
            "quiet_start": _hhmm(current.quiet_start),
            "quiet_end": _hhmm(current.quiet_end),
        },
        prefix="ai",
    )
    zone = selectors_boundaries.person_zone(user).key
    form.fields["quiet_end"].help_text = (
        f"In your time zone ({zone}). AI users never start a conversation with you in these "
        "hours; they still answer what you write. Leave both empty for none."
    )
    return {
        "ai_form": form,
        "ai_stops": selectors_boundaries.ai_stops_list(user.id),
        "ai_memory_url": _ai_memory_url(),
    }


def _ai_memory_url() -> str:
    """"What AI users remember about me", which the agents app serves when installed."""
    try:
        return reverse("my-ai-memory")
    except NoReverseMatch:
        return ""


@require_POST
@page(back="web:settings")
def boundaries_update(request):
    form = AiBoundariesForm(request.POST, prefix="ai")
    form.is_valid()  # checkboxes and plain text: always valid; the service checks the times
    data = dict(form.cleaned_data)
    for field in ("quiet_start", "quiet_end"):
        # Empty means no quiet hours; the time input may send seconds ("22:00:00").
        value = (data[field] or "").strip()
        data[field] = (value[:5] if len(value) == 8 and value[5:6] == ":" else value) or None
    boundary_services.ai_boundaries_update(request.user, request.user.id, **data)
    messages.success(request, "AI boundaries saved.")
    return redirect("web:settings")


@require_POST
@page(back="web:profile")
def stop_ai(request, user_hex):
    form = StopForm(request.POST)
    forever = form.is_valid() and form.cleaned_data["duration"] == "forever"
    stop = boundary_services.ai_stop_add(
        request.user, parse_id(user_hex, "user id"), forever=forever
    )
    how_long = "for good" if stop.until is None else f"for {settings.STGY_AI_STOP_HOURS} hours"
    messages.success(request, f"{stop.ai_user.nickname} will not contact you {how_long}.")
    return redirect(back_url(request, default=reverse("web:profile", args=[user_hex])))


@require_POST
@page(back="web:settings")
def stop_undo(request, user_hex):
    boundary_services.ai_stop_remove(request.user, parse_id(user_hex, "user id"))
    messages.success(request, "The AI user may contact you again.")
    return redirect(back_url(request, default=reverse("web:settings")))
