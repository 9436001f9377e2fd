"""The mutes part of the settings page (docs/mutes.md): muted words, and the users
muted from their profiles with an undo for each."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from sns import selectors
from sns.selectors import Page
from sns.services import mutes as mute_services

from .pageview import page

SHOWN_MUTEES = 100


def settings_context(user) -> dict:
    return {
        "muted_words": "\n".join(selectors.muted_words_get(user.id)),
        "muted_words_max": mute_services.MUTED_WORDS_MAX,
        "mutees": selectors.user_mutees(user_id=user.id, page=Page(limit=SHOWN_MUTEES)),
    }


@require_POST
@page(back="web:settings")
def muted_words_update(request):
    """One word or phrase a line; the whole list is replaced."""
    words = request.POST.get("words", "").splitlines()
    saved = mute_services.muted_words_set(request.user, request.user.id, words)
    messages.success(request, f"Muted words saved ({len(saved)}).")
    return redirect("web:settings")
