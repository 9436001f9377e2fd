"""The page chrome, the head's assets and the site header and footer of
templates/base.html, kept rendered per process. Every page writes them, and all but a
few strings are the same for every viewer of one kind: the header differs by signed in
or not, admin or not and which counts are non-zero; the footer by the theme. Rendering
both through the template engine (some twenty `{% url %}`, two `{% csrf_token %}`, the
theme loop) on every view was the largest part of a page's CPU left outside the cards
(bench/page_cpu).

As in sns/web/kept_compose.py, the kept HTML has markers (private-use characters,
which escaping leaves alone and a page never contains otherwise) where the per-request
strings go: the CSRF token, the counts, the viewer's nickname and profile path, the
page's path; they are filled on every view through `render_value_in_context`, what
`{{ … }}` writes, so the bytes are the templates'. The counts are read on every view,
in one statement (sns/selectors/header_counts.py). Off with STGY_PAGE_FRAGMENTS, like
the cards (sns/web/fragments.py).

The head's assets (the icon, stylesheets, scripts and map configuration of
templates/_page_assets.html) are the same bytes for every viewer: eight `{% static %}`
URLs through the static files storage and the map settings, none of which changes while
a process runs. A test that overrides one of them is told through `setting_changed`,
which empties the store."""

from __future__ import annotations

from django.conf import settings
from django.core.signals import setting_changed
from django.template.base import render_value_in_context
from django.utils.safestring import mark_safe

from sns.selectors.header_counts import header_counts

from .kept_store import KeptStore, configuration, marker, render_include
from .templatetags.stgy_urls import kept_reverse

ASSETS = "_page_assets.html"
HEADER = "_site_header.html"
FOOTER = "_site_footer.html"
_TOKEN = marker("csrf")
# One entry per kind of viewer, theme and configuration.
_kept = KeptStore(256)


def _configuration(context) -> tuple:
    # The active language too: the pages are English-only today, but a skeleton holds
    # the templates' translated strings, so a language switched on later keeps its own.
    return configuration(getattr(context, "request", None))


def _kept_render(context, name: str, key: tuple, values: dict) -> str:
    """`name` rendered with `values`: from the kept skeleton when fragments are on and
    the request has a CSRF token, else through the template engine (the reference)."""
    token = context.get("csrf_token")
    if not (settings.STGY_PAGE_FRAGMENTS and token and str(token) != "NOTPROVIDED"):
        return render_include(context, name, values)
    # A marker is truthy, so only a truthy value is one: a falsy count renders as
    # itself (its `{% if %}` shows nothing), and which are truthy is part of the key.
    shown = tuple(bool(value) for value in values.values())
    key = (name, *key, shown, *_configuration(context))
    skeleton = _kept.get(key)
    if skeleton is None:
        markers = {field: marker(field) if value else value for field, value in values.items()}
        skeleton = _kept.put(key, render_include(context, name, {**markers, "csrf_token": _TOKEN}))
    filled = skeleton.replace(_TOKEN, str(token))
    for field, value in values.items():
        if value:
            filled = filled.replace(marker(field), str(render_value_in_context(value, context)))
    return mark_safe(filled)


def page_assets(context) -> str:
    if not settings.STGY_PAGE_FRAGMENTS:
        return render_include(context, ASSETS, {})
    key = (ASSETS, *_configuration(context))
    kept = _kept.get(key)
    if kept is None:
        kept = _kept.put(key, render_include(context, ASSETS, {}))
    return mark_safe(kept)


def site_header(context) -> str:
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return _kept_render(context, HEADER, ("anonymous",), {})
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
    return _kept_render(context, HEADER, ("viewer", admin), values)


def site_footer(context) -> str:
    request = context.get("request")
    values = {"page_path": request.get_full_path() if request is not None else ""}
    return _kept_render(context, FOOTER, (context.get("theme"), context.get("theme_choices")), values)


def clear() -> None:
    _kept.clear()


# What the head's assets are made of, besides the script prefix in the key.
_ASSET_SETTINGS = frozenset({"STATIC_URL", "STORAGES", "STGY_MAP_TILE_URL", "STGY_MAP_TILE_ATTRIBUTION"})


def _setting_changed(*, setting, **_signal) -> None:
    if setting in _ASSET_SETTINGS:
        clear()


setting_changed.connect(_setting_changed, dispatch_uid="sns.web.kept_chrome")
