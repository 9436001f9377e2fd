"""The share parts of a post card (docs/shares.md): "X reposted" above it, the quoted
post inside it, and the repost, quote and bookmark controls below it. Built with
`format_html` like the rest of the card (sns/web/cards.py says why); the controls are
plain forms with the CSRF token, so they work without JavaScript."""

from __future__ import annotations

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator

from .card_forms import toggle_form_html
from .display import ago, post_url, profile_url
from .markup import format_html

_REPOST_ICON = mark_safe(
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 9V7h13l-3-3M20 15v2H7l3 3"/></svg>'
)
_BOOKMARK_ICON = mark_safe(
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3h12v18l-6-5-6 5z"/></svg>'
)
_QUOTE_ICON = mark_safe(
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 6h6v6H7l-2 5M13 6h6v6h-4l-2 5"/></svg>'
)
_QUOTED_CHARS = 280
# What a card without a reposter or a quote holds there: one immutable empty string
# rather than a `mark_safe` call (and its lazy-argument check) on every card.
_NOTHING = mark_safe("")


def reposted_by_html(post) -> SafeString:
    # Set on reposts only (sns/selectors/shares.py), as an instance attribute: looked up
    # there, as for `quoted` below.
    reposter = post.__dict__.get("reposted_by")
    if reposter is None:
        return _NOTHING
    return format_html(
        '<p class="reposted-by">{} <a href="{}">{}</a> reposted</p>',
        _REPOST_ICON,
        profile_url(reposter.hex_id),
        reposter.nickname,
    )


def quoted_html(post) -> SafeString:
    """The quoted post inside the quoting one: author, time, the start of its text and
    a link; "unavailable" when it is deleted or hidden from the viewer."""
    # Set on quotes only (sns/selectors/shares.py), as an instance attribute: looked up
    # there, as a failed getattr raises and drops an AttributeError on every other card.
    if "quoted" not in post.__dict__:
        return _NOTHING
    quoted = post.quoted
    if quoted is None:
        return mark_safe('<p class="quoted unavailable" data-testid="quoted-unavailable">The quoted post is unavailable.</p>')
    return format_html(
        '<blockquote class="quoted" data-testid="quoted-post" cite="{}">'
        '<p class="quoted-head"><a href="{}">{}</a> · <a href="{}"><time datetime="{}">{}</time></a></p>'
        '<p class="quoted-text" lang="{}">{}</p></blockquote>',
        post_url(quoted.hex_id),
        profile_url(quoted.owner.hex_id),
        quoted.owner.nickname,
        post_url(quoted.hex_id),
        quoted.created_at.isoformat(),
        ago(quoted.created_at),
        quoted.effective_locale,
        Truncator(quoted.snippet_text).chars(_QUOTED_CHARS),
    )


def share_actions_html(post, *, viewer, parts) -> SafeString:
    """Repost (with the count), quote (a link to the quote box) and bookmark; `parts`:
    the card's per-view parts, which hold the forms' CSRF token and `next`."""
    share = getattr(post, "share", None)
    reposted = bool(share and share.reposted)
    bookmarked = bool(share and share.bookmarked)
    count = format_html(' <span class="repost-count">{}</span>', share.reposts) if share else mark_safe("")
    repost = toggle_form_html(
        post,
        parts,
        action="unrepost" if reposted else "repost",
        css="share repost" + (" on" if reposted else ""),
        pressed=reposted,
        title="Undo repost" if reposted else "Repost",
        inner=_REPOST_ICON + count,
    )
    quote = mark_safe("")
    if post.allow_replies or viewer.is_admin:
        quote = format_html(
            '<a class="stat share-quote" href="{}" title="Quote">{}<span class="label"> Quote</span></a>',
            reverse("web:post-quote", args=[post.hex_id]),
            _QUOTE_ICON,
        )
    bookmark = toggle_form_html(
        post,
        parts,
        action="unbookmark" if bookmarked else "bookmark",
        css="share bookmark" + (" on" if bookmarked else ""),
        pressed=bookmarked,
        title="Remove bookmark" if bookmarked else "Bookmark",
        inner=_BOOKMARK_ICON,
    )
    return repost + quote + bookmark
