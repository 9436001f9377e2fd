"""Each user's public site, readable without login (docs/publication.md §4):
/sites/<user id> (the front page), /pub/<post id> (one public post), the Atom feed
/sites/<user id>/feed, and /publications where the owner edits the settings and reads
the view counts.

The public views say `@page(public=True)` on purpose: they skip the login and the
terms-of-use redirects, and show only what `sns.selectors.publication.public_posts_q`
lets through.
"""

from __future__ import annotations

import logging

from django.contrib import messages
from django.contrib.syndication.views import Feed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.views.decorators.http import require_GET, require_POST

from sns.selectors import publication as pub
from sns.core.ids import parse_id
from sns.reads.markdown import render_html
from sns.services import publication as pub_services

from . import publication as site
from .pageview import bound_form, page, paged, refused_form
from .publication_forms import PubConfigForm

log = logging.getLogger(__name__)
RICH_PAGE_SIZE = 20
PLAIN_PAGE_SIZE = 200
FEED_ITEMS = 20


def _design_query(design) -> str:
    return f"?design={design.theme}" if design.theme != "default" else ""


def _site_context(request, user, config) -> dict:
    design = site.design_for(config, request.GET.get("design"))
    site_url = reverse("web:pub-site", args=[user.hex_id])
    return {
        "owner": user,
        "config": config,
        "design": design,
        "design_query": _design_query(design) if request.GET.get("design") else "",
        "locale": user.locale,
        "site_title": site.site_title(config),
        "site_url": site_url,
        "feed_url": reverse("web:pub-feed", args=[user.hex_id]),
        "intro_text": site.site_introduction(config),
    }


@require_GET
@page(public=True)
def pub_site(request, user_hex):
    user, config = pub.pub_site_get(parse_id(user_hex, "user id"))
    context = _site_context(request, user, config)
    plain = request.GET.get("tab") == "plain"
    oldest_first = request.GET.get("oldestFirst") == "1"
    posts = paged(
        request,
        lambda p: pub.public_posts_by_user(user.id, page=p, viewer=request.user),
        size=PLAIN_PAGE_SIZE if plain else RICH_PAGE_SIZE,
        order="asc" if oldest_first else "desc",
    )
    context.update(
        {
            "posts": posts,
            "entries": [_entry(p) for p in posts.items],
            "plain": plain,
            "oldest_first": oldest_first,
            "canonical": request.build_absolute_uri(context["site_url"]),
            "description": site.site_description(config),
        }
    )
    return render(request, "publication/site.html", context)


def _entry(post) -> dict:
    """A post in a list: its heading as the title and the text after it as the excerpt
    (the snippet alone would repeat the title)."""
    title = site.article_title(post.content)
    excerpt = site.article_description(post.content) if title else site.snippet_of(post)
    return {"post": post, "title": title, "snippet": excerpt}


@require_GET
@page(public=True)
def pub_post(request, post_hex):
    post = pub.public_post_get(parse_id(post_hex, "post id"), viewer=request.user)
    user, config = pub.pub_site_get(post.owner_id)
    _count_view(request, post)
    context = _site_context(request, user, config)
    recent_n = site.sidebar_count(config.show_side_recent, pub.PUB_SIDE_POSTS_MAX)
    popular_n = site.sidebar_count(config.show_side_popular, pub.PUB_SIDE_POSTS_MAX)
    recent = []
    if recent_n:
        newest = pub.public_posts_by_user(user.id, page=pub.Page(limit=recent_n + 1), viewer=request.user)
        recent = [p for p in newest if p.id != post.id][:recent_n]
    popular = []
    if popular_n:
        ranking = pub.pub_ranking(user.id, popular_n)
        popular = pub.public_posts_by_ids([e.id for e in ranking], viewer=request.user)
    title = site.post_title(post)
    site_name = config.site_name.strip()
    context.update(
        {
            "post": post,
            "title": title,
            "page_title": f"{site_name}: {title}" if site_name else title,
            "author": config.author.strip(),
            "description": site.article_description(post.content) or title,
            "locale": post.locale or user.locale,
            "canonical": request.build_absolute_uri(reverse("web:pub-post", args=[post.hex_id])),
            "recent": [_entry(p) for p in recent],
            "popular": [_entry(p) for p in popular],
        }
    )
    return render(request, "publication/post.html", context)


def _count_view(request, post) -> None:
    """A page view is counted like the original's signed view (services.publication);
    a failure to count never costs the reader the page."""
    fingerprint = pub_services.pub_view_fingerprint(
        site.reader_address(request), request.META.get("HTTP_USER_AGENT", "")
    )
    if fingerprint is None:
        return
    try:
        pub_services.pub_view_record(post, fingerprint)
    except Exception:
        log.exception("counting a view of %s failed", post.id)


class SiteFeed(Feed):
    """The newest public posts of one site as Atom (docs/publication.md §4)."""

    feed_type = Atom1Feed

    def get_object(self, request, user_hex):
        self.request = request
        return pub.pub_site_get(parse_id(user_hex, "user id"))

    def title(self, obj):
        return site.site_title(obj[1])

    def subtitle(self, obj):
        return obj[1].subtitle.strip() or site.site_description(obj[1])

    def link(self, obj):
        return reverse("web:pub-site", args=[obj[0].hex_id])

    def feed_url(self, obj):
        return reverse("web:pub-feed", args=[obj[0].hex_id])

    def author_name(self, obj):
        return obj[1].author.strip() or obj[0].nickname

    def items(self, obj):
        return pub.public_posts_by_user(obj[0].id, page=pub.Page(limit=FEED_ITEMS), viewer=self.request.user)

    def item_title(self, item):
        return site.post_title(item)

    def item_description(self, item):
        return render_html(item.content)

    def item_link(self, item):
        return reverse("web:pub-post", args=[item.hex_id])

    def item_guid(self, item):
        return self.request.build_absolute_uri(self.item_link(item))

    def item_pubdate(self, item):
        return item.published_at

    def item_updateddate(self, item):
        return item.updated_at or item.published_at

    def item_categories(self, item):
        return item.tag_names


_feed = SiteFeed()


@require_GET
@page(public=True)
def pub_feed(request, user_hex):
    return _feed(request, user_hex=user_hex)


# ----------------------------------------------------------------- owner's settings


def settings_context(request) -> dict:
    """The settings form of the user's public site, for /publications and /settings,
    with what a refused submission typed."""
    config = pub.pub_config_get(request.user.id)
    user = request.user
    form = bound_form(
        request,
        PubConfigForm,
        initial=PubConfigForm.initial_from(config),
        action=reverse("web:publications-update"),
    )
    return {
        "pub_form": form,
        "pub_site_url": reverse("web:pub-site", args=[user.hex_id]),
    }


@require_GET
@page
def publications(request):
    return render(
        request,
        "publication/publications.html",
        {**settings_context(request), "stats": pub.pub_stats(request.user.id)},
    )


@require_POST
@page(back="web:publications")
def publications_update(request):
    # The same form sits on /settings; it sends `from=settings` to come back there.
    target = reverse("web:settings" if request.POST.get("from") == "settings" else "web:publications")
    form = PubConfigForm(request.POST)
    if not form.is_valid():
        return refused_form(request, form, target)
    pub_services.pub_config_update(request.user, request.user.id, form.changes())
    messages.success(request, "Public site settings saved.")
    return redirect(target)
