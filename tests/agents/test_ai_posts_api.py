"""`/api/ai-posts…` (docs/api.md §7): packets, admin writes, validation, feeds."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.embeddings import embed_features
from agents.keyword_hash import fnv1a32
from agents.models import AiPostTag, PostSummary
from agents.vectors import features_to_b64
from sns import services
from sns.core.ids import id_to_hex
from tests.conftest import login_client
from tests.factories import make_post, make_user

STARS = "Tonight the telescope showed Jupiter, its four moons and the cloud bands of the planet."
BREAD = "The sourdough starter doubled; the bread baked in a cast iron pot had an open crumb."


@pytest.fixture(autouse=True)
def offline(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"


def hexid(obj) -> str:
    return id_to_hex(obj.id)


# ------------------------------------------------------------------ packets


@pytest.mark.django_db
def test_list_requires_login_and_pages_newest_first(api, human, settings):
    posts = [make_post(human, f"{STARS} {i}", tags=["sky"]) for i in range(3)]
    settings.STGY_AI_PROVIDER = "none"
    pending = make_post(human, "pending one")
    assert api.get("/api/ai-posts").status_code == 401
    client = login_client(human)
    body = client.get("/api/ai-posts").json()
    assert [p["postId"] for p in body] == [hexid(p) for p in [pending, *reversed(posts)]]
    first = body[1]
    assert set(first) == {
        "postId",
        "sourceUpdatedAt",
        "summary",
        "features",
        "tags",
        "keywordHashes",
    }
    assert (
        first["summary"]
        and len(first["features"]) == 684
        and first["sourceUpdatedAt"].endswith("Z")
    )
    assert first["tags"] == sorted(first["tags"]) and fnv1a32("sky") in first["keywordHashes"]
    assert body[0]["summary"] is None and body[0]["features"] is None and body[0]["tags"] == []
    asc = client.get("/api/ai-posts?order=asc&limit=2&offset=1").json()
    assert [p["postId"] for p in asc] == [hexid(posts[1]), hexid(posts[2])]
    nulls = client.get("/api/ai-posts?nullOnly=true").json()
    assert [p["postId"] for p in nulls] == [hexid(pending)]
    since = PostSummary.objects.get(post=posts[2]).source_updated_at.isoformat()
    newer = client.get("/api/ai-posts", {"newerThan": since}).json()
    assert [p["postId"] for p in newer] == [hexid(pending)]
    assert client.get("/api/ai-posts?newerThan=yesterday").status_code == 400


@pytest.mark.django_db
def test_list_query_count_is_constant(human):
    from agents.api.ai_posts_views import summary_packet
    from agents.summaries.store import summaries_list
    from sns.selectors import Page

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            rows = [summary_packet(r) for r in summaries_list(page=Page(0, 100, "desc"))]
        assert rows
        return len(ctx)

    for i in range(2):
        make_post(human, f"{BREAD} {i}", tags=["bread"])
    assert queries() == 2  # the rows, then the AI tags of the whole page
    for i in range(10):
        make_post(human, f"{STARS} {i}", tags=["sky"])
    assert queries() == 2
    assert len(login_client(human).get("/api/ai-posts").json()) == 12


@pytest.mark.django_db
def test_head_and_get_one(human, settings):
    client = login_client(human)
    done = make_post(human, STARS)
    settings.STGY_AI_PROVIDER = "none"
    pending = make_post(human, BREAD)
    assert client.head(f"/api/ai-posts/{hexid(done)}").status_code == 200
    assert client.head(f"/api/ai-posts/{hexid(pending)}").status_code == 404
    assert client.head("/api/ai-posts/00000000000000FF").status_code == 404
    assert client.get(f"/api/ai-posts/{hexid(pending)}").json()["summary"] is None
    assert client.get("/api/ai-posts/00000000000000FF").status_code == 404
    assert client.get("/api/ai-posts/not-hex").status_code == 400


@pytest.mark.django_db
def test_put_is_admin_only_and_changes_only_given_fields(human, admin):
    post = make_post(human, STARS)
    before = PostSummary.objects.get(post=post)
    url = f"/api/ai-posts/{hexid(post)}"
    assert login_client(human).put(url, {"summary": "x"}, format="json").status_code == 403
    client = login_client(admin)
    response = client.put(
        url,
        {"tags": [" Night  Sky ", "night sky", "Moons"], "keywords": ["Jupiter"]},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["tags"] == ["moons", "night sky"] and body["keywordHashes"] == [fnv1a32("jupiter")]
    assert body["summary"] == before.summary
    assert body["sourceUpdatedAt"] == response.json()["sourceUpdatedAt"]
    features = features_to_b64(embed_features(BREAD)[0])
    body = client.put(
        url, {"summary": "Bread.", "features": features, "keywords": []}, format="json"
    ).json()
    assert (
        body["summary"] == "Bread." and body["features"] == features and body["keywordHashes"] == []
    )
    row = PostSummary.objects.get(post=post)
    assert row.source_updated_at == before.source_updated_at and row.hashes is None
    assert (
        client.put(url, {"summary": None, "features": None}, format="json").json()["features"]
        is None
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"tags": "sky"},
        {"tags": [1]},
        {"keywords": [None]},
        {"summary": 3},
        {"tags": ["x" * 51]},
        {"features": 5},
    ],
)
def test_put_rejects_wrong_types(admin, human, body):
    post = make_post(human, STARS)
    response = login_client(admin).put(f"/api/ai-posts/{hexid(post)}", body, format="json")
    assert response.status_code == 400, response.content
    assert AiPostTag.objects.filter(post=post).exclude(name__in=[]).count() >= 0


@pytest.mark.django_db
def test_put_unknown_post_is_400(admin):
    response = login_client(admin).put(
        "/api/ai-posts/00000000000000FF", {"summary": "x"}, format="json"
    )
    assert response.status_code == 400


# ------------------------------------------------------------- recommendations


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "invalid body"),
        ({}, "tags is required"),
        ({"tags": []}, "tags is required"),
        ({"tags": ["sky"]}, "invalid tags[0]"),
        ({"tags": [{"name": " ", "count": 1}]}, "invalid tags[0].name"),
        ({"tags": [{"name": "sky", "count": 0}]}, "invalid tags[0].count"),
        (
            {"tags": [{"name": "sky", "count": 1}], "keywordHashes": ["x"]},
            "invalid keywordHashes[0]",
        ),
        ({"tags": [{"name": "sky", "count": 1}], "features": 3}, "invalid features"),
        ({"tags": [{"name": "sky", "count": 1}], "seedPostIds": "x"}, "invalid seedPostIds"),
        ({"tags": [{"name": "sky", "count": 1}], "ownerDecay": "1"}, "invalid ownerDecay"),
        ({"tags": [{"name": "sky", "count": 1}], "selfUserId": "zz"}, "invalid selfUserId"),
    ],
)
def test_recommendation_body_validation(human, body, message):
    response = login_client(human).post("/api/ai-posts/recommendations", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": message}


@pytest.mark.django_db
def test_recommendations_rank_interest_topic_and_return_posts(
    human, ai_user, django_assert_max_num_queries
):
    stars = make_post(human, STARS, tags=["hobby"])
    bread = make_post(human, BREAD, tags=["hobby"])
    for i in range(8):
        make_post(make_user(), f"{BREAD} Loaf {i}.", tags=["hobby"])
    services.like_add(ai_user, stars.id)
    body = {
        "tags": [{"name": "Hobby", "count": 1}, {"name": "hobby", "count": 1}],
        "keywordHashes": [fnv1a32("telescope"), {"hash": fnv1a32("jupiter"), "count": 2}],
        "features": features_to_b64(embed_features("telescope planets Jupiter moons")[0]),
        "selfUserId": hexid(ai_user),
        "limit": 3,
    }
    client = login_client(ai_user)
    ids = client.post("/api/ai-posts/recommendations", body, format="json").json()
    assert ids[0] == hexid(stars) and len(ids) == 3
    with django_assert_max_num_queries(14):
        posts = client.post("/api/ai-posts/recommendations/posts", body, format="json").json()
    assert [p["id"] for p in posts] == ids
    assert posts[0]["isLikedByFocusUser"] is True and "content" not in posts[0]
    asc = client.post(
        "/api/ai-posts/recommendations", {**body, "order": "ASC", "limit": 200}, format="json"
    ).json()
    assert len(asc) == 10 and asc[-1] == hexid(stars) and hexid(bread) in asc


@pytest.mark.django_db
def test_search_seed_permissions_and_params(human, follower, admin):
    make_post(human, STARS, tags=["sky"])
    make_post(follower, BREAD, tags=["bread"])
    client = login_client(follower)
    seeds = client.get("/api/ai-posts/search-seed").json()
    assert len(seeds) == 1
    assert set(seeds[0]) == {"tags", "extraTags", "keywordHashes", "features", "weight", "postIds"}
    assert client.get("/api/ai-posts/search-seed", {"clusters": 2}).status_code == 200
    assert client.get("/api/ai-posts/search-seed", {"numClusters": 0}).status_code == 400
    assert client.get("/api/ai-posts/search-seed", {"numClusters": "x"}).status_code == 400
    assert client.get("/api/ai-posts/search-seed", {"userId": hexid(human)}).status_code == 403
    as_admin = (
        login_client(admin).get("/api/ai-posts/search-seed", {"userId": hexid(follower)}).json()
    )
    assert as_admin == seeds


@pytest.mark.django_db
def test_for_user_is_self_or_admin_only(
    human, follower, admin, django_assert_max_num_queries, settings
):
    # A private cache: a shared Redis database may be flushed by another test run.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    liked = make_post(human, STARS, tags=["sky"])
    services.like_add(follower, liked.id)
    other = make_post(human, "Saturn rings and Titan in the telescope tonight.", tags=["sky"])
    url = f"/api/ai-posts/recommendations/posts/for-user/{hexid(follower)}"
    assert login_client(human).get(url).status_code == 403
    client = login_client(follower)
    with django_assert_max_num_queries(30):
        posts = client.get(url).json()
    assert hexid(other) in [p["id"] for p in posts]
    with django_assert_max_num_queries(8):  # cached ids: session, user, the page of posts
        assert client.get(url).json() == posts
    assert login_client(admin).get(url).status_code == 200
    assert client.get("/api/ai-posts/recommendations/posts/for-user/nothex").status_code == 400


@pytest.mark.django_db
def test_for_post_lists_related_and_404s(human, follower, settings):
    target = make_post(human, STARS, tags=["sky"])
    near = make_post(human, "Jupiter and its moons in a small telescope at night.", tags=["sky"])
    client = login_client(follower)
    posts = client.get(f"/api/ai-posts/recommendations/posts/for-post/{hexid(target)}").json()
    assert {p["id"] for p in posts} >= {hexid(near)}
    assert (
        client.get("/api/ai-posts/recommendations/posts/for-post/00000000000000FF").status_code
        == 404
    )
    settings.STGY_AI_PROVIDER = "none"
    lonely = make_post(human, "No tags and no summary.")
    assert client.get(f"/api/ai-posts/recommendations/posts/for-post/{hexid(lonely)}").json() == []


def test_views_generate_openapi_without_warnings():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    import sns.api.schema  # noqa: F401  (registers the session-cookie scheme)
    from agents.api.ai_posts_urls import urlpatterns

    GENERATOR_STATS.reset()
    paths = SchemaGenerator(patterns=urlpatterns).get_schema(request=None, public=True)["paths"]
    assert "/ai-posts/recommendations/posts/for-user/{user_id}" in paths
    assert (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache)) == ({}, {})


@pytest.mark.django_db
def test_a_vector_of_the_wrong_length_is_refused_and_search_seeds_keep_working(admin, human):
    """A 5-byte vector used to be stored, and the owner's search seeds then failed
    with a 500 (numpy could not add it to the 512-byte ones)."""
    post = make_post(human, STARS)
    make_post(human, BREAD)
    services.like_add(human, post.id)
    client = login_client(admin)
    short = features_to_b64(bytes([1, 2, 3, 4, 5]))
    response = client.put(f"/api/ai-posts/{hexid(post)}", {"features": short}, format="json")
    assert response.json() == {"error": "invalid features"}
    response = client.get(f"/api/ai-posts/search-seed?userId={hexid(human)}")
    assert response.status_code == 200
    query = {"tags": [{"name": "sky", "count": 1}], "features": short}
    response = client.post("/api/ai-posts/recommendations", query, format="json")
    assert response.json() == {"error": "invalid features"}
