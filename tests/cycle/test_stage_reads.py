"""The cycle's reads in plain SQL give what their ORM querysets below give — the
reference: the likes-and-replies posts (fields, facts, select_related rows), the
candidates' facts, the recommender's post facts."""

from datetime import timedelta

import pytest
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from agents.cycle.actions import _stage_posts
from agents.cycle.sources import candidate_facts
from agents.models import PeerImpression, PostImpression, PostSummary
from agents.recommend.candidates import post_facts
from agents.runs import inputs
from sns.models import Block, Follow, Post, PostTag, Repost
from sns.selectors import viewable_posts
from sns.selectors.boundaries import ai_contact_annotations
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _stage_posts_reference(viewer, now, since, ids):
    parents = Post.objects.filter(pk=OuterRef("reply_to"))
    mine = PostImpression.objects.filter(user_id=viewer.id, post_id=OuterRef("pk")).values("payload")[:1]
    reposts = Repost.objects.filter(user_id=viewer.id, created_at__gte=since).order_by().values("user_id")
    reposts = reposts.annotate(n=Count("id")).values("n")
    of_author = PeerImpression.objects.filter(user_id=viewer.id, peer_id=OuterRef("owner_id")).values("payload")[:1]
    return (
        viewable_posts(viewer)
        .filter(id__in=ids)
        .select_related("owner", "ai_summary")
        .annotate(
            reply_to_owner_id=Subquery(parents.values("owner_id")[:1]),
            my_impression=Subquery(mine),
            my_peer_impression=Subquery(of_author),
            author_tags_json=inputs.tags_json(PostTag),
            my_reposts_last_hour=Coalesce(Subquery(reposts[:1]), 0),
            **ai_contact_annotations(viewer, "owner_id", "reply", now=now),
        )
    )


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


@pytest.fixture
def scene(ai_user, human, follower):
    root = make_post(human, "a root post", tags=["tea", "cake"])
    reply = make_post(follower, "a reply", reply_to=root.id)
    mine = make_post(ai_user, "my own post")
    stranger = make_user(block_strangers=True)
    hidden = make_post(stranger, "hidden from strangers")
    blocker = make_user()
    Block.objects.create(blocker=blocker, blockee=ai_user, created_at=timezone.now())
    blocked_post = make_post(blocker, "blocked")
    Follow.objects.create(follower=human, followee=ai_user, created_at=timezone.now())
    Follow.objects.create(follower=ai_user, followee=human, created_at=timezone.now())
    PostImpression.objects.create(user=ai_user, post=root, peer=human, payload='{"impression": "nice"}', updated_at=timezone.now())
    PostSummary.objects.filter(post=reply).delete()  # a post without its summary row
    return {"root": root, "reply": reply, "mine": mine, "hidden": hidden, "blocked": blocked_post}


def test_the_stage_posts_are_those_of_the_reference(ai_user, human, scene):
    ids = [p.id for p in scene.values()] + [10**12]
    now = timezone.now()
    since = now - timedelta(hours=1)
    expected = {p.id: _snapshot(p) for p in _stage_posts_reference(ai_user, now, since, ids)}
    root, reply, mine = scene["root"], scene["reply"], scene["mine"]
    assert set(expected) == {root.id, reply.id, mine.id}
    got = {p.id: _snapshot(p) for p in _stage_posts(ai_user, now, since, ids)}
    assert got == expected
    assert got[root.id]["my_impression"] == '{"impression": "nice"}'
    assert got[reply.id]["reply_to_owner_id"] == human.id
    assert got[reply.id]["ai_summary"] is None
    assert got[root.id]["ai_summary"]["post_id"] == root.id


def test_the_candidate_facts_are_those_of_the_reference(ai_user, scene):
    ids = [p.id for p in scene.values()] + [10**12]
    read = PostImpression.objects.filter(user_id=ai_user.id, post_id=OuterRef("pk"))
    reference = (
        viewable_posts(ai_user)
        .filter(id__in=ids)
        .annotate(
            read=Exists(read),
            summarised=ExpressionWrapper(Q(ai_summary__summary__isnull=False), output_field=BooleanField()),
            features=F("ai_summary__features"),
            embedding_model=F("ai_summary__embedding_model"),
        )
        .values("id", "owner_id", "read", "summarised", "features", "embedding_model")
    )
    assert candidate_facts(ai_user, ids) == {row["id"]: row for row in reference}
    assert candidate_facts(ai_user, ids)[scene["root"].id]["read"] is True


@pytest.mark.parametrize("requester", [True, False])
def test_the_post_facts_are_those_of_the_reference(ai_user, scene, requester):
    ids = [p.id for p in scene.values()] + [10**12]
    me = ai_user.id if requester else None
    if requester:
        blocks = Exists(Block.objects.filter(blocker_id=OuterRef("owner_id"), blockee_id=me))
        followed = Exists(Follow.objects.filter(follower_id=me, followee_id=OuterRef("owner_id")))
    else:
        blocks = followed = Value(False)
    reference = Post.objects.filter(id__in=ids).annotate(owner_blocks_self=blocks, owner_followed=followed).values_list(
        "id", "owner_id", "reply_to", "like_count", "owner__is_frozen", "owner_blocks_self", "owner_followed",
        "ai_summary__post_id", "ai_summary__hashes",
    )
    got = post_facts(ids, me)
    assert set(got) == {row[0] for row in reference}
    for pid, owner_id, reply_to, likes, _frozen, blocks_self, followed_owner, summary_row, hashes in reference:
        fact = got[pid]
        assert (fact.owner_id, fact.is_root, fact.like_count) == (owner_id, reply_to is None, likes)
        assert fact.owner_followed == bool(followed_owner)
        assert fact.has_summary_row == (summary_row is not None)
        assert fact.hashes == (bytes(hashes) if hashes else None)
        assert (fact.penalty < 1) == bool(blocks_self)
    assert got[scene["root"].id].owner_followed is requester
