"""The API's hot reads as plain rows (docs/architecture.md §9, "Hot reads"): only the
columns the post JSON needs, in the order of COLUMNS, which sns/api/post_rows.py
unpacks. Building model instances through the ORM for a timeline of 20 posts cost more
CPU than the rest of the request; tests/sns/test_post_rows.py compares the JSON of
these with the ORM reference's (tests/sns/reference_reads.py)."""

from __future__ import annotations

from functools import lru_cache

from sns.core.errors import NotFound

from ...models import Post, User
from ..paging import Page
from . import dialect
from .execute import fetch
from .followees import newest_posts_sql, posting_followees
from .statement import (
    FOCUS_PARAMS,
    col,
    names,
    neighbour_ids_sql,
    page_tail,
    post_facts,
    vendor,
    where,
    where_sql,
)

# The columns of a post row, in order; with a focus user FOCUS_COLUMNS follow, and a
# detail row ends with DETAIL_COLUMNS.
COLUMNS = (
    "id", "owner_id", "reply_to", "allow_likes", "allow_replies", "published_at", "updated_at",
    "owner_nickname", "owner_locale", "reply_to_owner_id", "reply_to_owner_nickname",
    "like_count", "reply_count", "tag_names_joined", "snippet", "locale",
)
FOCUS_COLUMNS = ("is_liked_by_focus", "is_replied_by_focus", "owner_blocks_focus", "owner_block_strangers", "owner_follows_focus")
DETAIL_COLUMNS = ("content", "older_id", "newer_id")

_TIMES = (COLUMNS.index("published_at"), COLUMNS.index("updated_at"))
_FLAGS = (COLUMNS.index("allow_likes"), COLUMNS.index("allow_replies"))


@lru_cache(maxsize=12)
def _head(db_vendor: str, focus: bool, detail: bool) -> str:
    """SELECT … FROM of a row of COLUMNS (+ FOCUS_COLUMNS, + DETAIL_COLUMNS)."""
    n, facts = names(), post_facts(db_vendor)
    post = [f"{n.post}.{col(Post, f)}" for f in ("id", "owner", "reply_to", "allow_likes", "allow_replies", "published_at", "updated_at")]
    user = [f"{n.user}.{col(User, f)}" for f in ("nickname", "locale")]
    select = [
        *post, *user, f"({facts.parent_owner})", f"({facts.parent_nickname})",
        *(f"{n.post}.{col(Post, f)}" for f in ("like_count", "reply_count")), f"({facts.tag_names})",
        *(f"{n.post}.{col(Post, f)}" for f in ("snippet", "locale")),
    ]
    if focus:
        select += [facts.liked, facts.replied, facts.owner_blocks, f"{n.user}.{col(User, 'block_strangers')}",
                   facts.owner_follows]
    if detail:
        select += [n.content, *neighbour_ids_sql(n.id, n.owner)]
    return f"SELECT {', '.join(select)} FROM {n.join_owner}"


def _rows(statement: str, params: list, db_vendor: str) -> list[tuple]:
    return dialect.converted_rows(db_vendor, fetch(statement, params), _TIMES, _FLAGS)


def _focus(focus_user_id: int | None) -> list:
    return [] if focus_user_id is None else [int(focus_user_id)] * FOCUS_PARAMS


def post_rows_list(
    *, page: Page, after: int | None = None, owned_by: int | None = None, tag: str | None = None,
    reply_to: str | int | None = None, query: str | None = None, focus_user_id: int | None = None, viewer=None,
    authors: str | None = None,
) -> list[tuple]:
    """GET /posts: posts by id with its filters (statement.where), newest first unless
    the page says otherwise."""
    db_vendor = vendor()
    conditions, params = where(
        viewer=viewer, owned_by=owned_by, tag=tag, reply_to=reply_to, query=query, authors=authors, after=after,
        descending=page.descending,
    )
    statement = _head(db_vendor, focus_user_id is not None, False) + where_sql(conditions) + page_tail(page)
    return _rows(statement, _focus(focus_user_id) + params, db_vendor)


def post_rows_by_followees(
    *, user_id: int, page: Page, include_self: bool = False, include_replies: bool = True,
    limit_per_user: int | None = None, focus_user_id: int | None = None, viewer=None, authors: str | None = None,
) -> list[tuple]:
    """GET /posts/by-followees (docs/api.md §3): of the followees of `user_id` (and the
    user too if `include_self`) who have a post, the `limit` with the newest latest post
    each contribute their `min(limit, limit_per_user ?? limit)` newest posts; that union
    is ordered by id, then offset and limit apply. Root posts only unless
    `include_replies`. Followees hidden from `viewer` take no place."""
    per_user = min(page.limit, page.limit if limit_per_user is None else limit_per_user)
    if per_user <= 0:
        return []
    db_vendor = vendor()
    roots_only = not include_replies
    active = posting_followees(
        user_id, include_self=include_self, roots_only=roots_only, limit=page.limit, viewer=viewer, authors=authors,
        db_vendor=db_vendor,
    )
    newest, newest_params = newest_posts_sql(
        "owner_id", active, per_user, roots_only=roots_only, top=page.end, descending=page.descending,
        db_vendor=db_vendor,
    )
    conditions, params = where(viewer=viewer)
    conditions.insert(0, f"{names().id} IN ({newest})")
    statement = _head(db_vendor, focus_user_id is not None, False) + where_sql(conditions) + page_tail(page)
    return _rows(statement, [*_focus(focus_user_id), *newest_params, *params], db_vendor)


def post_row_get(post_id: int, *, focus_user_id: int | None = None, viewer=None) -> tuple:
    """One post's row with its content and the same owner's previous and next post ids
    (DETAIL_COLUMNS); not found when hidden from `viewer`."""
    db_vendor = vendor()
    conditions, params = where(post_id=post_id, viewer=viewer)
    statement = _head(db_vendor, focus_user_id is not None, True) + where_sql(conditions)
    rows = _rows(statement, _focus(focus_user_id) + params, db_vendor)
    if not rows:
        raise NotFound("not found")
    return rows[0]
