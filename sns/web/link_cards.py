"""Link cards under posts (docs/api.md, "Link previews"): the original's `%[caption](url)`
lines, and otherwise a post's first web link, shown as a card with the page's title,
description and picture.

A page never waits on a remote site: a card is drawn from the cache when its page has
been fetched before; otherwise a placeholder is drawn and static/stgy-links.js asks
POST /api/link-snippets/resolve after load and fills it in. Every text is escaped here
(format_html) and, in the script, set as text, never as markup.
"""

from __future__ import annotations

import re

from django.utils.safestring import SafeString, mark_safe

from sns.core.errors import InvalidInput
from sns.linksnippets import service, urls

from .markup import format_html, format_html_join

MAX_CARDS = 4
# The original's link-snippet macro: a line of its own, an http(s) URL or a site path.
_MACRO = re.compile(r"^[ \t]*%\[([^\]\n]*)\][ \t]*\(([^)\s]+)\)[ \t]*$", re.MULTILINE)
_SAFE_TARGET = re.compile(r"(?:https?://|/(?!/))", re.IGNORECASE)
# A Markdown link or autolink to a web page (not an image: no "!" before it).
_WEB_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(\s*<?(https?://[^)\s>]+)>?[^)]*\)|<(https?://[^>\s]+)>")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_REL = "nofollow noopener noreferrer"


def without_macros(markdown_text: str) -> str:
    """The text with its card lines taken out: the cards stand for them."""
    if "%[" not in markdown_text:
        return markdown_text
    return _MACRO.sub(lambda m: "" if _SAFE_TARGET.match(m.group(2)) else m.group(0), markdown_text)


def card_targets(markdown_text: str) -> list[tuple[str, str | None]]:
    """(url, caption) of the cards a post shows: its macro lines, else its first web
    link (caption None: the card is only drawn once the page is known)."""
    text = _FENCE.sub("", markdown_text or "")
    macros = [(m.group(2), m.group(1)) for m in _MACRO.finditer(text) if _SAFE_TARGET.match(m.group(2))]
    if macros:
        return macros[:MAX_CARDS]
    link = _WEB_LINK.search(text)
    return [(link.group(1) or link.group(2), None)] if link else []


def _ready_html(url: str, caption: str | None, record: dict) -> SafeString:
    image = ""
    if record.get("imageUrl"):
        image = format_html(
            '<img class="stgy-link-snippet-image" src="{}" alt="" loading="lazy" '
            'decoding="async" referrerpolicy="no-referrer">', record["imageUrl"])
    texts = [("site-name", record.get("siteName")), ("title", caption or record.get("title")),
             ("description", record.get("description"))]
    body = format_html_join("", '<span class="stgy-link-snippet-{}">{}</span>',
                            ((name, value) for name, value in texts if value))
    return format_html(
        '<div class="stgy-link-snippet" data-link-snippet="ready">'
        '<a class="stgy-link-snippet-link{}" href="{}" rel="{}">{}'
        '<span class="stgy-link-snippet-body">{}</span></a></div>',
        " with-image" if image else "", url, _REL, image, body)


def _waiting_html(url: str, caption: str | None) -> SafeString:
    """A card still to be resolved by the script. A macro shows its caption (or URL) as a
    plain link meanwhile; a post's ordinary link stays hidden until a card exists."""
    return format_html(
        '<div class="stgy-link-snippet" data-link-snippet="pending"{}{}>'
        '<a class="stgy-link-snippet-link" href="{}" rel="{}">{}</a></div>',
        format_html(' data-caption="{}"', caption) if caption else "",
        mark_safe(" hidden") if caption is None else "", url, _REL, caption or url)


def link_cards_html(markdown_text: str) -> SafeString:
    cards = []
    for url, caption in card_targets(markdown_text):
        try:
            target = urls.classify(url, [])
        except InvalidInput:
            if caption is not None:  # the macro's link still shows, as a plain link
                cards.append(_waiting_html(url, caption))
            continue
        record = service.cached(target) if isinstance(target, str) else None
        if record is not None and record["status"] == "ready":
            cards.append(_ready_html(url, caption, record))
        elif record is None or caption is not None:
            cards.append(_waiting_html(url, caption))
    if not cards:
        return mark_safe("")
    return format_html('<div class="link-cards">{}</div>', mark_safe("".join(cards)))
