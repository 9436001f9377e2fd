"""Template helpers of the pages (`{% load stgy_web %}`).

`markdown` is the only place user text becomes markup, and it goes through
sns.markdown.render_html (markdown-it with raw HTML off, then the nh3 sanitiser).
"""

from __future__ import annotations

import json
import zlib
from functools import lru_cache

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince

from sns import selectors
from sns.ids import id_to_hex
from sns.markdown import render_html

register = template.Library()


@register.filter
def markdown(text) -> str:
    return mark_safe(render_html(str(text or "")))


@register.filter
def is_long(text, compact=False) -> bool:
    """Whether a card should clamp this Markdown and offer "Read more": more than about
    14 lines (5 on a compact card). A heuristic; the clamp itself is CSS."""
    lines = 5 if compact else 14
    text = str(text or "")
    return text.count("\n") >= lines or len(text) > lines * 60


@register.filter
def impression(payload) -> dict:
    """An impression payload (JSON text written by the AI cycle) as a dict with at least
    "impression"; anything that is not the expected JSON object is shown as raw text."""
    try:
        data = json.loads(payload or "")
    except (TypeError, ValueError):
        data = None
    if not isinstance(data, dict):
        return {"impression": str(payload or ""), "tags": []}
    tags = data.get("tags")
    data["tags"] = [str(t) for t in tags] if isinstance(tags, list) else []
    data["impression"] = str(data.get("impression", ""))
    return data


@register.simple_tag
def unread_notifications(user) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return selectors.notifications_unread_count(user.id)


@register.simple_tag
def optional_url(name: str, *args) -> str:
    """The URL of a page another part of the site may or may not provide yet."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@lru_cache(maxsize=1)
def _post_path_prefix() -> str:
    return reverse("web:post", args=["0"])[:-1]


@register.filter
def post_url(hex_id, action: str = "") -> str:
    """The path of a post page, or of one of its actions ("like", "unlike", "reply"...),
    the same as `{% url 'web:post' %}` / `{% url 'web:post-<action>' %}` give. A card
    has half a dozen such links and resolving each through the URL patterns was a
    tenth of a timeline's render time."""
    path = _post_path_prefix() + str(hex_id)
    return f"{path}/{action}" if action else path


@lru_cache(maxsize=1)
def _profile_path_prefix() -> str:
    return reverse("web:profile", args=["0"])[:-1]


@register.filter
def profile_url(hex_id) -> str:
    """The path of a user's profile page, as `{% url 'web:profile' %}` gives."""
    return _profile_path_prefix() + str(hex_id)


@register.filter
def hexid(value) -> str:
    return id_to_hex(int(value)) if value not in (None, "") else ""


@register.filter
def hue(user_id) -> int:
    """One of eight avatar colours, stable per user (a class: the CSP allows no inline
    style). Hashed, because the low bits of an id are a worker number and a sequence."""
    return zlib.crc32(str(user_id).encode()) % 8


@register.filter
def ago(moment) -> str:
    """ "just now", "5 minutes ago", "2 days ago" (in the viewer's time zone's now)."""
    if not moment:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment, depth=1)} ago"


@register.simple_tag(takes_context=True)
def page_url(context, param: str, number) -> str:
    """The current URL with one paging parameter set (dropped for the first page)."""
    query = context["request"].GET.copy()
    query.pop(param, None)
    if number:
        query[param] = str(number)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else context["request"].path


@register.simple_tag(takes_context=True)
def post_card(context, post, compact=False, full=False, hide_reply_to=False) -> str:
    """`{% post_card post compact=True %}`: the card of sns/web/cards.py."""
    from sns.web.cards import post_card_html

    return post_card_html(
        post, request=context["request"], compact=bool(compact), full=bool(full), hide_reply_to=bool(hide_reply_to)
    )


@register.simple_tag
def user_name(user) -> str:
    """`{% user_name u %}`: avatar, nickname and AI badge, as on a post card."""
    from sns.web.cards import user_name_html

    return user_name_html(user)


@register.simple_tag
def avatar(user, large=False) -> str:
    """`{% avatar u large=True %}`: the uploaded icon or the initial (sns/web/cards.py)."""
    from sns.web.cards import avatar_html

    return avatar_html(user, large=bool(large))
