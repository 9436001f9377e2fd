"""Reads of reposts, quotes and bookmarks (docs/shares.md), each for a viewer.

Which posts a viewer may see here is the site's one rule (sns/selectors/visibility.py): a reposted
or quoted post the viewer may not see is left out of timelines, and a quote of it
shows "unavailable". Bookmarks are read only for their owner: no function here takes
another user's id for them, and no count of them exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db.models import Q

from ..models import Bookmark, Post, Quote, Repost, User
from ..reads.sql_statements import ids_in
from .authors import authors_admit
from .paging import Page
from .post_reads.execute import fetch
from .post_reads.instances import followee_posts, followee_reposts, posts_by_ids
from .post_reads.statement import vendor
from .relations import _users_by_relation
from .visibility import viewable_q

# Notification slots of shares ("repost:<post>", "quote:<post>"). The original's feed
# leaves them out: its client reads any slot it does not know as "new followers".
SHARE_SLOTS_Q = Q(slot__startswith="repost:") | Q(slot__startswith="quote:")


@dataclass(frozen=True)
class ShareFacts:
    """What a card shows of a post's shares, for one viewer."""

    reposts: int = 0
    quotes: int = 0
    reposted: bool = False
    bookmarked: bool = False
    quoted_id: int | None = None


@lru_cache(maxsize=2)
def _share_facts_sql(db_vendor: str) -> str:
    """Written once from the models' table and column names, as the post reads' facts
    are (sns/selectors/post_reads/statement.py): compiling the same five annotations
    through the ORM cost more CPU than the rest of a post page's reads. One text for
    every page and viewer on PostgreSQL (the ids one array), prepared once per
    connection: planning the five subqueries for a page's ids cost PostgreSQL more than
    running them."""
    post, repost, quote, bookmark = (m._meta.db_table for m in (Post, Repost, Quote, Bookmark))
    return (
        f'SELECT p."id", '
        f'(SELECT COUNT(*) FROM "{repost}" r WHERE r."post_id" = p."id"), '
        f'(SELECT COUNT(*) FROM "{quote}" q WHERE q."quoted_id" = p."id"), '
        f'(SELECT q."quoted_id" FROM "{quote}" q WHERE q."post_id" = p."id" LIMIT 1), '
        f'EXISTS (SELECT 1 FROM "{repost}" r WHERE r."post_id" = p."id" AND r."user_id" = %s), '
        f'EXISTS (SELECT 1 FROM "{bookmark}" b WHERE b."post_id" = p."id" AND b."user_id" = %s) '
        f'FROM "{post}" p WHERE '
    )


def share_facts(viewer: User | None, post_ids) -> dict[int, ShareFacts]:
    """The share facts of `post_ids` in one query: counts of reposts and quotes (public,
    like likes), and the viewer's own repost and bookmark flags."""
    ids = list(dict.fromkeys(int(i) for i in post_ids))
    if not ids:
        return {}
    viewer_id = viewer.id if viewer is not None else None
    db_vendor = vendor()
    wanted, wanted_params = ids_in('p."id"', ids, db_vendor)
    rows = fetch(_share_facts_sql(db_vendor) + wanted, [viewer_id, viewer_id, *wanted_params])
    return {
        pk: ShareFacts(n_reposts, n_quotes, bool(reposted), bool(bookmarked), quoted)
        for pk, n_reposts, n_quotes, quoted, reposted, bookmarked in rows
    }


def visible_posts(viewer: User, post_ids) -> dict[int, Post]:
    """The posts among `post_ids` that `viewer` may see, loaded as every card loads them."""
    return posts_by_ids(viewer, post_ids, focus_user_id=viewer.id)


def shares_attach(viewer: User, posts) -> list:
    """Give every post of a page its `share` (ShareFacts) and, for a quote, `quoted`
    (the quoted post, or None when it is deleted or out of the viewer's sight): two
    queries for the page, three when it holds quotes."""
    posts = list(posts)
    facts = share_facts(viewer, [p.id for p in posts])
    quoted = visible_posts(viewer, [f.quoted_id for f in facts.values()])
    for post in posts:
        post.share = facts.get(post.id, ShareFacts())
        if post.share.quoted_id is not None:
            post.quoted = quoted.get(post.share.quoted_id)
    return posts


def following_with_reposts(viewer: User, page: Page, *, authors: str | None = None) -> list[Post]:
    """The Following tab: the by-followees timeline (the viewer's own posts included)
    merged with the reposts by the same people, newest first. A reposted post carries
    `reposted_by` (the reposter) and appears once, at its newest appearance. Like
    GET /posts/by-followees under `paged(from_top=True)`, the first offset+limit are read."""
    wanted = page.end
    # Read as written SQL (sns/selectors/post_reads/): through the ORM, building these
    # reads cost the home page more CPU than PostgreSQL spent on them.
    posts = followee_posts(viewer, Page(offset=0, limit=wanted), authors=authors)
    # A reposter the viewer has muted (or who is otherwise hidden from them) is left out too.
    reposts = followee_reposts(viewer, wanted)
    shown = visible_posts(viewer, [post_id for post_id, _, _ in reposts])
    entries: dict[int, tuple] = {}
    for post in posts:
        entries[post.id] = (post.created_at, post, None)
    for post_id, reposted_at, reposter in reposts:
        post = shown.get(post_id)
        if post is None or not authors_admit(authors, post.owner) or (post.id in entries and entries[post.id][0] >= reposted_at):
            continue
        entries[post.id] = (reposted_at, post, reposter)
    ordered = sorted(entries.values(), key=lambda e: (e[0], e[1].id), reverse=True)[:wanted]
    for _, post, reposter in ordered:
        post.reposted_by = reposter
    return [post for _, post, _ in ordered][page.offset :]


def bookmarks_list(viewer: User, *, page: Page) -> list[Post]:
    """The viewer's bookmarked posts they may still see, newest bookmark first."""
    rows = Bookmark.objects.filter(user_id=viewer.id, post__in=Post.objects.filter(viewable_q(viewer)))
    order = ["-created_at", "-id"] if page.descending else ["created_at", "id"]
    ids = list(rows.order_by(*order).values_list("post_id", flat=True)[page.offset : page.offset + page.limit])
    posts = posts_by_ids(None, ids, focus_user_id=viewer.id)
    return [posts[i] for i in ids if i in posts]


def post_reposters(*, post_id: int, page: Page, focus_user_id: int | None = None) -> list[User]:
    """Who reposted a post, newest first (public, like a post's likers)."""
    return _users_by_relation(Repost.objects.filter(post_id=post_id), "user_id", page, focus_user_id)
