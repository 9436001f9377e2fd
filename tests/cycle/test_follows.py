"""Stage 7, follow management (docs/agent-cycle.md §9): plan_follows at its
boundaries, then the stage end to end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.follows import plan_follows
from agents.cycle.run import run_cycle_sync
from agents.models import PeerImpression
from sns import services
from sns.core.ids import min_id_at
from sns.models import Follow
from tests.factories import make_user

from .helpers import make_site, push_answers, summarise, vector_with_cosine


def fresh(similarity, days_ago=1):
    return {"similarity": similarity, "latestPostAt": timezone.now() - timedelta(days=days_ago)}


def test_new_side_takes_the_top_three_then_applies_the_up_threshold():
    candidates = {1: fresh(0.9), 2: fresh(0.95), 3: fresh(0.7), 4: fresh(0.65), 5: fresh(0.99)}
    final, unfollow, follow = plan_follows(candidates, {}, [])
    assert follow == [5, 2, 1]  # at most MAX_SWAP (3), most similar first
    assert unfollow == [] and final == [5, 2, 1]


def test_the_top_three_are_chosen_before_the_threshold():
    # The third most similar is below 0.6: only two follows, the fourth is not promoted.
    candidates = {1: fresh(0.9), 2: fresh(0.8), 3: fresh(0.59), 4: fresh(0.58)}
    assert plan_follows(candidates, {}, [])[2] == [1, 2]


@pytest.mark.parametrize(("similarity", "followed"), [(0.6, True), (0.5999, False)])
def test_up_similarity_boundary(similarity, followed):
    assert plan_follows({7: fresh(similarity)}, {}, [])[2] == ([7] if followed else [])


@pytest.mark.parametrize(("days_ago", "followed"), [(29, True), (31, False)])
def test_candidates_must_have_posted_within_thirty_days(days_ago, followed):
    assert plan_follows({7: fresh(0.9, days_ago)}, {}, [])[2] == ([7] if followed else [])


def many_followees(n, similarity=0.9, start=100):
    return {start + i: fresh(similarity) for i in range(n)}


def test_fewer_than_27_analysed_followees_are_all_kept():
    current = many_followees(24) | {1: fresh(-0.5), 2: fresh(0.1, days_ago=400)}
    assert len(current) == 26
    final, unfollow, follow = plan_follows({}, current, list(current))
    assert unfollow == [] and follow == []
    assert set(final) == set(current)


@pytest.mark.parametrize(
    ("similarity", "days_ago", "kept"), [(0.4, 1, True), (0.3999, 1, False), (0.9, 31, False)]
)
def test_with_27_analysed_followees_the_down_threshold_and_activity_apply(
    similarity, days_ago, kept
):
    current = many_followees(26) | {1: fresh(similarity, days_ago)}
    assert len(current) == 27
    _, unfollow, _ = plan_follows({}, current, list(current))
    assert unfollow == ([] if kept else [1])


def test_not_analysable_followees_are_unfollowed_whatever_the_count():
    current = {1: fresh(0.9)}
    _, unfollow, _ = plan_follows({}, current, [1, 2, 3])  # 2 and 3 have no usable vectors
    assert unfollow == [2, 3]


def test_at_most_thirty_followees_are_kept():
    current = {100 + i: fresh(0.5 + i / 100) for i in range(30)}  # 0.50 … 0.79
    candidates = {1: fresh(0.95), 2: fresh(0.9), 3: fresh(0.85)}
    final, unfollow, follow = plan_follows(candidates, current, list(current))
    assert len(final) == 30
    assert follow == [1, 2, 3]
    assert unfollow == [100, 101, 102]  # the three least similar make room


def test_a_candidate_already_followed_is_not_followed_again():
    final, unfollow, follow = plan_follows({1: fresh(0.9)}, {1: fresh(0.9)}, [1])
    assert (final, unfollow, follow) == ([1], [], [])


@pytest.mark.django_db
def test_the_stage_follows_a_similar_active_peer_and_unfollows_a_dissimilar_one(
    model_server, settings
):
    """With FOLLOWEES_LIMIT 5 and MAX_SWAP 3, two analysed followees already reach the
    pruning size (5 − 3), so the keep threshold applies as it would at 27 of 30."""
    settings.STGY_AI_USER_FOLLOWEES_LIMIT = 5
    settings.STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS = 1  # keep the crafted interest this cycle
    ai, (peer_post, kept_post, dissimilar_post) = make_site(cosines=(100, 90, -100))
    peer, kept, dissimilar = (p.owner for p in (peer_post, kept_post, dissimilar_post))
    silent = make_user("Silent")  # followed, but has never posted: not analysable
    for user in (kept, dissimilar, silent):
        services.follow_add(ai, user.id)
    push_answers(model_server)

    run = run_cycle_sync(ai.id)
    assert run.stages["follow_management"]["outcome"] == "ok", run.stages["follow_management"]
    assert set(Follow.objects.filter(follower=ai).values_list("followee_id", flat=True)) == {
        peer.id,
        kept.id,
    }
    follows = {r["userId"]: r for r in run.details["follows"]}
    unfollows = {r["userId"]: r for r in run.details["unfollows"]}
    assert set(follows) == {peer.hex_id} and follows[peer.hex_id]["similarity"] == pytest.approx(
        1.0
    )
    assert set(unfollows) == {dissimilar.hex_id, silent.hex_id}
    assert unfollows[dissimilar.hex_id]["similarity"] == pytest.approx(-1.0)
    assert unfollows[silent.hex_id]["reason"] == "not analysable"


@pytest.mark.django_db
def test_the_stage_does_not_follow_an_inactive_or_dissimilar_peer(model_server, settings, admin):
    settings.STGY_AI_USER_SKIP_INTEREST_UPDATE_DAYS = 1
    ai, (near, far) = make_site(cosines=(100, 50))
    old_author = make_user("Old")
    old = services.post_create(
        admin,
        content="an old post",
        tags=[],
        owned_by=old_author.id,
        post_id=min_id_at(timezone.now() - timedelta(days=40)) + 7,
    )
    summarise(old, vector_with_cosine(100))
    push_answers(model_server)
    run = run_cycle_sync(ai.id)
    assert run.stages["follow_management"]["outcome"] == "ok", run.stages["follow_management"]
    followed = set(Follow.objects.filter(follower=ai).values_list("followee_id", flat=True))
    assert followed == {near.owner_id}
    assert PeerImpression.objects.filter(user=ai, peer=old_author).exists()  # judged, but inactive
    assert far.owner_id not in followed  # cosine 0.5 < 0.6
