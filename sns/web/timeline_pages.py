"""Home timeline (Following / Everyone / For you), composing, Markdown preview, search."""

from __future__ import annotations

import dataclasses
import logging

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns import selectors, services
from sns.core.errors import InvalidInput
from sns.extensions import page_extras
from sns.reads.markdown import render_html
from sns.search import engine
from sns.search.kwic import post_kwic
from sns.search.query import parse_query, search_owner
from sns.core.ids import id_to_hex
from sns.selectors import Page, shares
from sns.selectors.authors import AUTHORS, authors_parse
from sns.selectors.mixed import everyone_page, ranked_page

from .cards import cards_attach, user_name_html
from .forms import LOCALE_CHOICES, PostForm
from .landing import landing
from .pageview import PAGE_SIZE, bound_form, page, paged, safe_next

log = logging.getLogger(__name__)

# The People / AI / All filter is remembered in a cookie (per browser, no write on a
# GET, nothing to migrate), set whenever a page is asked for with `authors=`.
AUTHORS_COOKIE = "stgy_authors"
_AUTHORS_COOKIE_AGE = 365 * 24 * 3600
# For you is cut from its whole ranking (agents/recommend/feeds.py keeps 100 posts a user).
_RANKING_SIZE = 100
AUTHORS_CHOICES = (("all", _("All")), ("people", _("People")), ("ai", _("AI")))


def timeline_authors(request) -> tuple[str, bool]:
    """The filter of a timeline: the `authors` parameter (400 when not people, ai or
    all), else the remembered one, else all; and whether it was given."""
    given = authors_parse(request.GET.get("authors"))
    if given is not None:
        return given, True
    remembered = request.COOKIES.get(AUTHORS_COOKIE)
    return (remembered if remembered in AUTHORS else "all"), False


def authors_remember(response, authors: str, given: bool):
    if given:
        response.set_cookie(AUTHORS_COOKIE, authors, max_age=_AUTHORS_COOKIE_AGE, samesite="Lax")
    return response


def _for_you(viewer, page_: Page) -> list | None:
    """Recommended posts from the page extras (sns/extensions.py), or None when there are
    none to offer. An extra: a failure is logged and the tab hidden, never a broken home
    page."""
    provider = page_extras().recommended_posts
    if provider is None:
        return None
    try:
        return provider(viewer, offset=page_.offset, limit=page_.limit)
    except Exception:
        log.exception("recommendations for user %s failed", viewer.id)
        return None


def _for_you_available(viewer, *, asked: bool) -> bool:
    provider = page_extras().recommendations_offered
    if provider is None:
        return False
    try:
        return provider(viewer, asked=asked)
    except Exception:
        log.exception("recommendations for user %s failed", viewer.id)
        return False


@require_GET
def home(request):
    """The timeline; a visitor who is not logged in gets the landing page instead."""
    if not request.user.is_authenticated:
        return landing(request)
    return _timeline(request)


@page
def _timeline(request):
    viewer = request.user
    tab = request.GET.get("tab", "following")
    tag = request.GET.get("tag", "").strip()
    authors, authors_given = timeline_authors(request)
    if tag:
        tab = "everyone"
    # Offered to every member: a new member's ranking is empty, and the tab then says so
    # over the Everyone tab's posts. Asking still has a ranking made in the background.
    for_you_available = page_extras().recommended_posts is not None
    if for_you_available:
        _for_you_available(viewer, asked=False)
    for_you_empty = False
    if tab == "foryou" and for_you_available:
        ranking = _for_you(viewer, Page(offset=0, limit=_RANKING_SIZE)) or []
        for_you_empty = not ranking
        if ranking:
            posts = paged(request, lambda p: ranked_page(ranking, p, block=PAGE_SIZE, authors=authors))
    if tab == "everyone" or for_you_empty:
        posts = paged(request, lambda p: everyone_page(viewer, p, block=PAGE_SIZE, tag=tag or None, authors=authors))
    elif tab != "foryou" or not for_you_available:
        tab = "following"
        # The followees' posts with their reposts (docs/shares.md).
        posts = paged(request, lambda p: shares.following_with_reposts(viewer, p, authors=authors), from_top=True)
    cards_attach(viewer, posts.items)
    cards = list(posts.items)
    form = bound_form(
        request, PostForm, initial={"locale": viewer.locale}, action=reverse("web:compose")
    )
    response = render(
        request,
        "timeline/home.html",
        {
            "tab": tab,
            "tag": tag,
            "authors": authors,
            "for_you_empty": for_you_empty,
            "authors_choices": AUTHORS_CHOICES,
            "posts": posts,
            # Read once here rather than looked up on `posts` by the template, whose
            # look-ups try `posts[name]` first and drop the TypeError it raises.
            "cards": cards,
            # Whether the page polls for newer posts: the first page of a live tab.
            "live": tab != "foryou" and not tag and posts.number == 0 and bool(cards),
            # The live check counts posts newer than the newest shown; a repost can put
            # an older post first.
            "live_after": id_to_hex(max((p.id for p in posts.items), default=0)),
            "form": form,
            "for_you_available": for_you_available,
            "locale_choices": LOCALE_CHOICES,
        },
    )
    return authors_remember(response, authors, authors_given)


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
    """Ranked post hits with highlighted excerpts (docs/api.md, "Search"), and people
    whose nickname starts with the query."""
    viewer = request.user
    query = request.GET.get("q", "").strip()
    hits = users = None
    if query:
        parsed = parse_query(query, with_filters=True)
        if not parsed.terms:
            raise InvalidInput("search term is required")
        owner = search_owner(parsed, None, viewer.id)
        hits = paged(
            request,
            lambda p: engine.posts_search(
                viewer, parsed, owned_by=owner, published_only=parsed.published_only, offset=p.offset, limit=p.limit
            ),
        )
        hits = dataclasses.replace(
            hits,
            items=[
                {"post": post, "author": user_name_html(post.owner), "kwic": post_kwic(post.content, parsed.phrases)}
                for post in hits.items
            ],
        )
        users = selectors.users_list(
            page=Page(limit=5), nickname_prefix=query, focus_user_id=viewer.id
        )
    return render(request, "search.html", {"query": query, "hits": hits, "users": users})
