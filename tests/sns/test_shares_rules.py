"""Reposts, quotes and bookmarks through the rulebook (sns/services/shares.py)."""

import pytest
from django.test import TestCase

from sns import services
from sns.core.errors import Conflict, Forbidden, InvalidInput, NotFound, Throttled
from sns.models import Bookmark, Notification, Post, Quote, Repost
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _run(fn, *args, **kwargs):
    """Call a service and run its after-commit work (notifications) as a commit would."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return fn(*args, **kwargs)


def test_repost_once_per_user_and_post_and_notifies_the_owner(human, follower):
    post = make_post(human, "Worth sharing")
    repost = _run(services.repost_add, follower, post.id)
    assert (repost.user_id, repost.post_id) == (follower.id, post.id)
    with pytest.raises(Conflict, match="already reposted"):
        services.repost_add(follower, post.id)
    assert Repost.objects.filter(post=post).count() == 1
    row = Notification.objects.get(user=human, slot=f"repost:{post.hex_id}")
    assert row.payload["records"][0]["userId"] == follower.hex_id
    assert row.payload["records"][0]["postId"] == post.hex_id


def test_repost_of_own_post_is_allowed_and_notifies_nobody(human):
    post = make_post(human)
    _run(services.repost_add, human, post.id)
    assert Repost.objects.filter(user=human, post=post).exists()
    assert not Notification.objects.filter(slot__startswith="repost:").exists()


def test_repost_remove(human, follower):
    post = make_post(human)
    services.repost_add(follower, post.id)
    services.repost_remove(follower, post.id)
    assert not Repost.objects.exists()
    with pytest.raises(NotFound, match="repost not found"):
        services.repost_remove(follower, post.id)


def test_blocks_refuse_shares_either_way(human, blocked):
    their_post, my_post = make_post(blocked), make_post(human)
    # human blocks the other: neither may repost, quote or bookmark the other's post
    with pytest.raises(InvalidInput, match="blocked by the owner"):
        services.repost_add(blocked, my_post.id)
    with pytest.raises(InvalidInput, match="blocked by the owner"):
        services.quote_create(blocked, my_post.id, content="look")
    with pytest.raises(InvalidInput, match="you are blocking the user"):
        services.repost_add(human, their_post.id)
    with pytest.raises(InvalidInput, match="you are blocking the user"):
        services.quote_create(human, their_post.id, content="look")
    with pytest.raises(InvalidInput, match="you are blocking the user"):
        services.bookmark_add(human, their_post.id)
    assert not Repost.objects.exists() and not Quote.objects.exists() and not Bookmark.objects.exists()
    assert Post.objects.count() == 2  # no quoting post was left behind


def test_block_strangers_refuses_strangers_but_not_followed_people(human, follower):
    post = make_post(human)
    human.block_strangers = True
    human.save(update_fields=["block_strangers"])
    stranger = make_user("Stranger")
    with pytest.raises(InvalidInput, match="blocked by the owner"):
        services.repost_add(stranger, post.id)
    services.follow_add(human, follower.id)
    assert services.repost_add(follower, post.id)


def test_frozen_owner_and_missing_post_are_not_found(human, follower, admin):
    post = make_post(human)
    human.is_frozen = True
    human.save(update_fields=["is_frozen"])
    for action in (services.repost_add, services.bookmark_add):
        with pytest.raises(NotFound, match="post not found"):
            action(follower, post.id)
    with pytest.raises(NotFound, match="post not found"):
        services.repost_add(follower, 12345)
    assert services.repost_add(admin, post.id)  # admins pass, as for likes


def test_frozen_actor_cannot_share(human, follower):
    post = make_post(human)
    follower.is_frozen = True
    follower.save(update_fields=["is_frozen"])
    with pytest.raises(Forbidden, match="user is frozen"):
        services.repost_add(follower, post.id)
    with pytest.raises(Forbidden, match="user is frozen"):
        services.bookmark_add(follower, post.id)


def test_quote_is_a_root_post_governed_by_allow_replies(human, follower, admin):
    post = make_post(human, "Original thought")
    quote = _run(services.quote_create, follower, post.id, content="I agree", tags=["Agree"])
    assert quote.reply_to is None and quote.owner_id == follower.id
    assert Quote.objects.get(post=quote).quoted_id == post.id
    assert quote.tag_names == ["agree"]
    row = Notification.objects.get(user=human, slot=f"quote:{post.hex_id}")
    assert row.payload["records"][0]["postId"] == quote.hex_id  # the quoting post

    closed = make_post(human, "No replies please", allow_replies=False)
    with pytest.raises(InvalidInput, match="quotes are not allowed for the target post"):
        services.quote_create(follower, closed.id, content="but")
    assert services.quote_create(admin, closed.id, content="admin may")


def test_quote_with_bad_content_writes_nothing(human, follower):
    post = make_post(human)
    before = Post.objects.count()
    with pytest.raises(InvalidInput):
        services.quote_create(follower, post.id, content="   ")
    with pytest.raises(InvalidInput):
        services.quote_create(follower, post.id, content="x", tags="notalist")
    assert Post.objects.count() == before and not Quote.objects.exists()


def test_quote_outlives_the_quoted_post(human, follower):
    post = make_post(human)
    quote = services.quote_create(follower, post.id, content="quoting")
    services.post_delete(human, post.id)
    assert Quote.objects.get(post=quote).quoted_id == post.id
    services.post_delete(follower, quote.id)
    assert not Quote.objects.exists()


def test_bookmarks_are_private_and_unique(human, follower):
    post = make_post(human)
    _run(services.bookmark_add, follower, post.id)
    with pytest.raises(Conflict, match="already bookmarked"):
        services.bookmark_add(follower, post.id)
    assert not Notification.objects.filter(user=human).exclude(slot="follow").exists()
    services.bookmark_remove(follower, post.id)
    with pytest.raises(NotFound, match="bookmark not found"):
        services.bookmark_remove(follower, post.id)


def test_repost_and_bookmark_throttles(settings, human, follower, ai_user):
    settings.STGY_HOURLY_REPOSTS_COUNT_LIMIT = 1
    settings.STGY_HOURLY_BOOKMARKS_COUNT_LIMIT = 1
    a, b = make_post(human, "a"), make_post(human, "b")
    services.repost_add(follower, a.id)
    with pytest.raises(Throttled, match="too often reposts"):
        services.repost_add(follower, b.id)
    services.bookmark_add(follower, a.id)
    with pytest.raises(Throttled, match="too often bookmarks"):
        services.bookmark_add(follower, b.id)
    # AI users are bound exactly like humans
    services.repost_add(ai_user, a.id)
    with pytest.raises(Throttled, match="too often reposts"):
        services.repost_add(ai_user, b.id)
    # a refused repost did not use up the quota of an unrelated user
    assert services.repost_add(human, b.id)


def test_deleting_a_post_removes_its_reposts_and_bookmarks(human, follower):
    post = make_post(human)
    services.repost_add(follower, post.id)
    services.bookmark_add(follower, post.id)
    services.post_delete(human, post.id)
    assert not Repost.objects.exists() and not Bookmark.objects.exists()
