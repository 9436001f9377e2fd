"""The post card: the fragment every timeline, thread and search result repeats, and
the one place its HTML is written.

It is built here with `format_html` rather than in a Django template because a page
shows twenty to fifty of them: the template engine's variable lookups, includes and
filters cost about a millisecond per card, most of a timeline page's render time.
Every value from users goes through `format_html` / `conditional_escape`, and post
bodies through sns.reads.markdown.render_html (markdown-it, then the nh3 sanitiser), the
same as the template did.

`card_html` draws a card from the post, the viewer and its per-view parts
(`view_parts`: the "… ago" time, the reposter, the quoted post, the link cards and the
forms' CSRF token and `next`). `post_card_html` draws it whole, the reference and what
STGY_PAGE_FRAGMENTS=false serves; the pages keep `card_html`'s own output per key with
the per-view parts left as holes (sns/web/fragments.py), compared with the reference by
tests/web/test_page_html.py.
"""

from __future__ import annotations

from urllib.parse import quote

from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from sns.core.ids import id_to_hex
from sns.reads.markdown import render_html
from sns.reads.mentions import mentions_attach, post_mention_links
from sns.selectors import shares
from sns.selectors.visibility import hidden_user_ids

from .card_forms import csrf_token, toggle_form_html
from .display import ago, hue, is_long, post_url, profile_url, time_title
from .link_cards import link_cards_html, without_macros
from .markup import format_html, format_html_join
from .share_cards import quoted_html, reposted_by_html, share_actions_html

_REPLY_ICON = mark_safe(
    '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 5h16v11H9l-5 4z"/></svg>'
)


# What a card says of a parent it cannot link to: a link to a post the reader may not
# see would only lead to "not found", and calling it deleted would be untrue.
# Lazy: they are the reader's language when a card is drawn (the cards' visible words
# are translated here; the kept cards of sns/web/fragments.py key on the language).
REPLY_TO_HIDDEN = gettext_lazy("a post not available to you")
REPLY_TO_DELETED = gettext_lazy("a deleted post")
IN_REPLY_TO = gettext_lazy("↪ in reply to")
READ_MORE = gettext_lazy("Read more")
REPORT = gettext_lazy("Report")
OPEN_THREAD = gettext_lazy("Open thread")


def cards_attach(viewer, posts) -> list:
    """What a page's cards read besides the posts, for all of them at once: their share
    facts and quoted posts (sns/selectors/shares.py `shares_attach`), whom their
    mentions link to (sns/reads/mentions.py `mentions_attach`) and, for replies, whether the
    parent's author is hidden from the reader (one query when a reply's parent is
    someone else's and not on the page)."""
    posts = shares.shares_attach(viewer, posts)
    mentions_attach(posts)
    # A parent among the page's own posts is visible; only the others are checked.
    shown = {p.id for p in posts}
    parents = {getattr(p, "reply_to_owner_id", None) for p in posts if p.reply_to and p.reply_to not in shown}
    parents -= {None, viewer.id}
    if parents and viewer.is_authenticated:
        hidden = hidden_user_ids(viewer, parents)
        for post in posts:
            post.reply_to_hidden = post.reply_to is not None and getattr(post, "reply_to_owner_id", None) in hidden
    return posts


def avatar_html(user, large: bool = False) -> SafeString:
    """The uploaded avatar's icon (docs/media.md §6), else the coloured initial."""
    from sns.services.media import avatar_thumb_url

    size_class = " large" if large else ""
    url = avatar_thumb_url(user.avatar)
    if url:
        return format_html('<img class="avatar{}" src="{}" alt="" loading="lazy" width="64" height="64">',
                           size_class, url)
    return format_html('<span class="avatar{} hue-{}" aria-hidden="true">{}</span>',
                       size_class, hue(user.id), user.nickname[:1].upper())


def user_name_html(user) -> SafeString:
    """The author line: avatar initial, nickname and, for AI users, the tier badge."""
    name = format_html(
        '<a class="author" href="{}">{}<span class="nickname">{}</span></a>',
        profile_url(user.hex_id),
        avatar_html(user),
        user.nickname,
    )
    if user.is_ai:
        name += format_html(
            ' <span class="badge ai" title="AI user, {} tier">AI<span class="tier"> · {}</span></span>',
            user.ai_model,
            user.ai_model,
        )
    return name


def _time_html(post, ago_text: str) -> SafeString:
    local = timezone.localtime(post.created_at)
    title = time_title(local)
    return format_html(
        '<a class="time" href="{}"><time datetime="{}" title="{}">{}</time></a>',
        post_url(post.hex_id),
        local.isoformat(),
        title,
        ago_text,
    )


def _body_html(post, *, compact: bool, full: bool, link_cards) -> SafeString:
    # sanitised by render_html; known @nicknames link to the user (sns/reads/mentions.py)
    text = without_macros(post.content)  # link-card lines become the cards below
    body = mark_safe(render_html(text, mentions=post_mention_links(post)))
    long = not full and is_long(post.content, compact)
    html = format_html(
        '<div class="markdown post-body{}" lang="{}">{}</div>{}',
        " clamped" if long else "",
        post.effective_locale,
        body,
        link_cards,
    )
    if long:
        html += format_html('<a class="read-more" href="{}">{}</a>', post_url(post.hex_id), READ_MORE)
    return html


def _tags_html(post) -> SafeString:
    tags = post.tag_names
    if not tags:
        return mark_safe("")
    home = reverse("web:home")
    items = format_html_join(
        "", '<li><a href="{}?tag={}">#{}</a></li>', ((home, quote(name, safe=""), name) for name in tags)
    )
    return format_html('<ul class="tags">{}</ul>', items)


def _like_html(post, *, compact: bool, parts) -> SafeString:
    count = post.like_count
    if compact:
        return format_html('<span class="stat" title="Likes">♥ <span class="like-count">{}</span></span>', count)
    liked = getattr(post, "is_liked_by_focus", False)
    if not liked and not post.allow_likes:
        return format_html(
            '<span class="stat off" title="Likes are turned off">♡ <span class="like-count">{}</span></span>', count
        )
    action, css, title, mark = ("unlike", "like liked", "Unlike", "♥") if liked else ("like", "like", "Like", "♡")
    return toggle_form_html(
        post,
        parts,
        action=action,
        css=css,
        pressed=liked,
        title=title,
        inner=format_html('{} <span class="like-count">{}</span>', mark, count),
    )


def _report_html(post, *, compact: bool, full: bool, viewer) -> SafeString:
    """"Report" on someone else's card (docs/pages.md §3); the full card of a post page
    has it in the page's own footer."""
    if compact or full or viewer is None or not viewer.is_authenticated or viewer.id == post.owner_id:
        return mark_safe("")
    return format_html(
        '<a class="report-link" href="{}" title="Report this {} to the moderators">{}</a>',
        post_url(post.hex_id, "report"),
        "reply" if post.reply_to else "post",
        REPORT,
    )


def view_parts(post, request, *, compact: bool) -> dict:
    """The parts of a card drawn on every view, by name: the "… ago" time, the reposter
    and the quoted post (set on the instance by the share reads, sns/selectors/shares.py),
    the link cards (whose previews arrive later) and, on a full-size card (the only one
    with forms), the forms' CSRF token and the page to come back to."""
    parts = {
        "ago": ago(post.created_at),
        "by": reposted_by_html(post),
        "quoted": quoted_html(post),
        "cards": mark_safe("") if compact else link_cards_html(post.content),
    }
    if not compact:
        parts["token"], parts["back"] = csrf_token(request), request.get_full_path()
    return parts


def post_card_html(post, *, request, compact: bool = False, full: bool = False, hide_reply_to: bool = False) -> SafeString:
    """One post as a card, drawn whole (the reference of the kept cards)."""
    return card_html(
        post,
        viewer=getattr(request, "user", None),
        parts=view_parts(post, request, compact=compact),
        compact=compact,
        full=full,
        hide_reply_to=hide_reply_to,
    )


def card_html(post, *, viewer, parts, compact: bool = False, full: bool = False, hide_reply_to: bool = False) -> SafeString:
    """One post as a card: author and time, "in reply to", the rendered body (clamped
    with "Read more" when long, unless `full`), tags, and like / replies / thread links
    (`compact` cards, as for a thread's ancestors, show the like count only). `parts`:
    the per-view parts (`view_parts`), written in as they are given."""
    classes = "card post" + (" compact" if compact else "") + (" full" if full else "")
    head = format_html(
        '<header class="post-head"><span class="who">{}</span>{}</header>',
        user_name_html(post.owner),
        _time_html(post, parts["ago"]),
    )
    reply_to = mark_safe("")
    if post.reply_to and not hide_reply_to:
        nickname = getattr(post, "reply_to_owner_nickname", None)
        if getattr(post, "reply_to_hidden", False):
            reply_to = format_html('<p class="in-reply-to">{} {}</p>', IN_REPLY_TO, REPLY_TO_HIDDEN)
        elif nickname:
            reply_to = format_html(
                '<p class="in-reply-to">{} <a href="{}">{}</a></p>', IN_REPLY_TO, post_url(id_to_hex(post.reply_to)), nickname
            )
        else:
            reply_to = format_html('<p class="in-reply-to">{} {}</p>', IN_REPLY_TO, REPLY_TO_DELETED)
    actions = format_html(
        '<footer class="post-actions">{}<a class="stat" href="{}#replies" title="Replies">{} '
        '<span class="reply-count">{}</span></a>{}{}{}</footer>',
        _like_html(post, compact=compact, parts=parts),
        post_url(post.hex_id),
        _REPLY_ICON,
        post.reply_count,
        mark_safe("") if compact else share_actions_html(post, viewer=viewer, parts=parts),
        mark_safe("") if full else format_html('<a class="thread-link" href="{}">{}</a>', post_url(post.hex_id), OPEN_THREAD),
        _report_html(post, compact=compact, full=full, viewer=viewer),
    )
    return format_html(
        '<article class="{}" id="post-{}" data-post-id="{}">{}{}{}{}{}{}{}</article>',
        classes,
        post.hex_id,
        post.hex_id,
        parts["by"],
        head,
        reply_to,
        _body_html(post, compact=compact, full=full, link_cards=parts["cards"]),
        parts["quoted"],
        _tags_html(post),
        actions,
    )
