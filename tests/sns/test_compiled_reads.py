"""The services' reads compiled once (sns/compiled_read.py) give the instances their
querysets give: fields, annotations and the owner, for each variant."""

from operator import itemgetter

import pytest
from django.db import transaction
from django.utils import timezone

from sns.models import Block, Like, Repost
from sns.services import posts as post_services
from sns.services import shares, social
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _snapshot(post) -> dict:
    def fields(obj):
        return {k: v for k, v in obj.__dict__.items() if k != "_state"}

    return {**fields(post), "owner": fields(post._state.fields_cache["owner"])}


@pytest.fixture
def posts(human, follower):
    now = timezone.now()
    blocker = make_user(block_strangers=True)
    Block.objects.create(blocker=blocker, blockee=human, created_at=now)
    liked = make_post(follower, "liked")
    Like.objects.create(post=liked, user=human, created_at=now)
    reposted = make_post(blocker, "reposted")
    Repost.objects.create(post=reposted, user=human, created_at=now)
    return [liked, reposted, make_post(human, "mine"), make_post(blocker, "another")]


def test_the_like_targets_read_compiled_once_gives_what_the_queryset_gives(human, posts):
    ids = [p.id for p in posts] + [10**12]
    by_id = itemgetter("id")
    expected = sorted((_snapshot(p) for p in social._like_targets_query("", human.id, ids)), key=by_id)
    for _ in range(2):  # compiled, then filled with the arguments
        got = sorted((_snapshot(p) for p in social._like_targets("", human.id, ids)), key=by_id)
        assert got == expected
    assert [s["already_liked"] for s in got] == [True, False, False, False]
    assert [s["owner_blocks_actor"] for s in got] == [False, True, False, True]
    assert got[0]["owner_follows_actor"] is True


@pytest.mark.parametrize("mine", ["", "Repost", "Bookmark"])
def test_the_share_target_read_compiled_once_gives_what_the_queryset_gives(human, posts, mine):
    for post in posts:
        [expected] = shares._share_target_query(mine, human.id, post.id)
        assert _snapshot(shares._share_targets.first(mine, human.id, post.id)) == _snapshot(expected)
    assert shares._share_targets.first(mine, human.id, 10**12) is None
    assert shares._share_targets.first(mine, human.id, posts[1].id).had_row == (mine == "Repost")


@pytest.mark.parametrize("lock", ["", "lock"])
def test_the_reply_target_read_compiled_once_gives_what_the_queryset_gives(human, posts, lock):
    with transaction.atomic():
        for post in posts:
            [expected] = post_services._reply_target_query(lock, human.id, post.id)
            got = post_services._reply_targets.first(lock, human.id, post.id)
            assert _snapshot(got) == _snapshot(expected)
        assert post_services._reply_targets.first(lock, human.id, 10**12) is None


def test_the_owner_replies_read_compiled_once_gives_what_the_queryset_gives(human, posts):
    make_post(human, "a reply", reply_to=posts[0].id, idempotency_key="run:1:reply")
    make_post(human, "another", reply_to=posts[0].id)
    for parent in posts:
        expected = sorted(post_services._owner_replies_query("", human.id, parent.id))
        assert sorted(post_services._owner_replies("", human.id, parent.id)) == expected
    keys = {key for _, key in post_services._owner_replies("", human.id, posts[0].id)}
    assert keys == {None, "run:1:reply"}
