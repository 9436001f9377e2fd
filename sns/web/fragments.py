"""The pages' post cards, kept per process by key, as Django's `{% cache %}` fragments
and Mastodon's cache keys keep theirs.

A page shows 20 to 50 cards and most of what a card holds is the same for every view of
the same post by readers in the same position. So the output of the card's one source,
sns/web/cards.py `card_html`, is kept under a key of everything the card is made of
(`_Facts`: the post, its counts, tags, author and mentions, the reader's position, the
time zone and the language), drawn once with a marker (sns/web/kept.py `marker`) in place
of each per-view part (`cards.view_parts`: the "… ago" time, the reposter, the quoted
post, the link cards, the forms' CSRF token and `next`), which are filled in on every
view. An edit, a like, a rename or a retag is a new key and the old entry is simply
never asked for again: nothing to invalidate, nothing stale. A warm card is its key
read off the post, one look-up and one %-format.

STGY_PAGE_FRAGMENTS=false draws every card whole (`cards.post_card_html`), the reference
tests/web/test_page_html.py compares the pages with.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape as html_escape
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from sns.reads.mentions import post_mention_links

from . import cards
from .card_forms import csrf_token
from .display import ago_at, in_english
from .kept import MARK, KeptStore, marker
from .link_cards import card_targets, link_cards_html
from .share_cards import quoted_html, reposted_by_html

# Enough for the posts a busy site shows within minutes; a card is a few kilobytes.
# Longer texts are drawn whole on every view (sns/reads/markdown.py still keeps their
# rendering), so the store stays near ten megabytes a process at worst.
_KEPT_CARDS = 2048
_KEPT_BODY_CHARS = 2000
_kept_cards = KeptStore(_KEPT_CARDS)
# The per-view parts (sns/web/cards.py `view_parts`) and their markers; the markers of
# the parts `card_html` escapes are plain text, the others already markup.
_PARTS = ("ago", "by", "quoted", "cards", "token", "back")
_MARKERS = {name: marker(name) for name in _PARTS}
_SAFE_MARKERS = {name: mark_safe(value) for name, value in _MARKERS.items()}
_ESCAPED = ("ago", "token", "back")
_NOTHING = mark_safe("")


class _View:
    """What every card of one page view reads of the request and the moment: the viewer,
    the time zone, the language and "now" for the "… ago" times, asked of Django once a
    page rather than card by card; the CSRF token and `next` escaped once, when a card
    with forms first asks."""

    __slots__ = ("_forms", "english", "is_admin", "language", "now", "reader_id", "request", "viewer", "zone")

    def __init__(self, request):
        viewer = getattr(request, "user", None)
        if viewer is not None:
            viewer.is_authenticated  # noqa: B018 - loads a lazy request.user ...
            viewer = getattr(viewer, "_wrapped", viewer)  # ... to read it without the proxy
        self.viewer = viewer
        # Whom a "Report" link is offered to: a logged-in viewer, on others' cards.
        self.reader_id = viewer.id if viewer is not None and viewer.is_authenticated else None
        self.is_admin = bool(getattr(viewer, "is_admin", False))
        self.zone = timezone.get_current_timezone()
        self.now = timezone.now()
        self.english = in_english()
        self.language = get_language()
        self.request = request
        self._forms = None

    def forms(self) -> tuple[str, str]:
        if self._forms is None:
            request = self.request
            # Plain strs (html.escape, as Django's `escape`): a SafeString in a %-format
            # costs a call of its __str__.
            self._forms = (html_escape(csrf_token(request)), html_escape(request.get_full_path()))
        return self._forms


def _view(request) -> _View:
    view = request.__dict__.get("_stgy_card_view")
    if view is None:
        view = request._stgy_card_view = _View(request)
    return view


class _Facts(NamedTuple):
    """Everything a card is made of but its per-view parts: the key of its kept HTML. A
    value that changes (an edit, a like, a rename, a retag, the reader's own like or
    bookmark, a newly resolvable mention) is a new key, never a stale card."""

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
    allow_replies: bool
    reply_count: object
    share: tuple | None  # (reposted, bookmarked, reposts) for the reader
    reader_is_admin: bool  # may quote a post that takes no replies
    reportable: bool  # the reader sees "Report": logged in and not the author
    compact: bool
    full: bool
    hide_reply_to: bool
    zone: object  # the active time zone, which the time's title and datetime use
    language: str  # the active language, which the card's few words are in


def _facts(post, view: _View, compact: bool, full: bool, hide_reply_to: bool) -> _Facts:
    owner = post.owner
    content = post.content
    share = getattr(post, "share", None)
    reader_id = view.reader_id
    return _Facts(
        post.id, owner.id, owner.nickname, owner.avatar, owner.ai_model if owner.is_ai else None,
        post.reply_to, getattr(post, "reply_to_owner_nickname", None), getattr(post, "reply_to_hidden", False),
        content, _mentions(post, content), post.effective_locale, tuple(post.tag_names),
        post.like_count, getattr(post, "is_liked_by_focus", False), post.allow_likes, post.allow_replies,
        post.reply_count, (share.reposted, share.bookmarked, share.reposts) if share else None,
        view.is_admin, reader_id is not None and reader_id != owner.id,
        compact, full, hide_reply_to, view.zone, view.language,
    )


def _mentions(post, content: str) -> tuple:
    # Without an "@" there is nothing to link (sns/reads/mentions.py); a page's posts come with
    # their links attached (sns/web/cards.py `cards_attach`).
    return tuple(sorted(post_mention_links(post).items())) if "@" in content else ()


@lru_cache(maxsize=_KEPT_CARDS)
def _has_link_cards(content: str) -> bool:
    return bool(card_targets(content))


def _keepable(facts: _Facts) -> bool:
    """A text too long to keep, or one holding a marker's character, is drawn whole."""
    if len(facts.content) > _KEPT_BODY_CHARS:
        return False
    texts = (facts.content, facts.owner_nickname, facts.owner_avatar or "", facts.reply_to_nickname or "",
             facts.locale, *facts.tags, *(name for name, _hex in facts.mentions))
    return not any(MARK in text for text in texts)


def _kept(post, view: _View, facts: _Facts) -> tuple[str, tuple]:
    """`card_html`'s output for `facts` as a %-format string with a `%(part)s` per
    per-view part, and the parts it holds; kept under `facts`."""
    parts = dict(_SAFE_MARKERS)
    for name in _ESCAPED:
        parts[name] = _MARKERS[name]
    if facts.compact or not _has_link_cards(facts.content):
        parts["cards"] = _NOTHING  # what link_cards_html gives for a text without targets
    html = str(cards.card_html(post, viewer=view.viewer, parts=parts, compact=facts.compact, full=facts.full,
                               hide_reply_to=facts.hide_reply_to)).replace("%", "%%")
    holes = tuple(name for name, value in _MARKERS.items() if value in html)
    for name in holes:
        html = html.replace(_MARKERS[name], f"%({name})s")
    return _kept_cards.put(facts, (html, holes))


def fragments_on(request) -> bool:
    """STGY_PAGE_FRAGMENTS as of the request's first card: read once a page, as a page
    has up to fifty cards and a settings read goes through the settings' lazy proxy."""
    on = request.__dict__.get("_stgy_page_fragments")
    if on is None:
        on = request._stgy_page_fragments = bool(settings.STGY_PAGE_FRAGMENTS)
    return on


def post_card_html(post, *, request, compact: bool = False, full: bool = False, hide_reply_to: bool = False) -> SafeString:
    """sns/web/cards.py's `post_card_html`, from the kept output of `card_html` with the
    per-view parts filled in."""
    view = _view(request)
    facts = _facts(post, view, compact, full, hide_reply_to)
    kept = _kept_cards.get(facts)
    if kept is None:
        if not _keepable(facts):
            return cards.post_card_html(post, request=request, compact=compact, full=full, hide_reply_to=hide_reply_to)
        kept = _kept(post, view, facts)
    html, holes = kept
    attributes = post.__dict__  # set by the share reads (sns/selectors/shares.py)
    values = {}
    for name in holes:
        if name == "ago":  # a plain str: html.escape is what conditional_escape does to it
            values[name] = html_escape(ago_at(post.created_at, view.now, english=view.english))
        elif name == "by":
            values[name] = "" if attributes.get("reposted_by") is None else reposted_by_html(post)
        elif name == "quoted":
            values[name] = quoted_html(post) if "quoted" in attributes else ""
        elif name == "cards":
            values[name] = link_cards_html(post.content)
        elif name == "token":  # a card with forms holds both
            values["token"], values["back"] = view.forms()
    # A %-format of a str is a plain str: SafeString as mark_safe would make it.
    return SafeString(html % values)


def clear() -> None:
    """Forget every kept card, fragment, rendering and widget (the tests' cold start)."""
    from sns.reads import markdown

    from . import kept_parts, kept_widgets

    kept_widgets.clear()
    kept_parts.clear()
    _kept_cards.clear()
    _has_link_cards.cache_clear()
    markdown._render_recent.cache_clear()
