"""The post card of the pages, built from per-process fragments.

A page shows 20 to 50 cards and most of what a card holds is the same for every view
of the same post: the rendered body, the author line, the tags, and for readers in the
same position (whether they liked or reposted it, may quote or report it) the counts and forms
too. So a whole card is kept per process as a skeleton: its HTML with a `%(name)s` hole
where each part drawn on every view goes (`_HOLES`: the "… ago" time, the reposter, the
quoted post, the link cards whose previews arrive later, the forms' CSRF token and
`next`), keyed by everything else it is made from (`_Facts`). An edit, a like, a rename
or a retag makes a new key and the old entry is simply never asked for again: nothing
to invalidate, nothing stale. A warm card is its facts read off the post, one look-up
and one %-format, rather than a hundred-odd calls of escaping and joining.
The body, author line, time and tags are also
kept one by one, for the skeletons still to build and the cards not kept.

The HTML is byte for byte that of sns/web/cards.py's `post_card_html`, which stays as
the reference (tests/web/test_page_html.py renders pages both ways and compares).
It is assembled with str.format and html.escape, which is what `format_html` does
(conditional_escape of every argument) without its per-argument lazy-string checks.
"""

from __future__ import annotations

import html
from functools import lru_cache
from types import SimpleNamespace
from typing import NamedTuple
from urllib.parse import quote

from django.conf import settings
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from sns.core.ids import id_to_datetime, id_to_hex
from sns.reads.markdown import render_html
from sns.reads.mentions import post_mention_links

from .card_forms import csrf_token
from .cards import (
    _REPLY_ICON,
    IN_REPLY_TO,
    OPEN_THREAD,
    READ_MORE,
    REPLY_TO_DELETED,
    REPLY_TO_HIDDEN,
    REPORT,
    avatar_html,
)
from .display import ago_at, in_english, is_long, post_url, profile_url, time_title
from .kept_store import MARK, KeptStore, marker
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


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _time_fragment(created_at, zone) -> tuple[str, str]:
    # `zone`: the active time zone, which localtime reads.
    local = timezone.localtime(created_at, zone)
    title = time_title(local)
    return _e(local.isoformat()), _e(title)


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _body_fragment(content: str, mentions: tuple, locale: str, long: bool) -> str:
    # The arguments are everything the body reads: the text, the users its mentions
    # link to (sns/mentions.py resolves them on every view), the language, the clamp.
    body = render_html(without_macros(content), mentions=dict(mentions))
    return f'<div class="markdown post-body{" clamped" if long else ""}" lang="{_e(locale)}">{body}</div>'


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _has_link_cards(content: str) -> bool:
    return bool(card_targets(content))


@lru_cache(maxsize=_CACHED_FRAGMENTS)
def _tags_fragment(tags: tuple) -> str:
    from django.urls import reverse

    home = _e(reverse("web:home"))
    items = "".join(f'<li><a href="{home}?tag={_e(quote(name, safe=""))}">#{_e(name)}</a></li>' for name in tags)
    return f'<ul class="tags">{items}</ul>'


class _View:
    """What every card of one page view reads of the request and the moment: the viewer,
    the time zone, the language and "now" for the "… ago" times. Asked of Django once a
    page rather than three to five times a card (the viewer through its lazy proxy, the
    zone and language through their context-local stores)."""

    __slots__ = ("viewer", "reader_id", "zone", "now", "english", "language")

    def __init__(self, request):
        viewer = getattr(request, "user", None)
        if viewer is not None:
            viewer.is_authenticated  # noqa: B018 - loads a lazy request.user ...
            viewer = getattr(viewer, "_wrapped", viewer)  # ... to read it without the proxy
        self.viewer = viewer
        # Whom a "Report" link is offered to: a logged-in viewer, on others' cards.
        self.reader_id = viewer.id if viewer is not None and viewer.is_authenticated else None
        self.zone = timezone.get_current_timezone()
        self.now = timezone.now()
        self.english = in_english()
        self.language = get_language()


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


def _forms(request) -> _Forms:
    forms = getattr(request, "_stgy_card_forms", None)
    if forms is None:
        forms = request._stgy_card_forms = _Forms(request)
    return forms


class _Facts(NamedTuple):
    """Everything a card is made from but the parts drawn on every view (`_HOLES`): the
    key of its kept skeleton. The skeleton is built from these alone, so a value that
    changes (an edit, a like, a rename, a retag, the reader's own like or bookmark, a
    newly resolvable mention) is a new key, never a stale card."""

    post_id: int
    owner_id: int
    owner_nickname: str
    owner_avatar: str | None
    owner_ai_model: str | None  # None for a human
    reply_to: int | None
    reply_to_nickname: str | None
    reply_to_hidden: bool  # the parent's author is hidden from the reader (sns/web/cards.py)
    content: str
    mentions: tuple  # (lower-cased name, hex id), sorted: the users they link to now
    locale: str
    tags: tuple
    like_count: object
    liked: bool
    allow_likes: bool
    reply_count: object
    share: tuple | None  # (reposted, bookmarked, reposts) for the reader
    quotable: bool  # the reader may quote it (on a full-size card)
    reportable: bool  # the reader sees "Report"
    compact: bool
    full: bool
    hide_reply_to: bool
    zone: object  # the active time zone, which the time's title and datetime use
    language: str  # the active language, which the card's few words are in


def _mentions(post, content: str) -> tuple:
    # Without an "@" there is nothing to link (sns/mentions.py); a page's posts come with
    # their links attached (sns/web/cards.py `cards_attach`).
    return tuple(sorted(post_mention_links(post).items())) if "@" in content else ()


def _facts(post, view: _View, compact: bool, full: bool, hide_reply_to: bool) -> _Facts:
    owner = post.owner
    content = post.content
    share = getattr(post, "share", None)
    reader_id = view.reader_id
    return _Facts(
        post.id, owner.id, owner.nickname, owner.avatar, owner.ai_model if owner.is_ai else None,
        post.reply_to, getattr(post, "reply_to_owner_nickname", None), getattr(post, "reply_to_hidden", False),
        content, _mentions(post, content), post.effective_locale, tuple(post.tag_names),
        post.like_count, getattr(post, "is_liked_by_focus", False), post.allow_likes, post.reply_count,
        (share.reposted, share.bookmarked, share.reposts) if share else None,
        not compact and (post.allow_replies or view.viewer.is_admin),
        not (compact or full) and reader_id is not None and reader_id != owner.id,
        compact, full, hide_reply_to, view.zone, view.language,
    )


# The parts of a card drawn on every view, by name: the "… ago" time, the reposter and
# the quoted post (set on the instance by the share reads, sns/selectors/shares.py),
# the link cards (whose previews arrive later), and the forms' CSRF token and `next`.
_HOLES = ("ago", "by", "quoted", "cards", "token", "back")
# A hole's marker in the HTML a skeleton is made from (sns/web/kept_store.py `marker`).
_MARKERS = {name: marker(name) for name in _HOLES}
# One entry per post version and kind of reader; a skeleton is the card's size (a few
# kilobytes), as many as the body fragments above.
_kept_cards = KeptStore(_CACHED_FRAGMENTS)


def _skeleton(facts: _Facts) -> tuple[str, bool] | None:
    """The card as a %-format string with a `%(hole)s` per hole, and whether it has link
    cards; None when it is not kept (a text too long to keep, or one holding a marker)."""
    texts = (facts.content, facts.owner_nickname, facts.owner_avatar or "", facts.reply_to_nickname or "",
             facts.locale, *facts.tags)
    if len(facts.content) > _KEPT_BODY_CHARS or any(MARK in text for text in texts):
        return None
    html_ = _card(facts, _MARKERS).replace("%", "%%")
    for name, marker in _MARKERS.items():
        html_ = html_.replace(marker, f"%({name})s")
    return _kept_cards.put(facts, (html_, not facts.compact and _has_link_cards(facts.content)))


def _author_html(facts: _Facts) -> str:
    return _author_fragment(
        facts.owner_id, id_to_hex(facts.owner_id), facts.owner_nickname, facts.owner_avatar, facts.owner_ai_model
    )


def _time_html(facts: _Facts, url: str, ago: str) -> str:
    # `url`: the post page's path, escaped; `ago` escaped.
    iso, title = _time_fragment(id_to_datetime(facts.post_id), facts.zone)
    return f'<a class="time" href="{url}"><time datetime="{iso}" title="{title}">{ago}</time></a>'


def _body_html(facts: _Facts, hex_id: str, cards: str) -> str:
    content, compact = facts.content, facts.compact
    long = not facts.full and is_long(content, compact)
    make = _body_fragment if len(content) <= _KEPT_BODY_CHARS else _body_fragment.__wrapped__
    html_ = make(content, facts.mentions, facts.locale, long)
    if not compact and _has_link_cards(content):
        html_ += cards
    if long:
        html_ += f'<a class="read-more" href="{_e(post_url(hex_id))}">{_e(READ_MORE)}</a>'
    return html_


def _tags_html(facts: _Facts) -> str:
    return _tags_fragment(facts.tags) if facts.tags else ""


def _toggle(hex_id: str, holes, *, action: str, css: str, pressed: bool, title: str, inner: str) -> str:
    # `action`, `css` and `title` are this module's literals and `hex_id` is hex digits
    # (sns/ids.py `id_to_hex`): nothing to escape; the token and path come escaped.
    return (
        f'<form method="post" action="{_post_prefix_escaped()}{hex_id}/{action}" class="inline">'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{holes["token"]}">'
        f'<input type="hidden" name="next" value="{holes["back"]}#post-{hex_id}">'
        f'<button type="submit" class="{css}" aria-pressed="{"true" if pressed else "false"}" '
        f'title="{title}">{inner}<span class="label"> {title}</span></button></form>'
    )


@lru_cache(maxsize=1)
def _post_prefix_escaped() -> str:
    return _e(post_url(""))


def _count(value) -> str:
    # A counter is an int, whose text needs no escaping.
    return str(value) if type(value) is int else _e(value)


def _like_html(facts: _Facts, hex_id: str, holes) -> str:
    count = _count(facts.like_count)
    if facts.compact:
        return f'<span class="stat" title="Likes">♥ <span class="like-count">{count}</span></span>'
    liked = facts.liked
    if not liked and not facts.allow_likes:
        return f'<span class="stat off" title="Likes are turned off">♡ <span class="like-count">{count}</span></span>'
    action, css, title, mark = ("unlike", "like liked", "Unlike", "♥") if liked else ("like", "like", "Like", "♡")
    return _toggle(
        hex_id, holes, action=action, css=css, pressed=liked, title=title,
        inner=f'{mark} <span class="like-count">{count}</span>',
    )


def _share_actions_html(facts: _Facts, hex_id: str, holes) -> str:
    share = facts.share
    reposted = bool(share and share[0])
    bookmarked = bool(share and share[1])
    count = f' <span class="repost-count">{_count(share[2])}</span>' if share else ""
    repost = _toggle(
        hex_id, holes,
        action="unrepost" if reposted else "repost",
        css="share repost" + (" on" if reposted else ""),
        pressed=reposted,
        title="Undo repost" if reposted else "Repost",
        inner=_REPOST_ICON + count,
    )
    quote_ = ""
    if facts.quotable:
        quote_ = (
            f'<a class="stat share-quote" href="{_e(post_url(hex_id, "quote"))}" title="Quote">'
            f'{_QUOTE_ICON}<span class="label"> Quote</span></a>'
        )
    bookmark = _toggle(
        hex_id, holes,
        action="unbookmark" if bookmarked else "bookmark",
        css="share bookmark" + (" on" if bookmarked else ""),
        pressed=bookmarked,
        title="Remove bookmark" if bookmarked else "Bookmark",
        inner=_BOOKMARK_ICON,
    )
    return repost + quote_ + bookmark


def _report_html(facts: _Facts, hex_id: str) -> str:
    if not facts.reportable:
        return ""
    return (
        f'<a class="report-link" href="{_e(post_url(hex_id, "report"))}" '
        f'title="Report this {"reply" if facts.reply_to else "post"} to the moderators">{_e(REPORT)}</a>'
    )


def _reposted_by_html(reposter) -> str:
    return (
        f'<p class="reposted-by">{_REPOST_ICON} <a href="{_e(profile_url(reposter.hex_id))}">'
        f"{_e(reposter.nickname)}</a> reposted</p>"
    )


def _card(facts: _Facts, holes) -> str:
    """The card of `facts` with `holes` (a mapping of `_HOLES`) written in."""
    hex_id = id_to_hex(facts.post_id)
    hex_ = _e(hex_id)
    compact, full = facts.compact, facts.full
    url = _e(post_url(hex_id))
    classes = "card post" + (" compact" if compact else "") + (" full" if full else "")
    head = (
        f'<header class="post-head"><span class="who">{_author_html(facts)}</span>'
        f'{_time_html(facts, url, holes["ago"])}</header>'
    )
    reply_to = ""
    if facts.reply_to and not facts.hide_reply_to:
        nickname = facts.reply_to_nickname
        if facts.reply_to_hidden:
            reply_to = f'<p class="in-reply-to">{_e(IN_REPLY_TO)} {_e(REPLY_TO_HIDDEN)}</p>'
        elif nickname:
            reply_to = (
                f'<p class="in-reply-to">{_e(IN_REPLY_TO)} <a href="{_e(post_url(id_to_hex(facts.reply_to)))}">'
                f"{_e(nickname)}</a></p>"
            )
        else:
            reply_to = f'<p class="in-reply-to">{_e(IN_REPLY_TO)} {_e(REPLY_TO_DELETED)}</p>'

    actions = (
        f'<footer class="post-actions">{_like_html(facts, hex_id, holes)}'
        f'<a class="stat" href="{url}#replies" title="Replies">{_REPLY_ICON} '
        f'<span class="reply-count">{_count(facts.reply_count)}</span></a>'
        f'{"" if compact else _share_actions_html(facts, hex_id, holes)}'
    )
    if not full:
        actions += f'<a class="thread-link" href="{url}">{_e(OPEN_THREAD)}</a>'
    actions += f"{_report_html(facts, hex_id)}</footer>"
    return (
        f'<article class="{classes}" id="post-{hex_}" data-post-id="{hex_}">{holes["by"]}{head}'
        f'{reply_to}{_body_html(facts, hex_id, holes["cards"])}{holes["quoted"]}{_tags_html(facts)}'
        f"{actions}</article>"
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
    """The card of sns/web/cards.py's post_card_html, the same HTML, faster: its kept
    skeleton (`_Facts` says what it is made from) with the holes filled in."""
    view = _view(request)
    facts = _facts(post, view, compact, full, hide_reply_to)
    kept = _kept_cards.get(facts) or _skeleton(facts)
    cards = kept[1] if kept is not None else not compact and _has_link_cards(facts.content)
    attributes = post.__dict__  # the share reads set these on reposts and quotes only
    reposter = attributes.get("reposted_by")
    holes = {
        "ago": _e(ago_at(post.created_at, view.now, english=view.english)),
        "by": "" if reposter is None else _reposted_by_html(reposter),
        "quoted": quoted_html(post) if "quoted" in attributes else "",
        "cards": link_cards_html(facts.content) if cards else "",
    }
    if not compact:  # only a full-size card has forms (and asks for the CSRF token)
        forms = _forms(request)
        holes["token"], holes["back"] = forms.token, forms.back
    # An f-string or %-format is a plain str: SafeString as mark_safe would make it,
    # without its checks.
    return SafeString(kept[0] % holes if kept is not None else _card(facts, holes))


def clear() -> None:
    """Forget every kept fragment, rendering and widget (the tests' cold start)."""
    from sns.reads import markdown

    from . import kept_chrome, kept_compose, kept_post_page, kept_tabs, kept_widgets

    kept_widgets.clear()
    kept_chrome.clear()
    kept_compose.clear()
    kept_tabs.clear()
    kept_post_page.clear()
    _kept_cards.clear()
    for cached in (_author_fragment, _time_fragment, _body_fragment, _has_link_cards, _tags_fragment):
        cached.cache_clear()
    markdown._render_recent.cache_clear()
