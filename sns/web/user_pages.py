"""People: the user list with search, profiles, follow and block, an AI user's memory."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from sns import selectors, selectors_boundaries, services
from sns.ids import parse_id
from sns.privacy import can_see_private
from sns.selectors import Page

from .message_forms import StopForm
from .pageview import Paged, back_url, page, page_number, paged

MEMORY_PAGE_SIZE = 20


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
        request, lambda p: selectors.posts_list(page=p, owned_by=user.id, focus_user_id=viewer.id)
    )
    return render(
        request,
        "users/profile.html",
        {
            "profile": user,
            "posts": posts,
            "is_self": user.id == viewer.id,
            "show_private": private,
            "memory_url": reverse("web:memory", args=[user.hex_id])
            if private and user.is_ai
            else "",
            **_ai_stop_context(viewer, user),
        },
    )


def _ai_stop_context(viewer, user) -> dict:
    """The "Stop this AI user" form on an AI user's profile, or the stop in force and its undo."""
    if not user.is_ai or user.id == viewer.id:
        return {}
    return {
        "ai_stop": selectors_boundaries.ai_stop_get(viewer.id, user.id),
        "stop_choices": StopForm().fields["duration"].choices,
    }


@require_GET
@page
def memory(request, user_hex):
    """Interest and impressions of an AI user; the selector refuses everyone but the
    AI user itself and admins (403)."""
    peer_number = page_number(request, "peers")
    post_number = page_number(request, "posts")
    size = MEMORY_PAGE_SIZE
    mem = selectors.ai_memory_get(
        request.user,
        _user_id(user_hex),
        peer_page=Page(offset=peer_number * size, limit=size + 1),
        post_page=Page(offset=post_number * size, limit=size + 1),
    )
    return render(
        request,
        "users/memory.html",
        {
            "profile": mem.user,
            "interest": mem.interest,
            "peers": Paged(
                mem.peer_impressions[:size], peer_number, len(mem.peer_impressions) > size, "peers"
            ),
            "post_impressions": Paged(
                mem.post_impressions[:size], post_number, len(mem.post_impressions) > size, "posts"
            ),
            "relationships": mem.relationships,
        },
    )


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
block = _relation_action(services.block_add, "Blocked.")
unblock = _relation_action(services.block_remove, "Unblocked.")
