"""A post page's times, its Public page / Edit / Delete / Report links and the links to
the author's previous and next posts (templates/posts/_meta.html) kept rendered per
process (sns/web/kept_includes.py): two date formats, three reversed links and a dozen
look-ups and comparisons were about four hundred calls of a post page view
(bench/README.md "Round 13 — pages9"). Kept per everything the include reads: the
post (its id gives the page's address and the creation time), when it was edited,
whether it is public, whether it is a reply, its neighbours, its author's nickname,
whether the viewer owns it or is an admin, and the time zone the times are shown in."""

from __future__ import annotations

from django.utils import timezone

from .kept_includes import KeptInclude

# One entry per post and kind of viewer; a post page is one of many.
_meta = KeptInclude("posts/_meta.html", 2048)


def post_meta(context) -> str:
    post, user = context.get("post"), context.get("user")
    key = (
        post.id, post.updated_at, bool(post.published_at), bool(post.reply_to), post.owner.nickname,
        context.get("older_id"), context.get("newer_id"),
        post.owner_id == getattr(user, "id", None), bool(getattr(user, "is_admin", False)),
        timezone.get_current_timezone(),
    )
    return _meta.render(context, key, {})


def clear() -> None:
    _meta.clear()
