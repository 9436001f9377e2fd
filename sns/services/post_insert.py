"""A new post's row with what moves with it — its author tags, the author's post count,
the parent's reply count and the rows other apps keep for it (sns/extensions.py
`post_rows`: the agents' pending summary) — on PostgreSQL in one statement
(data-modifying CTEs), elsewhere one statement each. Called inside post_create's
transaction."""

from __future__ import annotations

from django.db import connection
from django.db.models import F

from .. import extensions
from ..models import Post, PostTag, User
from ..reads.sql_statements import insert_rows_sql


def post_insert(post: Post, tag_names: list[str], parent_id: int | None) -> None:
    """Insert `post` (an unsaved instance, its id issued), its tags and the counters."""
    kept = extensions.post_rows(post)
    if connection.vendor != "postgresql":
        post.save(force_insert=True)
        PostTag.objects.bulk_create([PostTag(post=post, name=name, is_root=parent_id is None) for name in tag_names])
        User.objects.filter(pk=post.owner_id).update(post_count=F("post_count") + 1)
        if parent_id is not None:
            Post.objects.filter(pk=parent_id).update(reply_count=F("reply_count") + 1)
        for row in kept:
            row.save(force_insert=True)
        return
    qn = connection.ops.quote_name
    fields = Post._meta.concrete_fields
    values = [field.get_db_prep_save(field.pre_save(post, True), connection) for field in fields]
    posts, tags, users = (qn(m._meta.db_table) for m in (Post, PostTag, User))
    parts = [
        f"post AS (INSERT INTO {posts} ({', '.join(qn(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}))"
    ]
    params: list = list(values)
    if tag_names:
        parts.append(
            f"tags AS (INSERT INTO {tags} ({qn('post_id')}, {qn('name')}, {qn('is_root')}) "
            f"SELECT %s, t.name, %s FROM UNNEST(%s::varchar[]) AS t(name))"
        )
        params += [post.id, parent_id is None, list(tag_names)]
    if parent_id is not None:
        parts.append(f"parent AS (UPDATE {posts} SET {qn('reply_count')} = {qn('reply_count')} + 1 WHERE {qn('id')} = %s)")
        params.append(parent_id)
    for index, row in enumerate(kept):
        row_sql, row_params = insert_rows_sql(type(row), [row])
        parts.append(f"kept{index} AS ({row_sql})")
        params += row_params
    # The tags' (and kept rows') foreign key to the new row is checked at commit (Django
    # makes it deferred).
    sql = f"WITH {', '.join(parts)} UPDATE {users} SET {qn('post_count')} = {qn('post_count')} + 1 WHERE {qn('id')} = %s"
    params.append(post.owner_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    post._state.adding = False
    post._state.db = connection.alias
