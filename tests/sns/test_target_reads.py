"""The services' target reads in plain SQL (sns/services/targets.py) give the instances
the ORM querysets below give — the reference: fields, the block facts and the owner."""

from operator import itemgetter

import pytest
from django.db import transaction
from django.db.models import Exists, OuterRef, Value
from django.utils import timezone

from sns.reads.access import block_annotations
from sns.core.errors import Conflict
from sns.models import Block, Bookmark, Follow, Like, Post, Repost, User
from sns.services import posts as post_services
from sns.services import targets
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _snapshot(post) -> dict:
    def fields(obj):
        return {k: v for k, v in obj.__dict__.items() if k != "_state"}

    return {**fields(post), "owner": fields(post._state.fields_cache["owner"])}


def _with_owner(actor_id: int):
    return Post.objects.select_related("owner").annotate(**block_annotations(User(id=actor_id), "owner_id"))


def _like_targets_reference(actor_id: int, ids: list[int]):
    liked = Exists(Like.objects.filter(post_id=OuterRef("pk"), user_id=actor_id))
    return _with_owner(actor_id).annotate(already_liked=liked).filter(pk__in=ids)


def _share_target_reference(actor_id: int, post_id: int, mine):
    blocks_owner = Block.objects.filter(blocker_id=actor_id, blockee_id=OuterRef("owner_id"))
    had_row = Exists(mine.objects.filter(user_id=actor_id, post_id=OuterRef("pk"))) if mine else Value(False)
    return (
        _with_owner(actor_id).annotate(actor_blocks_owner=Exists(blocks_owner), had_row=had_row).filter(pk=post_id)
    )


@pytest.fixture
def posts(human, follower):
    now = timezone.now()
    blocker = make_user(block_strangers=True)
    Block.objects.create(blocker=blocker, blockee=human, created_at=now)
    Block.objects.create(blocker=human, blockee=follower, created_at=now)
    liked = make_post(follower, "liked")
    Like.objects.create(post=liked, user=human, created_at=now)
    reposted = make_post(blocker, "reposted")
    Repost.objects.create(post=reposted, user=human, created_at=now)
    return [liked, reposted, make_post(human, "mine"), make_post(blocker, "another")]


def test_the_like_targets_are_those_of_the_reference(human, posts):
    ids = [p.id for p in posts] + [10**12]
    by_id = itemgetter("id")
    expected = sorted((_snapshot(p) for p in _like_targets_reference(human.id, ids)), key=by_id)
    got = sorted((_snapshot(p) for p in targets.like_targets(human.id, ids)), key=by_id)
    assert got == expected
    assert [s["already_liked"] for s in got] == [True, False, False, False]
    assert [s["owner_blocks_actor"] for s in got] == [False, True, False, True]
    assert got[0]["owner_follows_actor"] is True


def test_the_follow_targets_are_those_of_the_reference(human, follower, posts):
    ids = [follower.id, posts[1].owner_id, 10**12]
    reference = User.objects.annotate(
        **block_annotations(human, "pk"),
        already_following=Exists(Follow.objects.filter(follower_id=human.id, followee_id=OuterRef("pk"))),
    ).filter(pk__in=ids)

    def fields(user):
        return {k: v for k, v in user.__dict__.items() if k != "_state"}

    got = sorted((fields(u) for u in targets.follow_targets(human.id, ids)), key=itemgetter("id"))
    assert got == sorted((fields(u) for u in reference), key=itemgetter("id"))
    assert [u["owner_blocks_actor"] for u in got] == [False, True]


@pytest.mark.parametrize("mine", [None, Repost, Bookmark])
def test_the_share_target_is_that_of_the_reference(human, posts, mine):
    for post in posts:
        [expected] = _share_target_reference(human.id, post.id, mine)
        assert _snapshot(targets.share_target(human.id, post.id, mine)) == _snapshot(expected)
    assert targets.share_target(human.id, 10**12, mine) is None
    assert targets.share_target(human.id, posts[1].id, mine).had_row == (mine is Repost)
    assert targets.share_target(human.id, posts[0].id, mine).actor_blocks_owner is True


@pytest.mark.parametrize("lock", [False, True])
def test_the_reply_target_is_that_of_the_reference(human, posts, lock):
    with transaction.atomic():
        for post in posts:
            [expected] = _with_owner(human.id).filter(pk=post.id)
            got = targets.reply_target(human.id, post.id, lock=lock)
            assert _snapshot(got) == _snapshot(expected)
        assert targets.reply_target(human.id, 10**12, lock=lock) is None


def test_the_owner_replies_read_gives_each_reply_with_its_key(human, posts):
    make_post(human, "a reply", reply_to=posts[0].id, idempotency_key="run:1:reply")
    make_post(human, "another", reply_to=posts[0].id)
    with pytest.raises(Conflict):
        post_services._earlier_reply(human, posts[0].id, "run:2:reply")
    again = post_services._earlier_reply(human, posts[0].id, "run:1:reply")
    assert again.idempotency_key == "run:1:reply"
    assert post_services._earlier_reply(human, posts[1].id, "run:1:reply") is None
