"""A new post's summary row goes in with the post (sns/extensions.py `post_rows`,
registered by agents/hooks.py): on PostgreSQL in the post's own statement, elsewhere
right after it; exactly one row, pending, versioned by the post's creation time."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.models import PostSummary
from sns import services
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def test_a_new_post_and_reply_get_their_pending_summary_row_with_them(settings):
    settings.STGY_AI_PROVIDER = "none"  # no summary task: the row is what is looked at
    author, replier = make_user("Author"), make_user("Replier")
    parent = make_post(author, "parent")
    with CaptureQueriesContext(connection) as queries:
        reply = services.post_create(replier, content="a reply", tags=["x"], reply_to=parent.id)
    writes = [q["sql"] for q in queries.captured_queries if "agents_postsummary" in q["sql"]]
    assert len(writes) == 1
    if connection.vendor == "postgresql":
        assert '"sns_post"' in writes[0] and '"sns_posttag"' in writes[0]  # one statement with the post
    for post in (parent, reply):
        row = PostSummary.objects.get(post_id=post.id)
        assert row.summary is None and row.attempts == 0 and row.source_updated_at == post.created_at

    services.post_update(replier, reply.id, content="edited", tags=["x"])
    assert PostSummary.objects.filter(post_id=reply.id).count() == 1
