"""The batched rulebook calls (likes_add, follows_add, follows_remove) that AI stages use: each item
meets exactly the rules of a single like, follow or unfollow, and the batch costs a fixed number
of queries however many items it holds."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns import services
from sns.core.errors import Conflict, InvalidInput, NotFound, Throttled
from sns.models import Follow, Like, Post, User
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db


def test_likes_add_applies_every_rule_per_post(human):
    ai = make_ai_user("Aiko")
    friendly = make_user("Friendly")
    strict = make_user("Strict", block_strangers=True)
    services.block_add(human, ai.id)
    by_blocker = make_post(human, "blocked")
    no_likes = make_post(friendly, "no likes", allow_likes=False)
    friends_only = make_post(strict, "friends only")
    done = make_post(friendly, "liked before")
    services.like_add(ai, done.id)
    fine = make_post(friendly, "fine")

    ids = [by_blocker.id, no_likes.id, friends_only.id, done.id, 999, fine.id]
    outcomes = services.likes_add(ai, ids)

    assert list(outcomes) == ids
    assert outcomes[by_blocker.id].message == "blocked by the owner"
    assert outcomes[no_likes.id].message == "likes are not allowed for the target post"
    assert outcomes[friends_only.id].message == "blocked by the owner"  # blockStrangers, no follow back
    assert isinstance(outcomes[done.id], Conflict)
    assert isinstance(outcomes[999], InvalidInput) and outcomes[999].message == "post not found"
    assert isinstance(outcomes[fine.id], Like)
    assert set(Like.objects.filter(user=ai).values_list("post_id", flat=True)) == {done.id, fine.id}


def test_likes_add_likes_the_allowed_and_refuses_the_rest(human):
    ai = make_ai_user("Aiko")
    posts = [make_post(human, f"post {i}") for i in range(3)]
    no_likes = make_post(human, "no likes", allow_likes=False)
    services.like_add(ai, posts[0].id)

    outcomes = services.likes_add(ai, [posts[0].id, posts[1].id, no_likes.id, posts[2].id])

    assert isinstance(outcomes[posts[0].id], Conflict)
    assert outcomes[no_likes.id].message == "likes are not allowed for the target post"
    assert isinstance(outcomes[posts[1].id], Like) and isinstance(outcomes[posts[2].id], Like)
    counts = dict(Post.objects.filter(id__in=[p.id for p in posts]).values_list("id", "like_count"))
    assert counts == {posts[0].id: 1, posts[1].id: 1, posts[2].id: 1}


def test_likes_add_counts_each_like_against_the_hourly_throttle(human, settings):
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 2
    ai = make_ai_user("Aiko")
    posts = [make_post(human, f"post {i}") for i in range(3)]
    outcomes = services.likes_add(ai, [p.id for p in posts])
    assert [type(outcomes[p.id]) for p in posts] == [Like, Like, Throttled]
    assert Like.objects.filter(user=ai).count() == 2


def test_likes_add_refuses_a_frozen_actor(human):
    frozen = make_ai_user("Frozen", is_frozen=True)
    post = make_post(human, "hello")
    with pytest.raises(Exception, match="frozen"):
        services.likes_add(frozen, [post.id])
    assert not Like.objects.exists()


def test_likes_add_costs_the_same_queries_for_one_or_three_posts(human, settings):
    settings.STGY_NOTIFY_FROM_AI_USERS = False  # notifications are per event; the batch is what is measured
    ai = make_ai_user("Aiko")
    one = [make_post(human, "single").id]
    three = [make_post(human, f"post {i}").id for i in range(3)]
    with CaptureQueriesContext(connection) as single:
        services.likes_add(ai, one)
    with CaptureQueriesContext(connection) as batch:
        services.likes_add(ai, three)
    assert len(single) == len(batch)


def test_follows_add_applies_every_rule_per_user(human):
    ai = make_ai_user("Aiko")
    strict = make_user("Strict", block_strangers=True)
    friend = make_user("Friend")
    other = make_user("Other")
    already = make_user("Already")
    services.follow_add(ai, already.id)
    services.block_add(human, ai.id)

    outcomes = services.follows_add(ai, [ai.id, human.id, strict.id, already.id, 999, friend.id, other.id])

    assert outcomes[ai.id].message == "cannot follow yourself"
    assert outcomes[human.id].message == "blocked by the user"
    assert outcomes[strict.id].message == "blocked by the user"
    assert isinstance(outcomes[already.id], Conflict)
    assert isinstance(outcomes[999], NotFound)
    assert isinstance(outcomes[friend.id], Follow) and isinstance(outcomes[other.id], Follow)
    counts = dict(User.objects.filter(id__in=[ai.id, friend.id, other.id]).values_list("id", "follower_count"))
    assert counts[friend.id] == counts[other.id] == 1
    assert User.objects.get(id=ai.id).followee_count == 3  # already, friend, other


def test_follows_add_counts_each_follow_against_the_hourly_throttle(settings):
    settings.STGY_HOURLY_USER_UPDATES_COUNT_LIMIT = 1
    ai = make_ai_user("Aiko")
    first, second = make_user("First"), make_user("Second")
    outcomes = services.follows_add(ai, [first.id, second.id])
    assert isinstance(outcomes[first.id], Follow) and isinstance(outcomes[second.id], Throttled)


def test_follow_remove_keeps_both_counters_in_step():
    ai = make_ai_user("Aiko")
    target = make_user("Target")
    services.follow_add(ai, target.id)
    services.follow_remove(ai, target.id)
    assert User.objects.get(id=ai.id).followee_count == 0
    assert User.objects.get(id=target.id).follower_count == 0
    with pytest.raises(NotFound):
        services.follow_remove(ai, target.id)


def test_follows_remove_unfollows_each_in_one_statement_and_refuses_the_unfollowed():
    ai = make_ai_user("Aiko")
    first, second, stranger = make_user("First"), make_user("Second"), make_user("Stranger")
    services.follows_add(ai, [first.id, second.id])
    services.follow_add(stranger, first.id)
    with CaptureQueriesContext(connection) as queries:
        outcomes = services.follows_remove(ai, [first.id, stranger.id, second.id, first.id])
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The delete and both sides' counters: one statement on PostgreSQL (CTEs), two elsewhere.
    assert len(statements) == (1 if connection.vendor == "postgresql" else 2), statements
    assert outcomes[first.id] is None and outcomes[second.id] is None
    assert isinstance(outcomes[stranger.id], NotFound)
    assert not Follow.objects.filter(follower_id=ai.id).exists()
    counts = dict(User.objects.filter(id__in=[ai.id, first.id, second.id]).values_list("id", "follower_count"))
    assert counts[first.id] == 1 and counts[second.id] == 0  # the stranger still follows First
    assert User.objects.get(id=ai.id).followee_count == 0
    assert services.follows_remove(ai, [first.id])[first.id].message == "not followed"


def test_follows_remove_by_a_frozen_user_refuses_every_unfollow():
    ai = make_ai_user("Aiko")
    target = make_user("Target")
    services.follow_add(ai, target.id)
    User.objects.filter(id=ai.id).update(is_frozen=True)
    ai.refresh_from_db()
    outcomes = services.follows_remove(ai, [target.id])
    assert outcomes[target.id].message == "user is frozen"
    assert Follow.objects.filter(follower_id=ai.id, followee_id=target.id).exists()


def test_likes_and_follows_go_in_with_their_counters_in_one_statement():
    """On PostgreSQL the rows and their counters are one statement (the counters'
    UPDATE a CTE of the INSERT); the rows come back with their ids."""
    human = make_user("Human")
    ai = make_ai_user("Aiko")
    posts = [make_post(human, f"post {i}") for i in range(2)]
    others = [make_user(f"Other{i}") for i in range(2)]
    with CaptureQueriesContext(connection) as likes:
        liked = services.likes_add(ai, [p.id for p in posts])
    with CaptureQueriesContext(connection) as follows:
        followed = services.follows_add(ai, [u.id for u in others])
    def writes(queries) -> list[str]:
        return [q["sql"] for q in queries.captured_queries if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))]

    expected = 1 if connection.vendor == "postgresql" else 2
    assert len(writes(likes)) == expected and len(writes(follows)) == expected
    assert {like.pk for like in liked.values()} == set(Like.objects.filter(user=ai).values_list("pk", flat=True))
    assert all(not like._state.adding for like in liked.values())
    assert {f.pk for f in followed.values()} == set(Follow.objects.filter(follower=ai).values_list("pk", flat=True))
    assert list(Post.objects.filter(pk__in=[p.id for p in posts]).values_list("like_count", flat=True)) == [1, 1]
    counts = dict(User.objects.values_list("id", "follower_count"))
    assert counts[others[0].id] == counts[others[1].id] == 1
    assert User.objects.get(pk=ai.id).followee_count == 2
    assert User.objects.get(pk=human.id).followee_count == 0



def test_a_batch_reads_the_hourly_window_once_and_counts_its_likes_for_later_ones(human, settings, monkeypatch):
    from sns.core import throttle

    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 4
    ai = make_ai_user("Aiko")
    services.like_add(ai, make_post(human, "earlier").id)
    posts = [make_post(human, f"post {i}") for i in range(4)]
    reads = []
    original = throttle._read_counts
    monkeypatch.setattr(throttle, "_read_counts", lambda keys: reads.append(keys) or original(keys))
    outcomes = services.likes_add(ai, [p.id for p in posts])
    assert len(reads) == 1  # the window once, not once per like
    assert [type(outcomes[p.id]) for p in posts] == [Like, Like, Like, Throttled]
    # The batch's three likes count: the next single like finds the hour used up.
    with pytest.raises(Throttled):
        services.like_add(ai, make_post(human, "later").id)


def test_follows_add_respects_a_used_up_size_window_of_user_updates(settings):
    from sns.core import throttle

    ai = make_ai_user("Aiko")
    throttle.throttle_check(ai, throttle.USER_UPDATES, size=40)
    settings.STGY_HOURLY_USER_UPDATES_SIZE_LIMIT = 10  # lowered below what the hour already used
    first, second = make_user("First"), make_user("Second")
    with pytest.raises(Throttled):  # what a single follow does
        services.follow_add(ai, first.id)
    outcomes = services.follows_add(ai, [first.id, second.id])
    assert isinstance(outcomes[first.id], Throttled) and isinstance(outcomes[second.id], Throttled)


def test_batches_of_other_sizes_and_actors_count_their_own_rows():
    """The follows' and likes' statements are compiled once per process: later batches,
    of another actor and another size, still count exactly their own rows."""
    first, second = make_ai_user("Aiko"), make_ai_user("Bento")
    people = [make_user(f"Person {i}") for i in range(4)]
    posts = [make_post(people[0], f"post {i}") for i in range(3)]
    services.follows_add(first, [people[0].id])
    services.follows_add(second, [p.id for p in people[1:]] + [first.id])
    services.likes_add(first, [posts[0].id, posts[2].id])
    services.likes_add(second, [posts[2].id])
    following = dict(User.objects.values_list("id", "followee_count"))
    followers = dict(User.objects.values_list("id", "follower_count"))
    assert (following[first.id], following[second.id]) == (1, 4)
    assert [followers[p.id] for p in people] == [1, 1, 1, 1] and followers[first.id] == 1
    assert followers[second.id] == 0 and following[people[0].id] == 0
    likes = dict(Post.objects.filter(pk__in=[p.id for p in posts]).values_list("id", "like_count"))
    assert [likes[p.id] for p in posts] == [1, 0, 2]
    assert set(Follow.objects.filter(follower=second).values_list("followee_id", flat=True)) == {
        *[p.id for p in people[1:]], first.id}
