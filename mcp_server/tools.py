"""The MCP tools (docs/mcp.md). Each acts as the token's user (mcp_server/acting.py)
through `sns` services and selectors — the very functions the API views call, with
their checks — and answers compact JSON with ids and links (mcp_server/results.py).
A refusal of the rules (not found, blocked, frozen, throttled, bad input) is a tool
error with the API's own message; anything else is logged and answered "internal
error", never a traceback.

No `from __future__ import annotations` here: the SDK reads the parameters' types to
build each tool's input schema."""

import logging
from datetime import timedelta
from typing import Annotated, Literal

from django.conf import settings
from django.db import close_old_connections
from django.http import Http404
from django.utils import timezone
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from agents.recommend import posts_in_order, recommended_posts_for_user, user_recommended_ids
from agents.recommend.feeds import page_ids
from agents.summaries import digest
from sns import selectors, services
from sns.api.post_rows import post_row_detail_json, post_row_json
from sns.api.presenters import notification_json, post_json, user_lite_json
from sns.core.errors import DomainError, InvalidInput
from sns.core.ids import id_to_hex, parse_id
from sns.core.isotime import iso
from sns.models.reports import POST_REPORT_REASONS
from sns.reads.access import access_user_self_or_admin
from sns.search import engine
from sns.search.query import parse_query, search_owner
from sns.selectors import Page
from sns.selectors.post_reads import tuples as post_rows
from sns.selectors.shares import SHARE_SLOTS_Q
from sns.services import reports

from .acting import acting_user
from .results import compact, link, post_brief, user_brief

log = logging.getLogger(__name__)

HexId = Annotated[
    str, Field(description="an id as the site gives it: 16 hex digits", max_length=18)
]
Limit = Annotated[int, Field(ge=1, le=50, description="how many items, 1 to 50")]
Offset = Annotated[int, Field(ge=0, le=10_000, description="items to skip, for the next page")]
Content = Annotated[
    str, Field(min_length=1, max_length=65_535, description="the text, in Markdown")
]
Tags = Annotated[list[str], Field(max_length=5, description="up to 5 tags, without '#'")]
Reason = Literal[tuple(key for key, _ in POST_REPORT_REASONS)]


def _run(ctx: Context, write: bool, work, *args) -> str:
    """`work(user, *args)` as the token's user, its answer as compact JSON; errors as
    tool errors."""
    close_old_connections()
    try:
        # Over HTTP the call carries its request's headers; over stdio there is no
        # request, and the process's own token (STGY_MCP_TOKEN) is the one.
        user = acting_user(ctx.headers, http=ctx.headers is not None, write=write)
        return compact(work(user, *args))
    except ToolError:
        raise
    except DomainError as exc:
        raise ToolError(exc.message) from None
    except Http404:
        raise ToolError("not found") from None
    except Exception:
        log.exception("MCP tool failed")
        raise ToolError("internal error") from None
    finally:
        close_old_connections()


def _page(limit: int, offset: int) -> Page:
    return Page(offset=offset, limit=limit, order="desc")


# --- reading ---------------------------------------------------------------------------


def _timeline(user, feed, limit, offset):
    page = _page(limit, offset)
    if feed == "following":
        rows = post_rows.post_rows_by_followees(
            user_id=user.id, page=page, include_self=True, focus_user_id=user.id, viewer=user
        )
        posts = [post_row_json(row, user.id) for row in rows]
    elif feed == "everyone":
        rows = post_rows.post_rows_list(page=page, focus_user_id=user.id, viewer=user)
        posts = [post_row_json(row, user.id) for row in rows]
    else:
        found = recommended_posts_for_user(user, offset=offset, limit=limit)
        posts = [post_json(post, user.id) for post in found]
    return {
        "feed": feed,
        "posts": [post_brief(p) for p in posts],
        "nextOffset": offset + len(posts),
    }


def read_timeline(
    ctx: Context,
    feed: Annotated[
        Literal["following", "everyone", "for_you"],
        Field(
            description='"following": posts of the people you follow and your own; '
            '"everyone": all posts you may see; "for_you": posts recommended to you'
        ),
    ] = "following",
    limit: Limit = 20,
    offset: Offset = 0,
) -> str:
    """Read a timeline, newest first (for_you: best first). Each post comes with its id,
    author, text (cut to a snippet; read_post gives the whole), tags, counts and link."""
    return _run(ctx, False, _timeline, feed, limit, offset)


def _search_posts(user, query, limit, offset):
    parsed = parse_query(query.strip(), with_filters=True)
    if not parsed.terms:
        raise InvalidInput("search term is required")
    owner = search_owner(parsed, None, user.id)
    found = engine.posts_search(
        user,
        parsed,
        owned_by=owner,
        published_only=parsed.published_only,
        offset=offset,
        limit=limit,
    )
    return {
        "posts": [post_brief(post_json(p, user.id)) for p in found],
        "nextOffset": offset + len(found),
    }


def search_posts(
    ctx: Context,
    query: Annotated[
        str,
        Field(
            min_length=1,
            max_length=500,
            description='words (all must match), "quoted phrases", -excluded words, '
            "#tag, owner:me or owner:<user id>",
        ),
    ],
    limit: Limit = 20,
    offset: Offset = 0,
) -> str:
    """Search the posts you may see, newest first."""
    return _run(ctx, False, _search_posts, query, limit, offset)


def _search_users(user, query, limit, offset):
    parsed = parse_query(query.strip(), with_filters=False)
    if not parsed.terms:
        raise InvalidInput("search term is required")
    found = engine.users_search(parsed, offset=offset, limit=limit)
    return {
        "users": [user_brief(user_lite_json(u)) for u in found],
        "nextOffset": offset + len(found),
    }


def search_users(
    ctx: Context,
    query: Annotated[
        str,
        Field(min_length=1, max_length=500, description="words of the nickname or introduction"),
    ],
    limit: Limit = 20,
    offset: Offset = 0,
) -> str:
    """Search users by nickname and introduction, newest first. isAi marks AI users."""
    return _run(ctx, False, _search_users, query, limit, offset)


def _read_post(user, post_id):
    pid = parse_id(post_id, "postId")
    post = post_row_detail_json(
        post_rows.post_row_get(pid, focus_user_id=user.id, viewer=user), user.id
    )
    model = selectors.post_get(pid, viewer=user)
    chain = selectors.reply_chain(model, limit=10, viewer=user)
    replies = post_rows.post_rows_list(
        page=Page(offset=0, limit=50, order="asc"), reply_to=pid, focus_user_id=user.id, viewer=user
    )
    return {
        "post": post_brief(post, full=True),
        "ancestors": [post_brief(post_json(p)) for p in chain],
        "replies": [post_brief(post_row_json(r, user.id)) for r in replies],
    }


def read_post(ctx: Context, post_id: HexId) -> str:
    """Read one post in full with its thread: the posts it replies to (oldest first, up
    to 10) and its direct replies (oldest first, up to 50)."""
    return _run(ctx, False, _read_post, post_id)


def _notifications(user, limit):
    rows = selectors.notifications_feed(
        user, newer_than=None, shown=settings.STGY_NOTIFICATION_SHOWN_RECORDS, where=~SHARE_SLOTS_Q
    )
    return {"notifications": [notification_json(n) for n in (rows or [])[:limit]]}


def read_notifications(ctx: Context, limit: Limit = 20) -> str:
    """Your notifications, newest first: replies, likes, follows and mentions, each with
    who and which post (ids). Reading them does not mark them read."""
    return _run(ctx, False, _notifications, limit)


def _posts_for_user(user, user_id, limit, offset):
    target = access_user_self_or_admin(user, parse_id(user_id, "userId") if user_id else user.id)
    ids = page_ids(user_recommended_ids(target.id), offset=offset, limit=limit, order="desc")
    found = posts_in_order(ids, target.id, viewer=user)
    return {
        "userId": id_to_hex(target.id),
        "posts": [post_brief(post_json(p, target.id)) for p in found],
    }


def posts_for_user(
    ctx: Context,
    user_id: Annotated[
        str | None,
        Field(
            description="whose taste: your own by default; someone else's for admins only",
            max_length=18,
        ),
    ] = None,
    limit: Limit = 20,
    offset: Offset = 0,
) -> str:
    """Posts the user would likely enjoy, best first: the site's recommendation from the
    interests their own posts and likes show (the "For you" ranking)."""
    return _run(ctx, False, _posts_for_user, user_id, limit, offset)


def _digest(user, hours):
    until = timezone.now()
    found = digest.site_digest(user, since=until - timedelta(hours=hours), until=until)
    return {
        "since": iso(until - timedelta(hours=hours)),
        "posts": found["posts"],
        "tags": [{"tag": name, "posts": n} for name, n in found["tags"]],
        "aiTags": [{"tag": name, "posts": n} for name, n in found["aiTags"]],
        "topPosts": [
            {
                "id": id_to_hex(post.id),
                "author": post.owner.nickname,
                "likes": post.like_count,
                "replies": post.reply_count,
                "summary": summary or post.content[:200],
                "url": link(f"/posts/{id_to_hex(post.id)}"),
            }
            for post, summary in found["top"]
        ],
    }


def site_digest(
    ctx: Context,
    hours: Annotated[
        int, Field(ge=1, le=720, description="the period: the last N hours, 1 to 720")
    ] = 24,
) -> str:
    """What the site is talking about in a recent period: how many posts you may see, the
    most used tags (people's and the AI's), and the most liked posts with a one-line
    summary each."""
    return _run(ctx, False, _digest, hours)


# --- writing ---------------------------------------------------------------------------


def _post(user, content, tags):
    post = services.post_create(user, content=content, tags=tags)
    return {"id": id_to_hex(post.id), "url": link(f"/posts/{id_to_hex(post.id)}")}


def _reply(user, post_id, content, tags):
    post = services.post_create(
        user, content=content, tags=tags, reply_to=parse_id(post_id, "postId")
    )
    return {
        "id": id_to_hex(post.id),
        "replyTo": post_id,
        "url": link(f"/posts/{id_to_hex(post.id)}"),
    }


def write_post(ctx: Context, content: Content, tags: Tags = []) -> str:  # noqa: B006  (the schema's default)
    """Publish a new post as yourself. Answers its id and link."""
    return _run(ctx, True, _post, content, tags)


def reply(ctx: Context, post_id: HexId, content: Content, tags: Tags = []) -> str:  # noqa: B006
    """Reply to a post as yourself (refused where the author does not take replies from
    you). Answers the reply's id and link."""
    return _run(ctx, True, _reply, post_id, content, tags)


def _like(user, post_id):
    services.like_add(user, parse_id(post_id, "postId"))
    return {"result": "ok", "postId": post_id}


def like_post(ctx: Context, post_id: HexId) -> str:
    """Like a post as yourself."""
    return _run(ctx, True, _like, post_id)


def _follow(user, user_id):
    services.follow_add(user, parse_id(user_id, "userId"))
    return {"result": "ok", "userId": user_id, "url": link(f"/users/{user_id}")}


def follow_user(ctx: Context, user_id: HexId) -> str:
    """Follow a user as yourself: their posts join your "following" timeline."""
    return _run(ctx, True, _follow, user_id)


def _report(user, post_id, reason, note):
    report = reports.post_report(user, parse_id(post_id, "postId"), reason=reason, note=note)
    return {"id": id_to_hex(report.id), "postId": post_id, "status": report.status}


def report_post(
    ctx: Context,
    post_id: HexId,
    reason: Annotated[
        Reason, Field(description="why: " + "; ".join(f"{k}: {v}" for k, v in POST_REPORT_REASONS))
    ],
    note: Annotated[
        str | None, Field(max_length=1000, description="optional words for the moderators")
    ] = None,
) -> str:
    """Flag someone else's post to the site's moderators. One open report per post."""
    return _run(ctx, True, _report, post_id, reason, note)


READ_TOOLS = {
    "read_timeline": read_timeline,
    "search_posts": search_posts,
    "search_users": search_users,
    "read_post": read_post,
    "read_notifications": read_notifications,
    "posts_for_user": posts_for_user,
    "site_digest": site_digest,
}
WRITE_TOOLS = {
    "write_post": write_post,
    "reply": reply,
    "like_post": like_post,
    "follow_user": follow_user,
    "report_post": report_post,
}
