"""The home page's compose box kept rendered per process: the box is the same for every
viewer with the same language but for three strings (the CSRF token, the viewer's id
in the upload paths and the `next` path), and rendering its include through the
template engine was about an eighth of a home view's CPU (bench/page_cpu).

Only a fresh form is kept: one prefilled with refused input or carrying its errors
(sns/web/pageview.py `bound_form`) is rendered as before. The kept HTML has markers
where the three strings go (private-use characters, which escaping leaves alone and a
page never contains otherwise), filled on every request with what the include would
have written, so the bytes are the include's. Off with STGY_PAGE_FRAGMENTS, like the
cards (sns/web/fragments.py)."""

from __future__ import annotations

from django.conf import settings
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from .forms import PostForm
from .kept_store import KeptStore, configuration, marker, render_include

TEMPLATE = "posts/_compose.html"
_NEXT, _TOKEN, _OWNER = marker("next"), marker("csrf"), marker("owner")
# One entry per language and configuration.
_kept = KeptStore(256)


def _keepable(form, user) -> bool:
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
    if not (settings.STGY_PAGE_FRAGMENTS and next_path and token and user is not None and _keepable(form, user)):
        return render_include(context, TEMPLATE, {"next": next_path})
    token, owner = str(token), f"/api/media/{user.hex_id}/"
    key = (user.locale, settings.STGY_CONTENT_LENGTH_LIMIT, tuple(form.fields), form.prefix, form.auto_id,
           _choices(context.get("locale_choices")), *configuration(getattr(context, "request", None)))
    skeleton = _kept.get(key)
    if skeleton is None:
        html = render_include(context, TEMPLATE, {"next": _NEXT})
        skeleton = _kept.put(key, html.replace(token, _TOKEN).replace(owner, f"/api/media/{_OWNER}/"))
    filled = (
        skeleton.replace(_NEXT, conditional_escape(next_path))
        .replace(_TOKEN, token)
        .replace(_OWNER, user.hex_id)
    )
    return mark_safe(filled)


def clear() -> None:
    _kept.clear()
