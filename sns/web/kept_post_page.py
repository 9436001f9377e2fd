"""Two parts of a post page kept rendered per process (sns/web/kept_includes.py), each
of which was a few hundred Python calls of a view:

- its times, its Public page / Edit / Delete / Report links and the links to the
  author's previous and next posts (templates/posts/_meta.html: two date formats,
  three reversed links, a dozen look-ups and comparisons), kept per everything the
  include reads: the post (its id gives the page's address and the creation time),
  when it was edited, whether it is public, whether it is a reply, its neighbours, its
  author's nickname, whether the viewer owns it or is an admin, and the time zone the
  times are shown in;
- its reply box (templates/posts/_reply_box.html: the form with its widget), kept per
  post, whether it takes replies and how the form is set up, the CSRF token written
  in on every view; only a fresh form is kept, not one prefilled with refused input
  or carrying its errors (sns/web/pageview.py `bound_form`)."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from .forms import ReplyForm
from .kept_includes import KeptInclude

# One entry per post and kind of viewer; a post page is one of many.
_meta = KeptInclude("posts/_meta.html", 2048)
_reply_box = KeptInclude("posts/_reply_box.html", 2048)


def post_meta(context) -> str:
    post, user = context.get("post"), context.get("user")
    key = (
        post.id, post.updated_at, bool(post.published_at), bool(post.reply_to), post.owner.nickname,
        context.get("older_id"), context.get("newer_id"),
        post.owner_id == getattr(user, "id", None), bool(getattr(user, "is_admin", False)),
        timezone.get_current_timezone(),
    )
    return _meta.render(context, key, {})


def _fresh(form) -> bool:
    return type(form) is ReplyForm and not form.is_bound and not form._errors and not form.initial


def reply_box(context) -> str:
    post, form = context.get("post"), context.get("form")
    key = None
    if _fresh(form):
        key = (post.id, bool(post.allow_replies), settings.STGY_CONTENT_LENGTH_LIMIT, tuple(form.fields),
               form.prefix, form.auto_id)
    return _reply_box.render(context, key, {"csrf_token": str(context.get("csrf_token"))})


def clear() -> None:
    _meta.clear()
    _reply_box.clear()
