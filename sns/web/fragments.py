"""The post card of the pages, built from per-process fragments.

A page shows 20 to 50 cards and most of what a card holds is the same for every reader
and every view: the rendered body, the author line, the tags. Those parts are kept per
process, keyed by every value they are made from (the post's text, the mentions it
links, its language, the author's nickname, avatar and AI tier, the tag names), so an
edit, a rename or a retag makes a new key and the old entry is simply never asked for
again: nothing to invalidate, nothing stale. What depends on the reader or the moment
(the "… ago" time, the like and share forms with their counts, state and CSRF token,
the report link, the reposter, the quoted post, the link cards whose previews arrive
later) is put together on every view.

The HTML is byte for byte that of sns/web/cards.py's `post_card_html`, which stays as
the reference (tests/web/test_page_html.py renders pages both ways and compares).
It is assembled with str.format and html.escape, which is what `format_html` does
(conditional_escape of every argument) without its per-argument lazy-string checks.
"""

from __future__ import annotations

import html
from functools import lru_cache
from types import SimpleNamespace
from urllib.parse import quote

from django.conf import settings
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from sns.ids import id_to_hex
from sns.markdown import render_html
from sns.mentions import mention_links

from .card_forms import csrf_token
from .cards import _REPLY_ICON, avatar_html
from .display import ago_at, in_english, is_long, post_url, profile_url, time_title
from .link_cards import card_targets, link_cards_html, without_macros
from .share_cards import _BOOKMARK_ICON, _QUOTE_ICON, _REPOST_ICON, quoted_html

# Enough for the posts a busy site shows within minutes. A body entry holds the text
# and its HTML: longer texts are not kept here (sns/markdown.py still keeps their
# rendering), so the store stays near ten megabytes a process at worst.
_CACHED_FRAGMENTS = 2048
_KEPT_BODY_CHARS = 2000
_escape = html.escape


def _e(value) -> str:
    """conditional_escape, for the values a card holds (str, int, SafeString)."""
    if type(value) is str:  # most of them: no `__html__` to look for (a failed look-up raises)
        return _escape(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return _escape(str(value))


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _author_fragment(user_id: int, hex_id: str, nickname: str, avatar: str | None, ai_model: str | None) -> str:
    # The arguments are everything user_name_html reads of the user.
    name = (
        f'<a class="author" href="{_e(profile_url(hex_id))}">{_avatar(user_id, nickname, avatar)}'
        f'<span class="nickname">{_e(nickname)}</span></a>'
    )
    if ai_model is not None:
        model = _e(ai_model)
        name += f' <span class="badge ai" title="AI user, {model} tier">AI<span class="tier"> · {model}</span></span>'
    return name


def _avatar(user_id: int, nickname: str, avatar: str | None) -> str:
    # avatar_html reads these three of a user
    return str(avatar_html(SimpleNamespace(id=user_id, nickname=nickname, avatar=avatar)))


def _author_html(user) -> str:
    return _author_fragment(user.id, user.hex_id, user.nickname, user.avatar, user.ai_model if user.is_ai else None)


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _time_fragment(created_at, zone) -> tuple[str, str]:
    # `zone`: the active time zone, which localtime reads.
    local = timezone.localtime(created_at, zone)
    title = time_title(local)
    return _e(local.isoformat()), _e(title)


def _time_html(post, view: _View, url: str) -> str:
    # `url`: the post page's path, escaped. `created_at` is worked out from the id on
    # each read (sns/ids.py), so it is read once.
    created_at = post.created_at
    iso, title = _time_fragment(created_at, view.zone)
    return (
        f'<a class="time" href="{url}"><time datetime="{iso}" title="{title}">'
        f"{_e(ago_at(created_at, view.now, english=view.english))}</time></a>"
    )


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _body_fragment(content: str, mentions: tuple, locale: str, long: bool) -> str:
    # The arguments are everything the body reads: the text, the users its mentions
    # link to (sns/mentions.py resolves them on every view), the language, the clamp.
    body = render_html(without_macros(content), mentions=dict(mentions))
    return f'<div class="markdown post-body{" clamped" if long else ""}" lang="{_e(locale)}">{body}</div>'


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _has_link_cards(content: str) -> bool:
    return bool(card_targets(content))


def _body_html(post, *, compact: bool, full: bool) -> str:
    content = post.content
    mentions = mention_links(content)
    long = not full and is_long(content, compact)
    make = _body_fragment if len(content) <= _KEPT_BODY_CHARS else _body_fragment.__wrapped__
    html_ = make(content, tuple(sorted(mentions.items())), post.effective_locale, long)
    if not compact and _has_link_cards(content):
        # Previews are filled in as their pages are fetched: drawn on every view.
        html_ += link_cards_html(content)
    if long:
        html_ += f'<a class="read-more" href="{_e(post_url(post.hex_id))}">Read more</a>'
    return html_


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _tags_fragment(tags: tuple) -> str:
    from django.urls import reverse

    home = _e(reverse("web:home"))
    items = "".join(f'<li><a href="{home}?tag={_e(quote(name, safe=""))}">#{_e(name)}</a></li>' for name in tags)
    return f'<ul class="tags">{items}</ul>'


def _tags_html(post) -> str:
    tags = post.tag_names
    return _tags_fragment(tuple(tags)) if tags else ""


class _View:
    """What every card of one page view reads of the request and the moment: the viewer,
    the time zone, the language and "now" for the "… ago" times. Asked of Django once a
    page rather than three to five times a card (the viewer through its lazy proxy, the
    zone and language through their context-local stores)."""

    __slots__ = ("viewer", "zone", "now", "english")

    def __init__(self, request):
        viewer = getattr(request, "user", None)
        if viewer is not None:
            viewer.is_authenticated  # noqa: B018 - loads a lazy request.user ...
            viewer = getattr(viewer, "_wrapped", viewer)  # ... to read it without the proxy
        self.viewer = viewer
        self.zone = timezone.get_current_timezone()
        self.now = timezone.now()
        self.english = in_english()


def _view(request) -> _View:
    view = getattr(request, "_stgy_card_view", None)
    if view is None:
        view = request._stgy_card_view = _View(request)
    return view


class _Forms:
    """What every one-button form of a page shares: the CSRF token (one masked token
    serves a page, as card_forms.csrf_token keeps it) and the page to come back to."""

    __slots__ = ("token", "back")

    def __init__(self, request):
        self.token = _e(csrf_token(request))
        self.back = _e(request.get_full_path())

    def toggle(self, hex_id: str, *, action: str, css: str, pressed: bool, title: str, inner: str) -> str:
        # `action`, `css` and `title` are this module's literals and `hex_id` is hex
        # digits (sns/ids.py `id_to_hex`): nothing to escape. The path is put together
        # escaped, as escaping goes character by character (three toggles a card, and
        # their escapes were a tenth of its cost).
        return (
            f'<form method="post" action="{_post_prefix_escaped()}{hex_id}/{action}" class="inline">'
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{self.token}">'
            f'<input type="hidden" name="next" value="{self.back}#post-{hex_id}">'
            f'<button type="submit" class="{css}" aria-pressed="{"true" if pressed else "false"}" '
            f'title="{title}">{inner}<span class="label"> {title}</span></button></form>'
        )


@lru_cache(maxsize=1)
def _post_prefix_escaped() -> str:
    return _e(post_url(""))


def _count(value) -> str:
    # A counter is an int, whose text needs no escaping.
    return str(value) if type(value) is int else _e(value)


def _forms(request) -> _Forms:
    forms = getattr(request, "_stgy_card_forms", None)
    if forms is None:
        forms = request._stgy_card_forms = _Forms(request)
    return forms


def _like_html(post, *, compact: bool, request) -> str:
    count = _count(post.like_count)
    if compact:
        return f'<span class="stat" title="Likes">♥ <span class="like-count">{count}</span></span>'
    liked = getattr(post, "is_liked_by_focus", False)
    if not liked and not post.allow_likes:
        return f'<span class="stat off" title="Likes are turned off">♡ <span class="like-count">{count}</span></span>'
    action, css, title, mark = ("unlike", "like liked", "Unlike", "♥") if liked else ("like", "like", "Like", "♡")
    return _forms(request).toggle(
        post.hex_id, action=action, css=css, pressed=liked, title=title,
        inner=f'{mark} <span class="like-count">{count}</span>',
    )


def _share_actions_html(post, *, request, view: _View) -> str:
    share = getattr(post, "share", None)
    reposted = bool(share and share.reposted)
    bookmarked = bool(share and share.bookmarked)
    count = f' <span class="repost-count">{_count(share.reposts)}</span>' if share else ""
    forms = _forms(request)
    repost = forms.toggle(
        post.hex_id,
        action="unrepost" if reposted else "repost",
        css="share repost" + (" on" if reposted else ""),
        pressed=reposted,
        title="Undo repost" if reposted else "Repost",
        inner=_REPOST_ICON + count,
    )
    quote_ = ""
    if post.allow_replies or view.viewer.is_admin:
        quote_ = (
            f'<a class="stat share-quote" href="{_e(post_url(post.hex_id, "quote"))}" title="Quote">'
            f'{_QUOTE_ICON}<span class="label"> Quote</span></a>'
        )
    bookmark = forms.toggle(
        post.hex_id,
        action="unbookmark" if bookmarked else "bookmark",
        css="share bookmark" + (" on" if bookmarked else ""),
        pressed=bookmarked,
        title="Remove bookmark" if bookmarked else "Bookmark",
        inner=_BOOKMARK_ICON,
    )
    return repost + quote_ + bookmark


def _report_html(post, *, compact: bool, full: bool, view: _View) -> str:
    viewer = view.viewer
    if compact or full or viewer is None or not viewer.is_authenticated or viewer.id == post.owner_id:
        return ""
    return (
        f'<a class="report-link" href="{_e(post_url(post.hex_id, "report"))}" '
        f'title="Report this {"reply" if post.reply_to else "post"} to the moderators">Report</a>'
    )


def _reposted_by_html(post) -> str:
    # Set on reposts only, as quoted_html's `quoted` (sns/web/share_cards.py says why).
    reposter = post.__dict__.get("reposted_by")
    if reposter is None:
        return ""
    return (
        f'<p class="reposted-by">{_REPOST_ICON} <a href="{_e(profile_url(reposter.hex_id))}">'
        f"{_e(reposter.nickname)}</a> reposted</p>"
    )


def fragments_on(request) -> bool:
    """STGY_PAGE_FRAGMENTS as of the request's first card: read once a page, as a
    settings read goes through the settings' lazy proxy (a look-up made to fail and
    dropped) and a page has up to fifty cards."""
    on = request.__dict__.get("_stgy_page_fragments")
    if on is None:
        on = request._stgy_page_fragments = bool(settings.STGY_PAGE_FRAGMENTS)
    return on


def post_card_html(post, *, request, compact: bool = False, full: bool = False, hide_reply_to: bool = False) -> SafeString:
    """The card of sns/web/cards.py's post_card_html, the same HTML, faster."""
    hex_id = post.hex_id
    hex_ = _e(hex_id)
    view = _view(request)
    url = _e(post_url(hex_id))
    classes = "card post" + (" compact" if compact else "") + (" full" if full else "")
    head = f'<header class="post-head"><span class="who">{_author_html(post.owner)}</span>{_time_html(post, view, url)}</header>'
    reply_to = ""
    if post.reply_to and not hide_reply_to:
        nickname = getattr(post, "reply_to_owner_nickname", None)
        reply_to = (
            f'<p class="in-reply-to">↪ in reply to <a href="{_e(post_url(id_to_hex(post.reply_to)))}">'
            f'{_e(nickname) if nickname else "a deleted post"}</a></p>'
        )
    actions = (
        f'<footer class="post-actions">{_like_html(post, compact=compact, request=request)}'
        f'<a class="stat" href="{url}#replies" title="Replies">{_REPLY_ICON} '
        f'<span class="reply-count">{_count(post.reply_count)}</span></a>'
        f'{"" if compact else _share_actions_html(post, request=request, view=view)}'
    )
    if not full:
        actions += f'<a class="thread-link" href="{url}">Open thread</a>'
    actions += f"{_report_html(post, compact=compact, full=full, view=view)}</footer>"
    # An f-string is a plain str: SafeString as mark_safe would make it, without its checks.
    return SafeString(
        f'<article class="{classes}" id="post-{hex_}" data-post-id="{hex_}">{_reposted_by_html(post)}{head}'
        f"{reply_to}{_body_html(post, compact=compact, full=full)}{quoted_html(post)}{_tags_html(post)}"
        f"{actions}</article>"
    )


def clear() -> None:
    """Forget every kept fragment, rendering and widget (the tests' cold start)."""
    from sns import markdown

    from . import kept_chrome, kept_compose, kept_widgets

    kept_widgets.clear()
    kept_chrome.clear()
    kept_compose.clear()
    for cached in (_author_fragment, _time_fragment, _body_fragment, _has_link_cards, _tags_fragment):
        cached.cache_clear()
    markdown._render_recent.cache_clear()
