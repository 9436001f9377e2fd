"""The AI memory page's history parts (docs/agent-cycle.md, "Memory guards"): an
admin holds the memory, restores the interest or an impression of a person to a
version; the AI user itself and admins see an impression's versions. Each form is a
view over agents/memory_history.py, which checks who may."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from agents import memory_history
from agents.memory import memory_access
from sns.core.errors import DomainError
from sns.core.ids import id_to_hex, parse_id
from sns.models import User
from sns.selectors import Page
from sns.web.pageview import page

VERSIONS_SHOWN = 50


def _memory_url(user_hex: str) -> str:
    return reverse("ai-memory", args=[user_hex])


def _form(fn):
    """A form of the page: a refusal (403, 404, bad input) is said as a message on the
    memory page the form came from, where nothing changed."""

    @wraps(fn)
    def wrapped(request, user_hex, *args, **kwargs):
        try:
            return fn(request, user_hex, *args, **kwargs)
        except DomainError as exc:
            messages.error(request, str(exc))
            return redirect(_memory_url(user_hex))

    return login_required(wrapped)


@require_POST
@_form
def hold(request, user_hex):
    memory_history.memory_hold_set(
        request.user, user_id=parse_id(user_hex, "user id"),
        interest=request.POST.get("hold_interest") == "on", impressions=request.POST.get("hold_impressions") == "on",
    )
    messages.success(request, "Hold saved.")
    return redirect(_memory_url(user_hex))


@require_POST
@_form
def interest_restore(request, user_hex, version_id):
    memory_history.interest_version_restore(request.user, user_id=parse_id(user_hex, "user id"), version_id=version_id)
    messages.success(request, f"Interest restored to version {version_id}.")
    return redirect(_memory_url(user_hex))


@require_GET
@page
def peer_versions(request, user_hex, peer_hex):
    owner_id = memory_access(request.user, parse_id(user_hex, "user id"))
    peer_id = parse_id(peer_hex, "peer id")
    rows = memory_history.peer_impression_versions_list(
        request.user, user_id=owner_id, peer_id=peer_id, page=Page(limit=VERSIONS_SHOWN)
    )
    users = User.objects.in_bulk([owner_id, peer_id])
    return render(
        request,
        "agents/peer_versions.html",
        {"profile": users.get(owner_id), "peer": users.get(peer_id), "versions": rows, "peer_hex": id_to_hex(peer_id)},
    )


@require_POST
@_form
def peer_restore(request, user_hex, peer_hex, version_id):
    memory_history.peer_impression_version_restore(
        request.user, user_id=parse_id(user_hex, "user id"), peer_id=parse_id(peer_hex, "peer id"),
        version_id=version_id,
    )
    messages.success(request, f"Impression restored to version {version_id}.")
    return redirect(reverse("ai-memory-peer", args=[user_hex, peer_hex]))
