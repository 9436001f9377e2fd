"""The authors up a reply chain, read in one recursive query (PostgreSQL and SQLite both
have WITH RECURSIVE). The mention rule for AI text and the respond path's loop breaker
both walk it; the depth bound also ends a malformed cycle of replies."""

from __future__ import annotations

from django.db import connection

from ..models import Post, User

THREAD_DEPTH_LIMIT = 50


def thread_authors(post_id: int) -> list[tuple[str, bool]]:
    """(nickname, is AI) of the post's author and of each ancestor's, the post first,
    up to THREAD_DEPTH_LIMIT levels."""
    qn = connection.ops.quote_name
    post, user = qn(Post._meta.db_table), qn(User._meta.db_table)
    pid, parent = qn(Post._meta.pk.column), qn(Post._meta.get_field("reply_to").column)
    owner, uid = qn(Post._meta.get_field("owner").column), qn(User._meta.pk.column)
    nick = qn(User._meta.get_field("nickname").column)
    ai_model = qn(User._meta.get_field("ai_model").column)
    sql = (
        f"WITH RECURSIVE chain(post_id, parent_id, owner_id, depth) AS ("
        f"SELECT {pid}, {parent}, {owner}, 0 FROM {post} WHERE {pid} = %s "
        f"UNION ALL SELECT p.{pid}, p.{parent}, p.{owner}, c.depth + 1 FROM {post} p "
        f"JOIN chain c ON p.{pid} = c.parent_id WHERE c.depth < %s) "
        f"SELECT u.{nick}, u.{ai_model} IS NOT NULL FROM chain c "
        f"JOIN {user} u ON u.{uid} = c.owner_id ORDER BY c.depth"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [post_id, THREAD_DEPTH_LIMIT])
        return [(row[0], bool(row[1])) for row in cursor.fetchall()]
