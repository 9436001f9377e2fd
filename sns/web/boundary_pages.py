"""The boundaries a person sets for AI users, on pages: the three switches (on the
settings page), "Stop this AI user" (on a profile or a message) and its undo."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from sns.selectors import boundaries as selectors_boundaries
from sns.ids import parse_id
from sns.services import boundaries as boundary_services

from .message_forms import AiBoundariesForm, StopForm
from .pageview import back_url, page


def settings_context(user) -> dict:
    """What the settings page shows of the AI boundaries."""
    current = selectors_boundaries.ai_boundaries_get(user.id)
    return {
        "ai_form": AiBoundariesForm(
            initial={
                "allow_replies": current.allow_replies,
                "allow_mentions": current.allow_mentions,
                "allow_messages": current.allow_messages,
            },
            prefix="ai",
        ),
        "ai_stops": selectors_boundaries.ai_stops_list(user.id),
    }


@require_POST
@page(back="web:settings")
def boundaries_update(request):
    form = AiBoundariesForm(request.POST, prefix="ai")
    form.is_valid()  # checkboxes only: always valid
    boundary_services.ai_boundaries_update(request.user, request.user.id, **form.cleaned_data)
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
