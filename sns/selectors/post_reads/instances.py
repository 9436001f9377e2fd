"""The pages' post reads as model instances (docs/architecture.md §9, "The pages'
reads"): the cards, the templates and the reply tree read `post.owner`,
`post.tag_names` and the focus flags, so the rows become `Post` instances with their
owner cached, as select_related would make them, each column through the converters
the ORM's compiler would apply (sns/internals/model_rows.py). tests/sns/test_post_models.py
compares them with the ORM reference (tests/sns/reference_reads.py), field by field.
"""

from __future__ import annotations

from functools import lru_cache

from django.db.models import BigIntegerField, BooleanField, CharField

from sns.core.errors import NotFound

from ...internals.model_rows import RowParts
from ...models import Follow, Post, Repost, User
from ..paging import Page
from ..visibility import viewable_sql
from .execute import fetch
from .followees import newest_posts_sql, posting_followees
from .statement import (
    FOCUS_PARAMS,
    col,
    focus_facts,
    names,
    neighbour_ids_sql,
    page_tail,
    post_facts,
    qn,
    vendor,
    where,
    where_sql,
)

# post_queryset's annotations, in the order the statement reads them.
_FACTS = (("tag_names_joined", CharField), ("reply_to_owner_id", BigIntegerField), ("reply_to_owner_nickname", CharField))
_FOCUS_FACTS = ("is_liked_by_focus", "is_replied_by_focus", "owner_blocks_focus", "owner_follows_focus")


class _Shape:
    """The SELECT … FROM of posts with their owner and facts, and how its rows become
    instances."""

    def __init__(self, db_vendor: str, focus: bool, neighbours: bool):
        n, facts = names(), post_facts(db_vendor)
        select = [f"{n.post}.{qn(f.column)}" for f in Post._meta.concrete_fields]
        select += [f"{n.user}.{qn(f.column)}" for f in User._meta.concrete_fields]
        select += [f"({facts.tag_names})", f"({facts.parent_owner})", f"({facts.parent_nickname})"]
        self.facts = [name for name, _ in _FACTS]
        outputs = [output() for _, output in _FACTS]
        if focus:
            select += focus_facts(facts)
            self.facts += list(_FOCUS_FACTS)
            outputs += [BooleanField() for _ in _FOCUS_FACTS]
        if neighbours:
            select += neighbour_ids_sql(n.id, n.owner)
            self.facts += ["older_id", "newer_id"]
            outputs += [BigIntegerField(), BigIntegerField()]
        self.head = f"SELECT {', '.join(select)} FROM {n.join_owner}"
        self.rows = RowParts([(Post, Post._meta.db_table), (User, User._meta.db_table), *outputs])
        self.owner_field = Post._meta.get_field("owner")

    def instances(self, rows) -> list[Post]:
        posts = []
        for post, owner, *facts in self.rows.values_of(rows):
            self.owner_field.set_cached_value(post, owner)
            for name, value in zip(self.facts, facts):
                setattr(post, name, value)
            posts.append(post)
        return posts


@lru_cache(maxsize=8)
def _shape(db_vendor: str, focus: bool, neighbours: bool) -> _Shape:
    return _Shape(db_vendor, focus, neighbours)


def posts_read(
    conditions: list[str], params: list, *, focus_user_id: int | None, tail: str = "", neighbours: bool = False,
    db_vendor: str | None = None,
) -> list[Post]:
    """The posts `conditions` select (SQL on the posts table), as instances with their
    owners and facts."""
    shape = _shape(db_vendor or vendor(), focus_user_id is not None, neighbours)
    focus = [] if focus_user_id is None else [int(focus_user_id)] * FOCUS_PARAMS
    return shape.instances(fetch(shape.head + where_sql(conditions) + tail, [*focus, *params]))


def posts_by_ids(viewer, post_ids, *, focus_user_id: int | None = None) -> dict[int, Post]:
    """The posts among `post_ids` visible to `viewer` (nothing hidden without one), by id."""
    ids = list(dict.fromkeys(int(i) for i in post_ids if i is not None))
    if not ids:
        return {}
    conditions, params = where(viewer=viewer)
    # A list of placeholders, not ids_in's one array: PostgreSQL keeps this prepared
    # statement's generic plan only with the list (tests/web/test_page_query_counts.py).
    conditions.insert(0, f"{names().id} IN ({', '.join(['%s'] * len(ids))})")
    return {post.id: post for post in posts_read(conditions, [*ids, *params], focus_user_id=focus_user_id)}


def followee_posts(viewer, page: Page, *, authors: str | None = None) -> list[Post]:
    """The home timeline's posts: GET /posts/by-followees for the viewer with their own
    posts included (sns/selectors/post_reads/tuples.py), in one round trip."""
    if page.limit <= 0:
        return []
    db_vendor = vendor()
    active = posting_followees(
        viewer.id, include_self=True, roots_only=False, limit=page.limit, viewer=viewer, authors=authors,
        db_vendor=db_vendor,
    )
    newest, newest_params = newest_posts_sql(
        "owner_id", active, page.limit, top=page.end, descending=page.descending, db_vendor=db_vendor
    )
    conditions, params = where(viewer=viewer)
    conditions.insert(0, f"{names().id} IN ({newest})")
    return posts_read(
        conditions, [*newest_params, *params], focus_user_id=viewer.id, tail=page_tail(page), db_vendor=db_vendor
    )


def post_with_neighbours(viewer, post_id: int, *, focus_user_id: int | None) -> Post:
    """One post with the same owner's previous and next post ids (`older_id`,
    `newer_id`); not found when hidden from `viewer`."""
    conditions, params = where(post_id=post_id, viewer=viewer)
    posts = posts_read(conditions, params, focus_user_id=focus_user_id, neighbours=True)
    if not posts:
        raise NotFound("not found")
    return posts[0]


def posts_page(
    viewer, page: Page, *, focus_user_id: int | None, reply_to: int | None = None, owned_by: int | None = None
) -> list[Post]:
    """A post's replies, a user's posts: GET /posts's list with those filters."""
    conditions, params = where(reply_to=reply_to, owned_by=owned_by, viewer=viewer)
    return posts_read(conditions, params, focus_user_id=focus_user_id, tail=page_tail(page))


def post_ids(page: Page, *, viewer=None, tag: str | None = None, authors: str | None = None) -> list[int]:
    """The ids of GET /posts's list with these filters, one page of them: an index scan
    for the Everyone tab's streams (sns/selectors/mixed.py)."""
    conditions, params = where(viewer=viewer, tag=tag, authors=authors)
    statement = f"SELECT {names().id} FROM {names().post}{where_sql(conditions)}{page_tail(page)}"
    return [row[0] for row in fetch(statement, params)]


def reply_chain(post: Post, *, limit: int, viewer=None) -> list[Post]:
    """Ancestors of `post`, oldest first, at most `limit`, stopping at a missing parent,
    a parent hidden from `viewer` or a cycle: one statement per ancestor (the reference
    of sns/selectors/post_reads/threads.py `ancestors`, and its form on SQLite)."""
    seen = {post.id}
    chain: list[Post] = []
    parent_id = post.reply_to
    while parent_id is not None and len(chain) < limit and parent_id not in seen:
        parent = posts_by_ids(viewer, [parent_id]).get(parent_id)
        if parent is None:
            break
        seen.add(parent.id)
        chain.append(parent)
        parent_id = parent.reply_to
    chain.reverse()
    return chain


class _Reposts:
    """The newest reposts by a viewer and the people they follow, with the reposter's row."""

    def __init__(self):
        repost, user, follow = (qn(m._meta.db_table) for m in (Repost, User, Follow))

        def r(name: str) -> str:
            return f"r.{col(Repost, name)}"

        self.reposter = r("user")
        select = ", ".join([r("post"), r("created_at")] + [f"u.{qn(f.column)}" for f in User._meta.concrete_fields])
        self.sql = (
            f"SELECT {select} FROM {repost} r INNER JOIN {user} u ON u.{qn(User._meta.pk.column)} = {self.reposter} "
            f"WHERE ({self.reposter} IN (SELECT f.{col(Follow, 'followee')} FROM {follow} f "
            f"WHERE f.{col(Follow, 'follower')} = %s) OR {self.reposter} = %s)"
        )
        self.order = f" ORDER BY {r('created_at')} DESC, {r('id')} DESC LIMIT %s"
        self.rows = RowParts(
            [Repost._meta.get_field("post").get_col("r"), Repost._meta.get_field("created_at").get_col("r"), (User, "u")]
        )


@lru_cache(maxsize=1)
def _reposts() -> _Reposts:
    return _Reposts()


def followee_reposts(viewer, limit: int) -> list[tuple[int, object, User]]:
    """The newest `limit` reposts by the viewer and the people they follow, newest
    first, a reposter hidden from the viewer left out: (post id, reposted at, reposter)."""
    reposts = _reposts()
    condition, condition_params = viewable_sql(viewer, reposts.reposter)
    rows = fetch(f"{reposts.sql} AND {condition}{reposts.order}", [viewer.id, viewer.id, *condition_params, int(limit)])
    return [tuple(values) for values in reposts.rows.values_of(rows)]
