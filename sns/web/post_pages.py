"""A post with its thread; reply, like, edit, delete."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns import selectors, services
from sns.core.ids import id_to_hex, parse_id
from sns.extensions import page_extras
from sns.reads.access import access_post
from sns.selectors import publication as selectors_publication
from sns.selectors.post_reads import instances, threads
from sns.selectors.reply_tree import reply_tree, reply_tree_nodes

from .cards import cards_attach
from .forms import LOCALE_CHOICES, PostForm, ReplyForm
from .pageview import back_url, bound_form, page, paged, refused_form

log = logging.getLogger(__name__)
ANCESTOR_LIMIT = 20
RELATED_LIMIT = 5
REPLY_PAGE_SIZE = 50


def _related(post, viewer, *, compute: bool) -> list | None:
    """ "Related posts" from the page extras (sns/extensions.py); like "For you", an
    extra whose failure is logged and hidden. None: not ready without computing it."""
    provider = page_extras().related_posts
    if provider is None:
        return []
    try:
        return provider(post, viewer, limit=RELATED_LIMIT, compute=compute)
    except Exception:
        log.exception("related posts of %s failed", post.id)
        return []


def _post_id(post_hex: str) -> int:
    return parse_id(post_hex, "post id")


def _post_url(post_id_hex: str, anchor: str | None = None) -> str:
    url = reverse("web:post", args=[post_id_hex])
    return f"{url}#post-{anchor}" if anchor else url


@require_GET
@page(public=True)
def post_detail(request, post_hex):
    """A visitor who is not logged in is sent to the post's public page if it has one
    (docs/publication.md §2), else to log in."""
    if not request.user.is_authenticated:
        public = selectors_publication.public_posts_by_ids([_post_id(post_hex)], viewer=None)
        if public:
            return redirect("web:pub-post", post_hex=public[0].hex_id)
        return redirect_to_login(request.get_full_path())
    return _post_detail(request, post_hex)


@page
def _post_detail(request, post_hex):
    viewer = request.user
    # The post, its replies and its ancestors through the statement builder
    # (sns/selectors/post_reads/).
    post = instances.post_with_neighbours(viewer, _post_id(post_hex), focus_user_id=viewer.id)
    older_id, newer_id = selectors.post_neighbours(post)
    replies = paged(
        request,
        lambda p: instances.posts_page(viewer, p, focus_user_id=viewer.id, reply_to=post.id),
        size=REPLY_PAGE_SIZE,
        order="asc",
    )
    ancestors = threads.ancestors(post, limit=ANCESTOR_LIMIT, viewer=viewer)
    # A parent that is not shown is either gone or hidden from the reader (a block, a
    # mute): the page says which, rather than calling a hidden post deleted.
    parent_exists = bool(post.reply_to and not ancestors and selectors.post_exists(post.reply_to))
    # The replies' own conversations, a few levels deep (sns/selectors/reply_tree.py).
    tree = reply_tree(list(replies.items), viewer=viewer)
    shown_replies = [node.post for node in reply_tree_nodes(tree)]
    cards_attach(viewer, [post, *ancestors, *shown_replies])
    context = {
        "post": post,
        "ancestors": ancestors,
        "replies": replies,
        # What the reader can see: the stored count also holds replies hidden from them.
        "reply_total": (
            len(replies.items)
            if replies.number == 0 and not replies.has_older
            else selectors.posts_count(reply_to=post.id, viewer=viewer)
        ),
        "tree": tree,
        "older_id": older_id,
        "newer_id": newer_id,
        # The page polls for a reply newer than the newest it shows (sns/reads/live_marks.py);
        # one it may not see makes one redraw, after which the poll moves past it.
        "live_after": id_to_hex(max((r.id for r in shown_replies), default=0)),
        "parent_exists": parent_exists,
        "form": bound_form(
            request, ReplyForm, action=reverse("web:post-reply", args=[post_hex])
        ),
        # Ranking related posts costs more than the rest of the page; when no ranking is
        # cached, the page goes out without the box and stgy.js fetches it (post_related).
        "related": _related(post, viewer, compute=False),
    }
    return render(request, "posts/detail.html", context)


@require_GET
@page
def post_related(request, post_hex):
    """The "Related posts" box of a post page on its own, for the page to load after
    itself; empty when there is nothing related."""
    post = selectors.post_get(_post_id(post_hex), focus_user_id=request.user.id, viewer=request.user)
    return render(request, "posts/_related.html", {"related": _related(post, request.user, compute=True)})


@require_POST
@page(back="web:post")
def post_reply(request, post_hex):
    form = ReplyForm(request.POST)
    if not form.is_valid():
        return refused_form(request, form, _post_url(post_hex))
    reply = services.post_create(
        request.user, content=form.cleaned_data["content"], tags=[], reply_to=_post_id(post_hex)
    )
    return redirect(_post_url(post_hex, reply.hex_id))


@require_http_methods(["GET", "POST"])
@page
def post_edit(request, post_hex):
    # The same gate post_update applies, so nobody is shown a form they cannot submit.
    post = access_post(request.user, _post_id(post_hex), for_write=True)
    initial = {
        "content": post.content,
        "tags": ", ".join(post.tags.order_by("name").values_list("name", flat=True)),
        # A reply written on the page has no language of its own; the form shows the
        # author's, which saving then gives it, rather than an empty field.
        "locale": post.locale or post.owner.locale or "",
        "allow_likes": post.allow_likes,
        "allow_replies": post.allow_replies,
        "publish": post.published_at is not None,
    }
    form = bound_form(request, PostForm, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.post_update(
            request.user,
            post.id,
            **form.service_fields(),
            published_at=form.published_at(post.published_at),
        )
        messages.success(request, "Post updated.")
        return redirect(_post_url(post.hex_id))
    return render(
        request, "posts/edit.html", {"post": post, "form": form, "locale_choices": LOCALE_CHOICES}
    )


@require_http_methods(["GET", "POST"])
@page
def post_delete(request, post_hex):
    post = access_post(request.user, _post_id(post_hex), for_write=True)
    if request.method == "POST":
        services.post_delete(request.user, post.id)
        messages.success(request, "Post deleted.")
        if post.reply_to is not None:
            return redirect(_post_url(id_to_hex(post.reply_to)))
        return redirect("web:home")
    return render(request, "posts/delete.html", {"post": post})


@require_POST
@page(back="web:post")
def post_like(request, post_hex):
    services.like_add(request.user, _post_id(post_hex))
    return redirect(back_url(request, default=_post_url(post_hex)))


@require_POST
@page(back="web:post")
def post_unlike(request, post_hex):
    services.like_remove(request.user, _post_id(post_hex))
    return redirect(back_url(request, default=_post_url(post_hex)))
