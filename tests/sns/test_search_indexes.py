"""The search indexes of migration 0008, on whichever database the run uses: pg_trgm
GIN indexes that the planner uses on PostgreSQL; on SQLite an FTS5 trigram table that
answers the match and is kept in step with every post write."""

import pytest
from django.db import connection

from sns import services
from tests.conftest import login_client
from tests.factories import make_post

pytestmark = pytest.mark.django_db


def _hits(client, query):
    return [row["id"] for row in client.get("/api/posts/search", {"query": query}).json()["result"]]


def test_the_index_follows_create_edit_and_delete(human, follower):
    post = make_post(human, "Original words here")
    client = login_client(follower)
    assert _hits(client, "original") == [post.hex_id]
    services.post_update(human, post.id, content="Edited 言葉たち now")
    assert _hits(client, "original") == []
    assert _hits(client, "edited 言葉たち") == [post.hex_id]
    services.post_delete(human, post.id)
    assert _hits(client, "edited") == []
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM sns_post_fts")
            assert cursor.fetchone()[0] == 0


def test_a_long_term_is_answered_by_the_index(human, follower):
    post = make_post(human, "Searchable 東京タワー text")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT indexname FROM pg_indexes WHERE indexname LIKE '%%trgm_idx'")
            names = {row[0] for row in cursor.fetchall()}
            assert names == {"post_content_trgm_idx", "user_nickname_trgm_idx", "user_introduction_trgm_idx"}
            cursor.execute("SET enable_seqscan = off")
            cursor.execute("EXPLAIN SELECT id FROM sns_post WHERE content ILIKE %s", ["%東京タワー%"])
            plan = "\n".join(row[0] for row in cursor.fetchall())
            cursor.execute("SET enable_seqscan = on")
            assert "post_content_trgm_idx" in plan
            assert _hits(login_client(follower), "東京タワー") == [post.hex_id]
        else:
            assert _hits(login_client(follower), "東京タワー") == [post.hex_id]
            # Emptied behind the triggers' back, the FTS table no longer finds the post:
            # it, not a scan of sns_post, answers.
            cursor.execute("DELETE FROM sns_post_fts")
            assert _hits(login_client(follower), "東京タワー") == []
