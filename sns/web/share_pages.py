"""Repost, quote and bookmark pages (docs/shares.md): one-button forms on every post
card, the quote box, and the viewer's Bookmarks."""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sns import selectors, services
from sns.core.ids import parse_id
from sns.selectors import shares

from .cards import cards_attach
from .forms import LOCALE_CHOICES, PostForm
from .pageview import back_url, bound_form, page, paged


def _post_id(post_hex: str) -> int:
    return parse_id(post_hex, "post id")


def _toggle(service):
    """A POST page that calls `service(viewer, post id)` and returns to the card."""

    @require_POST
    @page(back="web:post")
    def view(request, post_hex):
        service(request.user, _post_id(post_hex))
        return redirect(back_url(request, default=reverse("web:post", args=[post_hex])))

    return view


post_repost = _toggle(services.repost_add)
post_unrepost = _toggle(services.repost_remove)
post_bookmark = _toggle(services.bookmark_add)
post_unbookmark = _toggle(services.bookmark_remove)


class QuoteForm(PostForm):
    """A post form for a quote: a quote is a new root post, published only as any post
    is later, from its edit page."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["publish"]
        self.fields["content"].label = "Quote"
        self.fields["content"].widget.attrs["placeholder"] = "Add your thoughts. Markdown works."


@require_http_methods(["GET", "POST"])
@page
def post_quote(request, post_hex):
    viewer = request.user
    quoted = selectors.post_get(_post_id(post_hex), focus_user_id=viewer.id)
    form = bound_form(request, QuoteForm, initial={"locale": viewer.locale})
    if request.method == "POST" and form.is_valid():
        post = services.quote_create(viewer, quoted.id, **form.service_fields())
        return redirect("web:post", post.hex_id)
    cards_attach(viewer, [quoted])
    return render(
        request,
        "posts/quote.html",
        {"quoted": quoted, "form": form, "locale_choices": LOCALE_CHOICES},
    )


@require_GET
@page
def bookmarks(request):
    viewer = request.user
    posts = paged(request, lambda p: shares.bookmarks_list(viewer, page=p))
    cards_attach(viewer, posts.items)
    return render(request, "posts/bookmarks.html", {"posts": posts})
