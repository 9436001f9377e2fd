"""The front page of a visitor who is not logged in (docs/pages.md §2): what STGY is,
sign-up and log-in, and the newest public posts, which anyone may read."""

from __future__ import annotations

from django.shortcuts import render

from sns.selectors import publication as pub

from . import publication as site
from .pageview import page

RECENT_PUBLIC_POSTS = 10


@page(public=True)
def landing(request):
    entries = []
    for post in pub.public_posts_recent(RECENT_PUBLIC_POSTS):
        title = site.article_title(post.content)
        entries.append(
            {
                "post": post,
                "title": title,
                "snippet": site.article_description(post.content) if title else site.snippet_of(post),
            }
        )
    return render(request, "landing.html", {"entries": entries})
