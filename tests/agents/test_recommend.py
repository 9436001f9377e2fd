"""Recommendation (docs/summaries-and-vectors.md §7): coarse score, vector re-ranking, penalties,
seeds, feeds and their query counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.embeddings import embed_features
from agents.models import AiPostTag
from agents.recommend import (
    RecommendQuery,
    recommend_post_ids,
    recommended_posts_for_user,
    related_posts,
    user_search_seeds,
)
from agents.recommend.candidates import coarse_candidates
from agents.recommend.kmeans import kmeans_labels, mulberry32, shuffled_indices, user_seed
from agents.recommend.seeds import round3
from agents.summaries.service import summary_generate
from sns import services
from sns.core.ids import id_to_hex
from sns.models import User
from tests.factories import make_post, make_user

STARS = "Tonight the telescope showed Jupiter, its four moons and the cloud bands of the planet."
BREAD = "The sourdough starter doubled; the bread baked in a cast iron pot had an open crumb."
TOMATO = "Tomato seedlings need deep watering, compost in the soil and mulch against the heat."


@pytest.fixture(autouse=True)
def offline(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"


def summarised(owner, content: str, tags=()):
    post = make_post(owner, content, tags=list(tags))  # summarised on commit
    assert summary_generate(post.id) == "done"
    return post


def features_of(text: str) -> bytes:
    return embed_features(text)[0]


# ------------------------------------------------------------------ pure helpers


def test_mulberry32_matches_the_javascript_generator():
    # Values printed by the JavaScript mulberry32 under node.
    rnd = mulberry32(0)
    assert [rnd() for _ in range(3)] == [
        0.26642920868471265,
        0.0003297457005828619,
        0.2232720274478197,
    ]
    rnd = mulberry32(0x20107)
    assert [rnd() for _ in range(2)] == [0.2924424847587943, 0.06029223767109215]
    rnd = mulberry32(0xFFFFFFFF)
    assert rnd() == 0.8964226141106337


def test_user_seed_is_the_last_eight_hex_digits():
    assert user_seed(int("0000000000020107", 16)) == 0x20107
    assert user_seed(int("ABCDEF0123456789", 16) - (1 << 64)) == 0x23456789


def test_fisher_yates_is_deterministic_and_a_permutation():
    first = shuffled_indices(10, mulberry32(42))
    assert first == shuffled_indices(10, mulberry32(42))
    assert sorted(first) == list(range(10))


def test_kmeans_separates_two_groups():
    rng = np.random.default_rng(1)
    a = np.array([1.0, 0, 0]) + rng.normal(0, 0.01, (5, 3))
    b = np.array([0, 1.0, 0]) + rng.normal(0, 0.01, (5, 3))
    labels = kmeans_labels(np.vstack([a, b]), 2, seed=7)
    assert len(set(labels[:5])) == 1 and len(set(labels[5:])) == 1 and labels[0] != labels[5]
    assert labels == kmeans_labels(np.vstack([a, b]), 2, seed=7)


def test_round3_rounds_half_up_like_javascript():
    assert round3(0.0005) == 0.001 and round3(1.2345) == 1.235 and round3(-0.0005) == 0.0


# -------------------------------------------------------------- coarse score (§7.3)


@pytest.mark.django_db
def test_coarse_score_by_hand(human, follower):
    older = make_post(human, "first", tags=["x"])
    newer = make_post(human, "second", tags=["x"])
    AiPostTag.objects.create(post=newer, name="x")
    ranked, with_row = coarse_candidates(RecommendQuery(tags={"x": 1.0}))
    # N = 2: tagScore[x] = 2 + 1, idf = ln(4/4) + 0.5; rank scores 6 and 5; social 0.8.
    assert [c.post_id for c in ranked] == [newer.id, older.id]
    assert ranked[0].coarse == pytest.approx(math.log(3) * 0.5 * 6 * 0.8)
    assert ranked[1].coarse == pytest.approx(math.log(2) * 0.5 * 5 * 0.8)
    assert with_row == {older.id, newer.id}
    # A follower of the owner gets the followee factor 0.9.
    ranked, _ = coarse_candidates(RecommendQuery(tags={"x": 1.0}, self_user_id=follower.id))
    assert ranked[0].coarse == pytest.approx(math.log(3) * 0.5 * 6 * 0.9)


@pytest.mark.django_db
def test_keyword_hashes_add_to_the_coarse_score(human):
    plain = summarised(human, BREAD, tags=["food"])
    other = summarised(human, TOMATO, tags=["food"])
    from agents.keyword_hash import fnv1a32

    ranked, _ = coarse_candidates(
        RecommendQuery(tags={"food": 1.0}, keyword_hashes={fnv1a32("sourdough"): 3.0})
    )
    assert ranked[0].post_id == plain.id  # older, but it has the keyword
    assert {c.post_id for c in ranked} == {plain.id, other.id}


def test_stored_hashes_count_only_the_weighed_hashes_in_their_first_order():
    from agents.keyword_hash import pack_hashes
    from agents.recommend.candidates import Candidate, _stored_hashes

    def candidate(post_id, hashes, *, row=True):
        return Candidate(post_id=post_id, owner_id=1, is_root=True, like_count=0, penalty=1.0,
                         owner_followed=False, has_summary_row=row, hashes=hashes)

    candidates = {
        1: candidate(1, pack_hashes([9, 5, 7, 5, 9, 9])),
        2: candidate(2, None),
        3: candidate(3, b"\x00\x01\x02"),  # corrupt: no counts, still a row
        4: candidate(4, pack_hashes([5]), row=False),
    }
    counts = _stored_hashes(candidates, {5: 1.0, 9: 2.0, 7: 0.0})
    assert list(counts) == [1, 2, 3]
    assert list(counts[1].items()) == [(9, 3), (5, 2)]  # 7 weighs 0: it adds nothing
    assert counts[2] == {} and counts[3] == {}


# ------------------------------------------------------------ re-ranking (§7.4)


@pytest.mark.django_db
def test_vector_ranks_the_interest_topic_above_an_unrelated_post(human, ai_user):
    stars = summarised(human, STARS, tags=["hobby"])
    bread = summarised(human, BREAD, tags=["hobby"])  # newer: wins on the coarse score
    query = RecommendQuery(tags={"hobby": 1.0}, self_user_id=ai_user.id)
    assert recommend_post_ids(query) == [bread.id, stars.id]
    query.features = features_of("telescope planets Jupiter moons astronomy")
    assert recommend_post_ids(query) == [stars.id, bread.id]


@pytest.mark.django_db
def test_frozen_and_blocking_owners_are_penalised(human, ai_user):
    owners = [make_user("Plain"), make_user("Frozen"), make_user("Blocker")]
    posts = [summarised(owner, TOMATO, tags=["garden"]) for owner in owners]
    User.objects.filter(pk=owners[1].id).update(is_frozen=True)
    services.block_add(owners[2], ai_user.id)
    query = RecommendQuery(tags={"garden": 1.0}, self_user_id=ai_user.id)
    assert recommend_post_ids(query)[0] == posts[0].id  # the oldest, yet first
    query.features = features_of(TOMATO)
    ranked = recommend_post_ids(query)
    assert ranked[0] == posts[0].id and set(ranked) == {p.id for p in posts}


@pytest.mark.django_db
def test_own_posts_are_never_recommended(human, ai_user):
    mine = summarised(ai_user, TOMATO, tags=["garden"])
    theirs = summarised(human, TOMATO, tags=["garden"])
    assert recommend_post_ids(RecommendQuery(tags={"garden": 1.0}, self_user_id=ai_user.id)) == [
        theirs.id
    ]
    assert mine.id in recommend_post_ids(RecommendQuery(tags={"garden": 1.0}))


@pytest.mark.django_db
def test_duplicates_owner_decay_and_paging(human, ai_user):
    other = make_user("Other")
    a1 = summarised(human, TOMATO, tags=["garden"])
    b1 = summarised(other, BREAD, tags=["garden"])
    a2 = summarised(human, TOMATO + " Again.", tags=["garden"])
    features = features_of(TOMATO)
    plain = recommend_post_ids(RecommendQuery(tags={"garden": 1.0}, features=features))
    assert plain.index(b1.id) == 2  # bread is unrelated to the tomato query
    tuned = RecommendQuery(
        tags={"garden": 1.0}, features=features, owner_decay=0.5, demotion_for_duplication=5.0
    )
    ranked = recommend_post_ids(tuned)
    assert ranked.index(b1.id) == 1  # the second tomato post is a near duplicate by the same owner
    assert set(ranked) == {a1.id, a2.id, b1.id}
    tuned.order, tuned.offset, tuned.limit = "asc", 1, 1
    assert recommend_post_ids(tuned) == [ranked[1]]


@pytest.mark.django_db
def test_seed_posts_join_the_universe_and_are_promoted(human, ai_user):
    seed = summarised(human, BREAD, tags=["kitchen"])  # not tagged "garden"
    garden = summarised(human, TOMATO, tags=["garden"])
    query = RecommendQuery(
        tags={"garden": 1.0}, seed_post_ids=[seed.id], promotion_for_seed_posts=2.0
    )
    assert recommend_post_ids(query) == [seed.id, garden.id]


@pytest.mark.django_db
def test_interest_of_an_ai_user_drives_its_candidates(human, ai_user):
    from django.utils import timezone

    from agents.embeddings import model_name
    from agents.models import Interest
    from agents.recommend import recommend_for_interest

    stars = summarised(human, STARS, tags=["hobby"])
    bread = summarised(human, BREAD, tags=["hobby"])
    interest = Interest.objects.create(
        user=ai_user,
        updated_at=timezone.now(),
        interest="Planets and telescopes.",
        tags=["Hobby", " hobby"],
        features=features_of("telescope planets Jupiter moons astronomy"),
        embedding_model=model_name(),
    )
    assert recommend_for_interest(ai_user, interest, limit=30) == [stars.id, bread.id]
    interest.embedding_model = "retired"  # never compared across models: tags alone
    assert recommend_for_interest(ai_user, interest)[0] == bread.id
    interest.tags = []
    assert recommend_for_interest(ai_user, interest) == []


# --------------------------------------------------------------- seeds (§7.5)


@pytest.mark.django_db
def test_search_seeds_cluster_a_users_material(human, follower):
    own = [
        summarised(follower, STARS, tags=["astronomy"]),
        summarised(follower, STARS + " Saturn too.", tags=["astronomy"]),
    ]
    liked = [
        summarised(human, BREAD, tags=["baking"]),
        summarised(human, BREAD + " Rye next.", tags=["baking"]),
    ]
    for post in liked:
        services.like_add(follower, post.id)
    seeds = user_search_seeds(follower.id, 2)
    assert len(seeds) == 2
    assert seeds[0]["weight"] >= seeds[1]["weight"]
    names = [{t["name"] for t in s["tags"]} for s in seeds]
    assert any("astronomy" in n for n in names) and any("baking" in n for n in names)
    all_ids = {pid for s in seeds for pid in s["postIds"]}
    assert all_ids == {id_to_hex(p.id) for p in liked}
    assert not all_ids & {id_to_hex(p.id) for p in own}  # own posts are never seed posts
    for seed in seeds:
        assert len(seed["features"]) == 684 and seed["keywordHashes"]
        assert all(t["count"] >= 1 for t in seed["tags"])
    assert user_search_seeds(follower.id, 2) == seeds  # deterministic
    one = user_search_seeds(follower.id, 1)
    assert len(one) == 1 and one[0]["weight"] == pytest.approx(
        sum(s["weight"] for s in seeds), abs=0.002
    )
    assert len(user_search_seeds(follower.id, 10)) == 4  # fewer materials than clusters: singletons


@pytest.mark.django_db
def test_user_without_material_has_no_seeds(human):
    assert user_search_seeds(human.id, 4) == []


# ------------------------------------------------------------ feeds and pages


@pytest.mark.django_db
def test_for_you_recommends_the_users_topic_and_is_cached(human, follower, settings):
    # A private cache: a shared Redis database may be flushed by another test run.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    author = make_user("Author")
    summarised(follower, STARS, tags=["astronomy"])
    liked = summarised(author, STARS + " Mars was red.", tags=["astronomy"])
    services.like_add(follower, liked.id)
    new_stars = summarised(
        author, "Saturn rings in the telescope, with Titan beside the planet.", tags=["astronomy"]
    )
    summarised(author, BREAD, tags=["baking"])
    posts = recommended_posts_for_user(follower)
    assert posts and posts[0].id in (new_stars.id, liked.id)
    assert all(p.owner_id != follower.id for p in posts)
    assert hasattr(posts[0], "is_liked_by_focus")
    assert cache.get(f"recommend-user-posts:{follower.id}") == [
        p.id for p in recommended_posts_for_user(follower, limit=100)
    ]
    with CaptureQueriesContext(connection) as cached:
        recommended_posts_for_user(follower)
    assert len(cached) <= 3  # the page of posts only


@pytest.mark.django_db
def test_related_posts_prefer_the_same_topic_and_skip_the_post(human, follower, settings):
    target = summarised(human, STARS, tags=["sky"])
    near = summarised(
        human, "Jupiter and its moons in a small telescope, planets at night.", tags=["sky"]
    )
    far = summarised(human, BREAD, tags=["sky"])
    related = related_posts(target, follower)
    assert [p.id for p in related][:2] == [near.id, far.id]
    assert target.id not in [p.id for p in related]
    settings.STGY_AI_PROVIDER = "none"
    pending = make_post(human, "Not summarised yet, and without author tags.")
    assert related_posts(pending, follower) == []


@pytest.mark.django_db
def test_query_count_does_not_grow_with_candidates(human, ai_user):
    def count(n_posts: int) -> int:
        for i in range(n_posts):
            summarised(human, f"{TOMATO} Bed {i}.", tags=["garden", "summer"])
        query = RecommendQuery(
            tags={"garden": 1.0, "summer": 1.0},
            extra_tags={"spring": 0.5},
            self_user_id=ai_user.id,
            features=features_of(TOMATO),
            owner_decay=0.95,
            promotion_by_likes_alpha=5,
            demotion_for_duplication=5,
        )
        with CaptureQueriesContext(connection) as ctx:
            assert recommend_post_ids(query)
        return len(ctx)

    small = count(2)
    assert count(25) == small
    assert small <= 10
