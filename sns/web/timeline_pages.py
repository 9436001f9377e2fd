"""Home timeline (Following / Everyone / For you), composing, Markdown preview, search."""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns import selectors, services
from sns.markdown import render_html
from sns.selectors import Page

from .forms import LOCALE_CHOICES, PostForm
from .pageview import bound_form, page, paged, safe_next

log = logging.getLogger(__name__)
_WARMING_SECONDS = 60  # one background ranking per user at a time


def _for_you(viewer, page_: Page) -> list | None:
    """Recommended posts (agents.recommend), or None when there are none to offer.
    Recommendations are an extra: a failure is logged and the tab hidden, never a
    broken home page."""
    try:
        from agents.recommend import recommended_posts_for_user
    except ImportError:
        return None
    try:
        return list(recommended_posts_for_user(viewer, offset=page_.offset, limit=page_.limit))
    except Exception:
        log.exception("recommendations for user %s failed", viewer.id)
        return None


def _for_you_available(viewer, *, asked: bool) -> bool:
    """Whether to offer the "For you" tab. Ranking a user's recommendations costs more
    than the rest of the page (seed clusters, candidate queries), so a page that did
    not ask for the tab only looks at a cached ranking; without one it has the ranking
    made in the background and offers the tab from the next page on."""
    try:
        from agents.recommend import user_recommended_ids, user_recommended_ids_cached
        from agents.runner import submit_task
        from agents.tasks import warm_recommendations
    except ImportError:
        return False
    try:
        if asked:
            return bool(user_recommended_ids(viewer.id))
        ids = user_recommended_ids_cached(viewer.id)
        if ids is None:
            if cache.add(f"recommend-warming:{viewer.id}", 1, _WARMING_SECONDS):
                submit_task(warm_recommendations, viewer.id)
            return False
        return bool(ids)
    except Exception:
        log.exception("recommendations for user %s failed", viewer.id)
        return False


@require_GET
@page
def home(request):
    viewer = request.user
    tab = request.GET.get("tab", "following")
    tag = request.GET.get("tag", "").strip()
    if tag:
        tab = "everyone"
    for_you_available = _for_you_available(viewer, asked=tab == "foryou")
    if tab == "everyone":
        posts = paged(
            request,
            lambda p: selectors.posts_list(page=p, tag=tag or None, focus_user_id=viewer.id),
        )
    elif tab == "foryou" and for_you_available:
        posts = paged(request, lambda p: _for_you(viewer, p) or [])
    else:
        tab = "following"
        posts = paged(
            request,
            lambda p: selectors.posts_by_followees(
                user_id=viewer.id, page=p, include_self=True, focus_user_id=viewer.id
            ),
            from_top=True,
        )
    form = bound_form(request, PostForm, initial={"locale": viewer.locale})
    return render(
        request,
        "timeline/home.html",
        {
            "tab": tab,
            "tag": tag,
            "posts": posts,
            "form": form,
            "for_you_available": for_you_available,
            "locale_choices": LOCALE_CHOICES,
        },
    )


@require_http_methods(["GET", "POST"])
@page
def compose(request):
    form = bound_form(request, PostForm, initial={"locale": request.user.locale})
    if request.method == "POST" and form.is_valid():
        post = services.post_create(
            request.user, **form.service_fields(), published_at=form.published_at()
        )
        return redirect(safe_next(request) or reverse("web:post", args=[post.hex_id]))
    return render(request, "posts/compose.html", {"form": form, "locale_choices": LOCALE_CHOICES})


@require_POST
@page
def preview(request):
    """The compose box's preview: the same renderer and sanitiser as the post page."""
    return HttpResponse(
        render_html(request.POST.get("content", "")), content_type="text/html; charset=utf-8"
    )


@require_GET
@page
def search(request):
    viewer = request.user
    query = request.GET.get("q", "").strip()
    posts = users = None
    if query:
        posts = paged(
            request, lambda p: selectors.post_search(text=query, page=p, focus_user_id=viewer.id)
        )
        users = selectors.users_list(
            page=Page(limit=5), nickname_prefix=query, focus_user_id=viewer.id
        )
    return render(request, "search.html", {"query": query, "posts": posts, "users": users})
