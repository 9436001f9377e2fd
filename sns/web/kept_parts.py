"""Parts of the pages kept rendered per process as includes (sns/web/kept.py
`KeptInclude`), each of which was a few hundred Python calls of a view or more:

- the head's assets (templates/_page_assets.html: eight `{% static %}` URLs through the
  static files storage and the map settings), the same bytes for every viewer; a test
  that overrides one of their settings is told through `setting_changed`;
- the site header and footer of templates/base.html (some twenty `{% url %}`, two
  `{% csrf_token %}`, the theme loop), kept per kind of viewer (signed in or not,
  admin or not), which counts are non-zero and the theme, with the CSRF token, the
  counts (read on every view in one statement, sns/selectors/header_counts.py), the
  viewer's nickname and profile path and the page's path written in;
- the home page's compose box (templates/posts/_compose.html), kept per language when
  its form is fresh (not prefilled with refused input or carrying its errors,
  sns/web/pageview.py `bound_form`), with the CSRF token, the viewer's id in the upload
  paths and `next` written in;

- the home timeline's tabs, its "new posts" button and the opening of its section
  (templates/timeline/_tabs.html: a dozen comparisons of the tab, five reversed URLs),
  the same for every viewer on the same tab but for the newest post's id, which the
  live check counts from: kept per tab, tag, whether "For you" is offered and whether
  the page polls for newer posts, by the People / AI / All filter and whether For you
  fell back to Everyone;
- a post page's times, its Public page / Edit / Delete / Report links and the links to
  the author's previous and next posts (templates/posts/_meta.html: two date formats,
  three reversed links, a dozen look-ups and comparisons), kept per everything the
  include reads: the post (its id gives the page's address and the creation time),
  when it was edited, whether it is public, whether it is a reply, its neighbours, its
  author's nickname, whether the viewer owns it or is an admin, and the time zone the
  times are shown in;
- a post page's reply box (templates/posts/_reply_box.html: the form with its widget),
  kept per post, whether it takes replies and how the form is set up, the CSRF token
  written in on every view; only a fresh form is kept, not one prefilled with refused
  input or carrying its errors (sns/web/pageview.py `bound_form`)."""

from __future__ import annotations

from django.conf import settings
from django.core.signals import setting_changed
from django.utils import timezone

from sns.selectors.header_counts import header_counts

from .forms import PostForm, ReplyForm
from .kept import KeptInclude
from .templatetags.stgy_urls import kept_reverse

# One entry per kind of viewer, theme and configuration.
_assets = KeptInclude("_page_assets.html", 16)
_header = KeptInclude("_site_header.html", 256)
_footer = KeptInclude("_site_footer.html", 256)
# One entry per language and configuration.
_compose = KeptInclude("posts/_compose.html", 256)

# One entry per tab and tag: a tag comes from the address, so the store is emptied
# rather than allowed to grow (sns/web/kept.py).
_tabs = KeptInclude("timeline/_tabs.html", 256)
# One entry per post and kind of viewer; a post page is one of many.
_meta = KeptInclude("posts/_meta.html", 2048)
_reply_box = KeptInclude("posts/_reply_box.html", 2048)


def page_assets(context) -> str:
    return _assets.render(context, (), {})


def _chrome(include: KeptInclude, context, key: tuple, values: dict) -> str:
    """`include` with `values`, kept when the request has a CSRF token. A marker is
    truthy, so only a truthy value is a hole: a falsy one (a zero count) is written as
    itself (its `{% if %}` shows nothing), and which are truthy is part of the key."""
    token = context.get("csrf_token")
    if not (token and str(token) != "NOTPROVIDED"):
        return include.render(context, None, values)
    holes = {name: value for name, value in values.items() if value}
    falsy = {name: value for name, value in values.items() if not value}
    key = (*key, tuple(bool(value) for value in values.values()))
    return include.render(context, key, {**holes, "csrf_token": str(token)}, falsy)


def site_header(context) -> str:
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return _chrome(_header, context, ("anonymous",), {})
    counts = header_counts(user)
    values = {
        "unread": counts.unread,
        "unread_dm": counts.unread_dm,
        "nav_profile": kept_reverse("web:profile", [user.hex_id], {}, None, getattr(context, "request", None)),
        "nav_nickname": user.nickname,
    }
    admin = bool(user.is_admin)
    if admin:
        values["reports_open"] = counts.reports_open
    return _chrome(_header, context, ("viewer", admin), values)


def site_footer(context) -> str:
    request = context.get("request")
    values = {"page_path": request.get_full_path() if request is not None else ""}
    return _chrome(_footer, context, (context.get("theme"), context.get("theme_choices")), values)


def _fresh_post_form(form, user) -> bool:
    return (
        type(form) is PostForm
        and not form.is_bound
        and not form._errors
        and form.initial == {"locale": user.locale}
        and user.is_authenticated
    )


def _choices(choices):
    """The datalist's choices as a key: their values, not the list's identity (a list
    changed in place, or a new one at a freed address, would find a stale box)."""
    return None if choices is None else tuple(tuple(choice) for choice in choices)


def compose_box(context, next_path) -> str:
    form, user = context.get("form"), context.get("user")
    token = context.get("csrf_token")
    holes = {"next": next_path}
    key = None
    if next_path and token and user is not None and _fresh_post_form(form, user):
        key = (user.locale, settings.STGY_CONTENT_LENGTH_LIMIT, tuple(form.fields), form.prefix, form.auto_id,
               _choices(context.get("locale_choices")))
        holes.update(csrf_token=str(token), upload_owner=user.hex_id)
    return _compose.render(context, key, holes)


def timeline_tabs(context) -> str:
    key = (
        context.get("tab"), context.get("tag"), context.get("for_you_available"), context.get("live"),
        context.get("authors"), context.get("for_you_empty"),
    )
    return _tabs.render(context, key, {"live_after": context.get("live_after")})


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
    for include in (_assets, _header, _footer, _compose, _tabs):
        include.clear()
    _meta.clear()
    _reply_box.clear()


# What the head's assets are made of, besides the script prefix in the key.
_ASSET_SETTINGS = frozenset({"STATIC_URL", "STORAGES", "STGY_MAP_TILE_URL", "STGY_MAP_TILE_ATTRIBUTION"})


def _setting_changed(*, setting, **_signal) -> None:
    if setting in _ASSET_SETTINGS:
        _assets.clear()


setting_changed.connect(_setting_changed, dispatch_uid="sns.web.kept_parts")
