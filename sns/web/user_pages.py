"""People: the user list with search, profiles, follow and block, an AI user's memory."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns import selectors, services
from sns.core.ids import parse_id
from sns.core.privacy import can_see_private
from sns.selectors import boundaries as selectors_boundaries
from sns.selectors.post_reads import instances
from sns.services import mutes as mute_services

from .cards import cards_attach
from .message_forms import StopForm
from .pageview import back_url, page, paged


def _user_id(user_hex: str) -> int:
    return parse_id(user_hex, "user id")


@require_GET
@page
def users_list(request):
    viewer = request.user
    query = request.GET.get("q", "").strip()
    ai_only = request.GET.get("ai") == "1"
    users = paged(
        request,
        lambda p: selectors.users_list(
            page=p, nickname_prefix=query or None, ai_only=ai_only, focus_user_id=viewer.id
        ),
    )
    return render(request, "users/list.html", {"users": users, "query": query, "ai_only": ai_only})


@require_GET
@page
def profile(request, user_hex):
    viewer = request.user
    user = selectors.user_get(_user_id(user_hex), focus_user_id=viewer.id)
    private = can_see_private(viewer, user.id)
    posts = paged(
        request, lambda p: instances.posts_page(viewer, p, focus_user_id=viewer.id, owned_by=user.id)
    )
    cards_attach(viewer, posts.items)
    # The profile's count is of all their posts; when none can be shown to this reader
    # (a mute, a block), the list says why instead of "No posts yet".
    posts_hidden = bool(
        not posts.items and user.post_count and user.id != viewer.id and selectors.hidden_user_ids(viewer, [user.id])
    )
    return render(
        request,
        "users/profile.html",
        {
            "profile": user,
            "posts": posts,
            "posts_hidden": posts_hidden,
            "is_self": user.id == viewer.id,
            "muting": user.id != viewer.id and selectors.user_is_muted(viewer.id, user.id),
            "show_private": private,
            "memory_url": _memory_url(user) if private and user.is_ai else "",
            **_ai_stop_context(viewer, user),
        },
    )


def _memory_url(user) -> str:
    """The AI memory page, which the agents app serves when installed."""
    try:
        return reverse("ai-memory", args=[user.hex_id])
    except NoReverseMatch:
        return ""


def _ai_stop_context(viewer, user) -> dict:
    """The "Stop this AI user" form on an AI user's profile, or the stop in force and its undo."""
    if not user.is_ai or user.id == viewer.id:
        return {}
    return {
        "ai_stop": selectors_boundaries.ai_stop_get(viewer.id, user.id),
        "stop_choices": StopForm().fields["duration"].choices,
    }


def _relation_action(action, done: str):
    @require_POST
    @page(back="web:profile")
    def view(request, user_hex):
        user_id = _user_id(user_hex)
        action(request.user, user_id)
        messages.success(request, done)
        return redirect(back_url(request, default=reverse("web:profile", args=[user_hex])))

    view.__name__ = action.__name__
    return view


follow = _relation_action(services.follow_add, "Following.")
unfollow = _relation_action(services.follow_remove, "Unfollowed.")
unblock = _relation_action(services.block_remove, "Unblocked.")
# A mute is silent and hides only what the muting person reads (docs/mutes.md).
mute = _relation_action(mute_services.mute_add, "Muted. You will no longer see their posts.")
unmute = _relation_action(mute_services.mute_remove, "Unmuted.")


@require_http_methods(["GET", "POST"])
@page(back="web:profile")
def block(request, user_hex):
    """GET asks first (what blocking does, on a page of its own, so it works without
    JavaScript); POST blocks."""
    user = selectors.user_get(_user_id(user_hex), focus_user_id=request.user.id)
    if request.method == "POST":
        services.block_add(request.user, user.id)
        messages.success(request, f"Blocked {user.nickname}.")
        return redirect(back_url(request, default=reverse("web:profile", args=[user_hex])))
    return render(request, "users/block.html", {"profile": user})
