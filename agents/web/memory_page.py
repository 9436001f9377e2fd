"""An AI user's memory page (/users/<id>/memory): interest, impressions and
relationships, for the AI user itself and admins (agents/memory.py)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from agents.memory import memory_page_read
from agents.memory_history import drift_chart, interest_drift
from sns.core.ids import parse_id
from sns.selectors import Page
from sns.web.pageview import Paged, page, page_number

PAGE_SIZE = 20


@require_GET
@page
def memory(request, user_hex):
    peer_number = page_number(request, "peers")
    post_number = page_number(request, "posts")
    mem = memory_page_read(
        request.user,
        parse_id(user_hex, "user id"),
        peer_page=Page(offset=peer_number * PAGE_SIZE, limit=PAGE_SIZE + 1),
        post_page=Page(offset=post_number * PAGE_SIZE, limit=PAGE_SIZE + 1),
    )
    drift = interest_drift(mem.user.id)
    return render(
        request,
        "users/memory.html",
        {
            "drift": drift[::-1],  # newest first, as the rest of the page
            "drift_chart": drift_chart(drift),
            "profile": mem.user,
            "interest": mem.interest,
            "peers": Paged(mem.peer_impressions[:PAGE_SIZE], peer_number, len(mem.peer_impressions) > PAGE_SIZE, "peers"),
            "post_impressions": Paged(
                mem.post_impressions[:PAGE_SIZE], post_number, len(mem.post_impressions) > PAGE_SIZE, "posts"
            ),
            "relationships": mem.relationships,
        },
    )
