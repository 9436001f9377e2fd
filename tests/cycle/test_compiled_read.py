"""A stage read compiled once (sns/compiled_read.py) gives the instances its
queryset gives: the model's fields, its annotations, its select_related rows."""

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.actions import _stage_posts, _stage_posts_query
from agents.models import PostImpression, PostSummary
from sns.models import Block, Follow
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _snapshot(post) -> dict:
    def fields(obj):
        return {k: v for k, v in obj.__dict__.items() if k != "_state"}

    cached = post._state.fields_cache
    summary = cached.get("ai_summary", "not cached")  # None: read, and there is none
    return {
        **fields(post),
        "owner": fields(cached["owner"]),
        "ai_summary": fields(summary) if isinstance(summary, PostSummary) else summary,
    }


def test_the_stage_posts_read_compiled_once_gives_what_the_queryset_gives(ai_user, human, follower):
    root = make_post(human, "a root post", tags=["tea", "cake"])
    reply = make_post(follower, "a reply", reply_to=root.id)
    mine = make_post(ai_user, "my own post")
    stranger = make_user(block_strangers=True)
    hidden = make_post(stranger, "hidden from strangers")
    blocker = make_user()
    Block.objects.create(blocker=blocker, blockee=ai_user, created_at=timezone.now())
    blocked_post = make_post(blocker, "blocked")
    Follow.objects.create(follower=human, followee=ai_user, created_at=timezone.now())
    PostImpression.objects.create(user=ai_user, post=root, peer=human, payload='{"impression": "nice"}', updated_at=timezone.now())
    PostSummary.objects.filter(post=reply).delete()  # a post without its summary row
    ids = [root.id, reply.id, mine.id, hidden.id, blocked_post.id, 10**12]
    now = timezone.now()
    expected = {p.id: _snapshot(p) for p in _stage_posts_query("person", ai_user.id, now, now - timedelta(hours=1), ids)}
    assert set(expected) == {root.id, reply.id, mine.id}
    for _ in range(2):  # compiled the first time, filled with the arguments the second
        got = {p.id: _snapshot(p) for p in _stage_posts("person", ai_user.id, now, now - timedelta(hours=1), ids)}
        assert got == expected
    assert got[root.id]["my_impression"] == '{"impression": "nice"}'
    assert got[reply.id]["reply_to_owner_id"] == human.id
    assert got[reply.id]["ai_summary"] is None
    assert got[root.id]["ai_summary"]["post_id"] == root.id
