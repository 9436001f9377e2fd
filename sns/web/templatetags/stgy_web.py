"""Template helpers of the pages (`{% load stgy_web %}`).

`markdown` is the only place user text becomes markup, and it goes through
sns.reads.markdown.render_html (markdown-it with raw HTML off, then the nh3 sanitiser).
"""

from __future__ import annotations

import json
from functools import lru_cache

from django import template
from django.conf import settings
from django.template.defaultfilters import stringfilter
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.text import Truncator

from sns import selectors
from sns.core.ids import id_to_hex
from sns.reads.markdown import render_html
from sns.selectors import reports as selectors_reports
from sns.web import cards, display, fragments, kept_parts, theme

register = template.Library()
for _helper in (display.is_long, display.post_url, display.profile_url, display.hue, display.ago):
    register.filter(_helper.__name__, _helper)


@register.filter
def markdown(text) -> str:
    return mark_safe(render_html(str(text or "")))


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
    return selectors.notifications_unread_count(user)


@register.simple_tag
def open_reports(user) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return selectors_reports.reports_open_count(user)


@register.simple_tag
def optional_url(name: str, *args) -> str:
    """The URL of a page another part of the site may or may not provide yet."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


@register.filter(is_safe=True)
@stringfilter
def kept_truncatechars(value: str, length) -> str:
    """`truncatechars`, remembered per text, length and language (its "…" is translated):
    Django's Truncator looks at the text character by character, a hundred-odd calls for
    a post page's title."""
    return _truncated(value, int(length), translation.get_language())


@lru_cache(maxsize=4096)
def _truncated(text: str, length: int, language: str | None) -> str:
    return Truncator(text).chars(length)


@register.filter
def hexid(value) -> str:
    return id_to_hex(int(value)) if value not in (None, "") else ""


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
    """`{% post_card post compact=True %}`: the card of sns/web/cards.py, kept per process
    by key (sns/web/fragments.py) unless STGY_PAGE_FRAGMENTS is off."""
    request = context["request"]
    build = _card_builder(request)
    return build(post, request=request, compact=bool(compact), full=bool(full), hide_reply_to=bool(hide_reply_to))


def _card_builder(request):
    """The kept card, or with STGY_PAGE_FRAGMENTS off sns/web/cards.py's reference."""
    return fragments.post_card_html if fragments.fragments_on(request) else cards.post_card_html


@register.simple_tag(takes_context=True)
def post_cards(context, posts) -> str:
    """`{% post_cards posts %}`: the timeline's cards, each as `{% post_card post %}` writes
    it and laid out as the `{% for %}` loop around that tag laid them out (each on its own
    line, indented): one tag for the page rather than a loop iteration, a tag call and
    its argument look-ups per card, about twenty calls of template machinery a card."""
    request = context["request"]
    build = _card_builder(request)
    return mark_safe("".join([f"\n    {build(post, request=request)}\n  " for post in posts]))


@register.simple_tag
def user_name(user) -> str:
    """`{% user_name u %}`: avatar, nickname and AI badge, as on a post card."""
    return cards.user_name_html(user)


@register.simple_tag
def theme_choice(request) -> str:
    """The theme picked in the footer ("system", "light" or "dark"; sns/web/theme.py)."""
    return theme.theme_of(request)


@register.simple_tag
def theme_choices() -> tuple:
    return theme.THEMES


@register.simple_tag
def live_poll_seconds() -> int:
    """How often the pages poll /live (static/stgy.js)."""
    return settings.STGY_LIVE_POLL_SECONDS


@register.simple_tag
def live_thread_seconds() -> str:
    """`data-live-seconds` of a post page's or a message thread's watch (static/stgy.js):
    "fast slow"."""
    return f"{settings.STGY_LIVE_THREAD_SECONDS:g} {settings.STGY_LIVE_THREAD_IDLE_SECONDS:g}"


@register.simple_tag
def avatar(user, large=False) -> str:
    """`{% avatar u large=True %}`: the uploaded icon or the initial (sns/web/cards.py)."""
    return cards.avatar_html(user, large=bool(large))


@register.simple_tag
def map_config() -> str:
    """What static/stgy-map.js needs (docs/media.md §10): where Leaflet is, and the tiles
    (none unless STGY_MAP_TILE_URL is set), as a JSON script element (no inline script)."""
    from django.templatetags.static import static
    from django.utils.html import json_script

    return json_script({
        "leafletJs": static("leaflet/leaflet.js"), "leafletCss": static("leaflet/leaflet.css"),
        "tileUrl": settings.STGY_MAP_TILE_URL, "attribution": settings.STGY_MAP_TILE_ATTRIBUTION,
    }, "stgy-map-config")


@register.simple_tag(takes_context=True)
def compose_box(context, next_path) -> str:
    """`{% compose_box request.get_full_path %}`: the include of posts/_compose.html
    with `next`, kept rendered when the form is fresh (sns/web/kept_parts.py)."""
    return kept_parts.compose_box(context, next_path)


@register.simple_tag(takes_context=True)
def timeline_tabs(context) -> str:
    """`{% timeline_tabs %}`: the include of timeline/_tabs.html (the home timeline's
    tabs and the opening of its section), kept rendered (sns/web/kept_parts.py)."""
    return kept_parts.timeline_tabs(context)


@register.simple_tag(takes_context=True)
def post_meta(context) -> str:
    """`{% post_meta %}`: the include of posts/_meta.html (a post page's times and
    links), kept rendered (sns/web/kept_parts.py)."""
    return kept_parts.post_meta(context)


@register.simple_tag(takes_context=True)
def reply_box(context) -> str:
    """`{% reply_box %}`: the include of posts/_reply_box.html (a post page's reply
    form, or the note that replies are off), kept rendered (sns/web/kept_parts.py)."""
    return kept_parts.reply_box(context)


@register.simple_tag(takes_context=True)
def page_assets(context) -> str:
    """The head's icon, stylesheets, scripts and map configuration of templates/base.html,
    kept rendered per process (sns/web/kept_parts.py)."""
    return kept_parts.page_assets(context)


@register.simple_tag(takes_context=True)
def site_header(context) -> str:
    """The site header of templates/base.html, kept rendered per kind of viewer with
    the counts, nickname and CSRF token filled in (sns/web/kept_parts.py)."""
    return kept_parts.site_header(context)


@register.simple_tag(takes_context=True)
def site_footer(context) -> str:
    """The site footer with the theme form, kept per theme (sns/web/kept_parts.py)."""
    return kept_parts.site_footer(context)
