"""What an AI user choosing what to read is shown (agents/cycle/select_posts.py): the
followees' newest posts and the latest posts site-wide, as few columns, both lists in
one statement."""

from __future__ import annotations

from functools import lru_cache

from ...models import Post, User
from ..visibility import viewable_sql
from .execute import fetch
from .followees import newest_posts_sql, posting_followees
from .statement import col, names, post_facts, vendor

TIMELINE_FIELDS = ("id", "owner_id", "reply_to", "locale", "owner__locale", "reply_to_owner_id")


@lru_cache(maxsize=2)
def _columns(db_vendor: str) -> str:
    n = names()
    post = [f"{n.post}.{col(Post, f)}" for f in ("id", "owner", "reply_to", "locale")]
    columns = [*post, f"{n.user}.{col(User, 'locale')}", f"({post_facts(db_vendor).parent_owner})"]
    # Named, since the post's and the owner's locale share a column name.
    return ", ".join(f"{column} AS c{i}" for i, column in enumerate(columns))


def timeline_rows(user_id: int, *, limit: int, per_followee: int, viewer=None) -> tuple[list[dict], list[dict]]:
    """(followees' posts, latest posts site-wide), newest first, `limit` each, as dicts
    of TIMELINE_FIELDS: the rows of GET /posts/by-followees (include_self off, replies
    in, `per_followee` per followee) and of GET /posts, for `viewer`. The lists are one
    UNION ALL, the followees' newest posts nested (no round trip for the list)."""
    db_vendor, n = vendor(), names()
    if viewer is not None:
        visible, visible_params = viewable_sql(viewer, n.owner, n.content)
    else:
        visible, visible_params = "", []

    def part(source: int, wanted: str = "") -> str:
        # Each list is its own ordered, limited SELECT, wrapped so that SQLite takes it
        # as a part of a compound statement; the last column tells the lists apart.
        conditions = " AND ".join(c for c in (wanted, visible) if c)
        return (
            f"SELECT * FROM (SELECT {_columns(db_vendor)}, {source} AS source FROM {n.join_owner}"
            f"{' WHERE ' + conditions if conditions else ''} ORDER BY {n.id} DESC LIMIT {int(limit)}) AS part{source}"
        )

    per_user = min(limit, per_followee)
    if per_user <= 0:
        return [], _dicts(fetch(part(0), visible_params))
    followees = posting_followees(
        user_id, include_self=False, roots_only=False, limit=limit, viewer=viewer, db_vendor=db_vendor
    )
    newest, newest_params = newest_posts_sql("owner_id", followees, per_user, db_vendor=db_vendor)
    rows = fetch(
        f"{part(1, f'{n.id} IN ({newest})')} UNION ALL {part(0)}", [*newest_params, *visible_params, *visible_params]
    )
    by_source: dict[int, list] = {0: [], 1: []}
    for row in rows:
        by_source[row[-1]].append(row)
    return _dicts(by_source[1]), _dicts(by_source[0])


def _dicts(rows) -> list[dict]:
    return [dict(zip(TIMELINE_FIELDS, row)) for row in sorted(rows, key=lambda r: r[0], reverse=True)]
