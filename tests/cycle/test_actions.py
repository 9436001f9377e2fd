"""Stage 4, likes and replies (docs/agent-cycle.md §6): the code's gates around the
model's literal `true`, at and just below every boundary."""

from __future__ import annotations

import pytest

from agents.cycle.actions import plan_actions
from sns import services
from sns.models import Post
from sns.selectors import post_queryset
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

YES = {"shouldLike": True, "shouldReply": True}


def plan(me, entries, decisions=None):
    """entries: [(post, sim)] → {post hex id: (like, reply, rank)} from plan_actions."""
    posts = {p.id: p for p in post_queryset().filter(id__in=[post.id for post, _ in entries])}
    reads = [
        {"postId": post.hex_id, "ownerId": post.owner.hex_id, "sim": sim} for post, sim in entries
    ]
    if decisions is None:
        decisions = {post.hex_id: dict(YES) for post, _ in entries}
    return {
        item["post"].hex_id: (item["like"], item["reply"], item["rank"])
        for item in plan_actions(reads, decisions, posts, me.id)
    }


@pytest.fixture
def alice(db):
    return make_user("Alice")


@pytest.mark.parametrize(
    ("sim", "like", "reply"),
    [
        (1.0, True, True),
        (0.6, True, True),
        (0.5999, True, False),
        (0.5, True, False),
        (0.4999, False, False),
    ],
)
def test_similarity_thresholds(ai_user, alice, sim, like, reply):
    post = make_post(alice, "a root post")
    assert plan(ai_user, [(post, sim)])[post.hex_id] == (like, reply, 1)


def test_only_ranks_one_and_two_act(ai_user, alice):
    bob = make_user("Bob")
    first, second, third = make_post(alice, "one"), make_post(bob, "two"), make_post(alice, "three")
    result = plan(ai_user, [(third, 0.7), (first, 0.9), (second, 0.8)])
    assert result == {
        first.hex_id: (True, True, 1),
        second.hex_id: (True, True, 2),
        third.hex_id: (False, False, 3),
    }


def test_rank_limits_follow_the_settings(settings, ai_user, alice):
    settings.STGY_AI_USER_LIKE_MAX_INTEREST_RANK = 3
    settings.STGY_AI_USER_REPLY_MAX_INTEREST_RANK = 1
    posts = [make_post(alice, f"post {i}") for i in range(4)]
    result = plan(ai_user, [(p, 0.9 - i / 100) for i, p in enumerate(posts)])
    assert [result[p.hex_id] for p in posts] == [
        (True, True, 1),
        (True, False, 2),
        (True, False, 3),
        (False, False, 4),
    ]


def test_own_posts_are_skipped_but_consume_a_rank(ai_user, alice):
    own = make_post(ai_user, "my own post")
    a, b = make_post(alice, "a"), make_post(alice, "b")
    result = plan(ai_user, [(own, 0.99), (a, 0.9), (b, 0.8)])
    assert own.hex_id not in result
    assert result[a.hex_id] == (True, True, 2)
    assert result[b.hex_id] == (False, False, 3)


def test_the_post_permissions_gate_likes_and_replies(ai_user, alice):
    no_likes = make_post(alice, "no likes please", allow_likes=False)
    no_replies = make_post(alice, "no replies please", allow_replies=False)
    assert plan(ai_user, [(no_likes, 0.9)])[no_likes.hex_id] == (False, True, 1)
    assert plan(ai_user, [(no_replies, 0.9)])[no_replies.hex_id] == (True, False, 1)


def test_the_model_must_say_a_literal_true(ai_user, alice):
    post = make_post(alice, "a root post")
    for decision in (
        {},
        {"shouldLike": "true", "shouldReply": 1},
        {"shouldLike": False, "shouldReply": False},
    ):
        assert plan(ai_user, [(post, 0.9)], {post.hex_id: decision})[post.hex_id] == (
            False,
            False,
            1,
        )
    # A post whose impression failed has no decision at all: nothing happens.
    assert plan(ai_user, [(post, 0.9)], {})[post.hex_id] == (False, False, 1)
    assert plan(ai_user, [(post, 0.9)], {post.hex_id: {"shouldLike": True}})[post.hex_id] == (
        True,
        False,
        1,
    )


def test_never_replies_into_a_thread_between_two_other_people(ai_user, alice):
    carol = make_user("Carol")
    root = make_post(carol, "Carol's root post")
    between_others = make_post(alice, "Alice answers Carol", reply_to=root.id)
    mine = make_post(ai_user, "the AI user's own post")
    to_me = make_post(alice, "Alice answers the AI user", reply_to=mine.id)
    assert plan(ai_user, [(between_others, 0.9)])[between_others.hex_id] == (True, False, 1)
    assert plan(ai_user, [(to_me, 0.9)])[to_me.hex_id] == (True, True, 1)
    assert Post.objects.get(pk=to_me.pk).reply_to == mine.id


def test_a_reply_whose_parent_was_deleted_counts_as_a_root_post(ai_user, alice):
    carol = make_user("Carol")
    parent = make_post(carol, "soon deleted")
    orphan = make_post(alice, "Alice answered Carol", reply_to=parent.id)
    services.post_delete(carol, parent.id)
    # The original knows a reply by its replyToOwnerId, which a deleted parent leaves null.
    assert plan(ai_user, [(orphan, 0.9)])[orphan.hex_id] == (True, True, 1)


def test_a_post_without_the_parent_annotation_is_not_taken_for_a_root_post(ai_user, alice):
    root = make_post(ai_user, "the AI user's post")
    reply = make_post(alice, "Alice answers", reply_to=root.id)
    bare = Post.objects.get(pk=reply.pk)  # no reply_to_owner_id annotation
    items = plan_actions(
        [{"postId": reply.hex_id, "sim": 0.9}],
        {reply.hex_id: dict(YES)},
        {reply.id: bare},
        ai_user.id,
    )
    assert (items[0]["like"], items[0]["reply"]) == (True, False)
