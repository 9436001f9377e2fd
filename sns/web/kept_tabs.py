"""The home timeline's tabs, its "new posts" button and the opening of its section kept
rendered per process (templates/timeline/_tabs.html): they are the same for every viewer
on the same tab but for one string (the newest post's id, which the live check counts
from), and their template (a dozen comparisons of the tab, five reversed URLs) was about
four hundred calls of a home view (bench/README.md "Round 13 — pages9").

Kept per tab, tag, whether "For you" is offered and whether the page polls for newer
posts, and the URLconf and script prefix the URLs are reversed with. The kept HTML has a
marker where the newest post's id goes (private-use characters, as in
sns/web/kept_compose.py), filled on every request with what the template would have
written. A tag holding the marker's character is rendered as before; so is everything
with STGY_PAGE_FRAGMENTS off, like the cards (sns/web/fragments.py)."""

from __future__ import annotations

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from .kept_store import KeptStore

TEMPLATE = "timeline/_tabs.html"
_MARK = "\ue000"
_AFTER = f"{_MARK}after\ue001"
# One entry per tab and tag: a tag comes from the address, so the store is emptied
# rather than allowed to grow.
_kept = KeptStore(256)


def _include(context, **values) -> str:
    """What `{% include "timeline/_tabs.html" %}` writes, with `values` set."""
    template = context.template.engine.get_template(TEMPLATE)
    with context.push(**values):
        return template.render(context)


def timeline_tabs(context) -> str:
    tag = context.get("tag")
    if not settings.STGY_PAGE_FRAGMENTS or type(tag) is not str or _MARK in tag:
        return _include(context)
    live = context.get("live")
    key = (context.get("tab"), tag, context.get("for_you_available"), live, get_urlconf(), get_script_prefix())
    skeleton = _kept.get(key)
    if skeleton is None:
        skeleton = _kept.put(key, _include(context, live_after=_AFTER))
    if not live:  # no live check, no id
        return mark_safe(skeleton)
    return mark_safe(skeleton.replace(_AFTER, conditional_escape(context.get("live_after"))))


def clear() -> None:
    _kept.clear()
