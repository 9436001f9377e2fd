"""Public sites over the API: /users/{id}/pub-config, pub-ranking, pub-stats,
/posts/pub/{id}, /posts/pub-by-user/{userId}, POST /posts/pub-by-ids."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sns.models import PostPubView, PubConfig
from sns.services.publication import pub_view_signature
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "siteName": "",
    "subtitle": "",
    "author": "",
    "introduction": "",
    "designTheme": "",
    "showServiceHeader": True,
    "showSiteName": True,
    "showPagenation": True,
    "showSideProfile": True,
    "showSideRecent": 5,
    "showSidePopular": 5,
}


def _published(owner, content="public text", ago_minutes=10, **fields):
    return make_post(owner, content, published_at=timezone.now() - timedelta(minutes=ago_minutes), **fields)


# ----------------------------------------------------------------------- pub-config


def test_pub_config_defaults_without_login(api, human):
    response = api.get(f"/api/users/{human.hex_id}/pub-config")
    assert response.status_code == 200, response.content
    assert response.json() == {**DEFAULTS, "locale": "en-US"}


def test_pub_config_of_unknown_user_is_the_defaults_without_locale(api, db):
    response = api.get("/api/users/00000000DEADBEEF/pub-config")
    assert response.status_code == 200 and response.json() == DEFAULTS


def test_pub_config_bad_id_is_400(api, db):
    response = api.get("/api/users/xyz/pub-config")
    assert response.status_code == 400 and response.json() == {"error": "invalid id"}


def test_owner_sets_every_field_and_gets_it_back(human, api):
    body = {
        "siteName": "  My   Site ",
        "subtitle": "Notes",
        "author": "Alice A.",
        "introduction": "Hello  \r\nworld\n\n",
        "designTheme": "newspaper",
        "showServiceHeader": False,
        "showSiteName": "off",
        "showPagenation": 0,
        "showSideProfile": "yes",
        "showSideRecent": "-3",
        "showSidePopular": 20,
    }
    response = login_client(human).put(f"/api/users/{human.hex_id}/pub-config", body, format="json")
    assert response.status_code == 200, response.content
    expected = {
        "siteName": "My Site",
        "subtitle": "Notes",
        "author": "Alice A.",
        "introduction": "Hello\nworld",
        "designTheme": "newspaper",
        "showServiceHeader": False,
        "showSiteName": False,
        "showPagenation": False,
        "showSideProfile": True,
        "showSideRecent": -3,
        "showSidePopular": 20,
    }
    assert response.json() == expected
    assert api.get(f"/api/users/{human.hex_id}/pub-config").json() == {**expected, "locale": "en-US"}


def test_partial_update_keeps_other_fields(human):
    client = login_client(human)
    client.put(f"/api/users/{human.hex_id}/pub-config", {"siteName": "A", "subtitle": "B"}, format="json")
    data = client.put(f"/api/users/{human.hex_id}/pub-config", {"subtitle": "C", "siteName": None}, format="json").json()
    assert data["siteName"] == "A" and data["subtitle"] == "C"
    assert PubConfig.objects.filter(user=human).count() == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"siteName": "x" * 51}, "siteName is too long"),
        ({"subtitle": "x" * 51}, "subtitle is too long"),
        ({"author": "x" * 51}, "author is too long"),
        ({"introduction": "x" * 1001}, "introduction is too long"),
        ({"designTheme": "bad theme!"}, "invalid designTheme"),
        ({"designTheme": "a" * 51}, "designTheme is too long"),
        ({"siteName": 5}, "siteName must be a string"),
        ({"showSiteName": "maybe"}, "showSiteName must be a boolean"),
        ({"showSideRecent": 1.5}, "invalid sidebar count"),
        ({"showSideRecent": "12a"}, "invalid sidebar count"),
        ({"showSidePopular": None}, "invalid sidebar count"),
        ({"showSidePopular": True}, "invalid sidebar count"),
        ({"showSidePopular": 2**31}, "invalid sidebar count"),
        ({"siteName": "bad\u0000"}, "siteName contains invalid characters"),
    ],
)
def test_bad_fields_are_400_and_write_nothing(human, body, message):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}/pub-config", {"subtitle": "kept?", **body}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json() == {"error": message}
    assert not PubConfig.objects.filter(user=human).exists()


def test_limits_are_inclusive(human):
    body = {"siteName": "x" * 50, "introduction": "y" * 1000, "showSideRecent": -(2**31)}
    response = login_client(human).put(f"/api/users/{human.hex_id}/pub-config", body, format="json")
    assert response.status_code == 200, response.content


def test_only_owner_or_admin_writes(human, follower, admin, api):
    url = f"/api/users/{human.hex_id}/pub-config"
    assert api.put(url, {"siteName": "x"}, format="json").status_code == 401
    response = login_client(follower).put(url, {"siteName": "x"}, format="json")
    assert response.status_code == 403 and response.json() == {"error": "forbidden"}
    assert not PubConfig.objects.filter(user=human).exists()
    assert login_client(admin).put(url, {"siteName": "by admin"}, format="json").status_code == 200
    assert PubConfig.objects.get(user=human).site_name == "by admin"


def test_frozen_user_cannot_write(db):
    frozen = make_user("Ice", is_frozen=True)
    response = login_client(frozen).put(f"/api/users/{frozen.hex_id}/pub-config", {"siteName": "x"}, format="json")
    assert response.status_code == 403 and response.json() == {"error": "user is frozen"}


def test_admin_writing_for_unknown_user_is_404(admin):
    response = login_client(admin).put("/api/users/00000000DEADBEEF/pub-config", {"siteName": "x"}, format="json")
    assert response.status_code == 404


def test_non_object_body_is_400(human):
    response = login_client(human).put(f"/api/users/{human.hex_id}/pub-config", [1, 2], format="json")
    assert response.status_code == 400 and response.json() == {"error": "invalid body"}


def test_updates_are_throttled(human, settings):
    settings.STGY_HOURLY_USER_UPDATES_COUNT_LIMIT = 1
    client = login_client(human)
    url = f"/api/users/{human.hex_id}/pub-config"
    assert client.put(url, {"siteName": "one"}, format="json").status_code == 200
    response = client.put(url, {"siteName": "two"}, format="json")
    assert response.status_code == 403 and response.json() == {"error": "too often updates"}
    assert PubConfig.objects.get(user=human).site_name == "one"


# ---------------------------------------------------------------- what is public


def test_public_post_readable_without_login(api, human):
    older = _published(human, "older", ago_minutes=30)
    post = _published(human, "# Title\n\nbody", ago_minutes=20, tags=["t"])
    newer = _published(human, "newer", ago_minutes=10)
    response = api.get(f"/api/posts/pub/{post.hex_id}")
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["content"] == "# Title\n\nbody" and data["tags"] == ["t"]
    assert data["olderPostId"] == older.hex_id and data["newerPostId"] == newer.hex_id
    assert data["publishedAt"].endswith("Z") and "isLikedByFocusUser" not in data


def test_neighbours_follow_publication_time_and_skip_private_posts(api, human):
    # Created first but published later: publication order, not id order, decides.
    late = _published(human, "late", ago_minutes=1)
    early = _published(human, "early", ago_minutes=50)
    make_post(human, "private in between")
    data = api.get(f"/api/posts/pub/{early.hex_id}").json()
    assert data["newerPostId"] == late.hex_id and data["olderPostId"] is None


@pytest.mark.parametrize("published", [None, "future"])
def test_unpublished_and_scheduled_posts_are_not_public(api, human, published):
    at = None if published is None else timezone.now() + timedelta(hours=1)
    post = make_post(human, "secret", published_at=at)
    response = api.get(f"/api/posts/pub/{post.hex_id}")
    assert response.status_code == 404 and response.json() == {"error": "not found"}
    assert api.get(f"/api/posts/pub-by-user/{human.hex_id}").json() == []
    assert api.post("/api/posts/pub-by-ids", {"ids": [post.hex_id]}, format="json").json() == []


def test_public_post_bad_id_is_400(api, db):
    assert api.get("/api/posts/pub/not-hex").status_code == 400


def test_pub_by_user_orders_and_pages(api, human, follower):
    a = _published(human, "a", ago_minutes=30)
    b = _published(human, "b", ago_minutes=20)
    c = _published(human, "c", ago_minutes=10)
    _published(follower, "someone else's")
    make_post(human, "not published")
    url = f"/api/posts/pub-by-user/{human.hex_id}"
    assert [p["id"] for p in api.get(url).json()] == [c.hex_id, b.hex_id, a.hex_id]
    assert [p["id"] for p in api.get(url, {"order": "asc"}).json()] == [a.hex_id, b.hex_id, c.hex_id]
    assert [p["id"] for p in api.get(url, {"offset": 1, "limit": 1}).json()] == [b.hex_id]
    row = api.get(url).json()[0]
    # A list row carries the snippet (the original's node tree), not the content.
    assert '"X":"c"' in row["snippet"] and "content" not in row


@pytest.mark.parametrize(
    ("params", "message"),
    [({"limit": "-1"}, "invalid limit"), ({"offset": "x"}, "invalid offset"), ({"order": "up"}, "invalid order")],
)
def test_pub_by_user_bad_params(api, human, params, message):
    response = api.get(f"/api/posts/pub-by-user/{human.hex_id}", params)
    assert response.status_code == 400 and response.json() == {"error": message}


def test_pub_by_user_limit_is_capped_at_1000(api, human):
    assert api.get(f"/api/posts/pub-by-user/{human.hex_id}", {"limit": "5000"}).status_code == 200


def test_pub_by_ids_keeps_order_and_drops_private(api, human):
    a = _published(human, "a")
    b = _published(human, "b")
    hidden = make_post(human, "hidden")
    body = {"ids": [b.hex_id, hidden.hex_id, "0x" + a.hex_id.lower(), "00000000DEADBEEF"]}
    response = api.post("/api/posts/pub-by-ids", body, format="json")
    assert response.status_code == 200, response.content
    assert [p["id"] for p in response.json()] == [b.hex_id, a.hex_id]


def test_pub_by_ids_reads_at_most_20(api, human):
    posts = [_published(human, f"p{i}") for i in range(21)]
    body = {"ids": [p.hex_id for p in posts]}
    assert len(api.post("/api/posts/pub-by-ids", body, format="json").json()) == 20


@pytest.mark.parametrize(
    ("body", "message"),
    [({}, "ids must be an array"), ({"ids": "x"}, "ids must be an array"), ({"ids": [1]}, "invalid id"), ({"ids": ["zz"]}, "invalid id")],
)
def test_pub_by_ids_bad_body(api, db, body, message):
    response = api.post("/api/posts/pub-by-ids", body, format="json")
    assert response.status_code == 400 and response.json() == {"error": message}


def test_replies_are_public_like_any_post_and_frozen_owners_are_hidden(api, human, admin):
    """docs/publication.md §2: a published reply is public; a frozen owner's posts are
    hidden by the site's visibility rule (docs/differences.md item 26), but not from
    admins."""
    parent = _published(human, "parent")
    frozen = make_user("Ice")
    reply = _published(frozen, "a published reply", reply_to=parent.id)
    data = api.get(f"/api/posts/pub/{reply.hex_id}").json()
    assert data["replyTo"] == parent.hex_id and data["replyToOwnerId"] == human.hex_id
    frozen.is_frozen = True
    frozen.save()
    assert api.get(f"/api/posts/pub/{reply.hex_id}").status_code == 404
    assert api.get(f"/api/posts/pub-by-user/{frozen.hex_id}").json() == []
    assert login_client(admin).get(f"/api/posts/pub/{reply.hex_id}").status_code == 200


# ------------------------------------------------------------------- views, ranking


def _view(api, post, fingerprint):
    headers = {
        "HTTP_X_STGY_PUB_VIEW_FINGERPRINT": fingerprint,
        "HTTP_X_STGY_PUB_VIEW_SIGNATURE": pub_view_signature(post.id, fingerprint),
    }
    assert api.get(f"/api/posts/pub/{post.hex_id}", **headers).status_code == 200


def test_signed_views_count_once_per_reader(api, human):
    a = _published(human, "a")
    b = _published(human, "b")
    for fingerprint in ("00000001", "00000002", "00000001"):
        _view(api, a, fingerprint)
    _view(api, b, "00000003")
    api.get(f"/api/posts/pub/{b.hex_id}")  # unsigned: not counted
    api.get(
        f"/api/posts/pub/{b.hex_id}",
        HTTP_X_STGY_PUB_VIEW_FINGERPRINT="00000009",
        HTTP_X_STGY_PUB_VIEW_SIGNATURE="0" * 64,
    )  # forged: not counted
    ranking = api.get(f"/api/users/{human.hex_id}/pub-ranking")
    assert ranking.status_code == 200
    assert ranking.json() == [{"id": a.hex_id, "pv": 2}, {"id": b.hex_id, "pv": 1}]
    assert api.get(f"/api/users/{human.hex_id}/pub-ranking", {"limit": 1}).json() == [{"id": a.hex_id, "pv": 2}]
    assert api.get(f"/api/users/{human.hex_id}/pub-ranking", {"limit": 0}).json() == []


def test_ranking_bad_limit_is_400(api, human):
    response = api.get(f"/api/users/{human.hex_id}/pub-ranking", {"limit": "-1"})
    assert response.status_code == 400 and response.json() == {"error": "invalid limit"}


def test_ranking_hides_a_post_no_longer_public(api, human):
    post = _published(human, "a")
    _view(api, post, "0000000a")
    post.published_at = None
    post.save()
    assert api.get(f"/api/users/{human.hex_id}/pub-ranking").json() == []


def test_ranking_is_capped_at_20(api, human):
    today = timezone.now().date()
    posts = [_published(human, f"p{i}") for i in range(22)]
    PostPubView.objects.bulk_create(PostPubView(post=p, owner=human, day=today, count=1) for p in posts)
    assert len(api.get(f"/api/users/{human.hex_id}/pub-ranking", {"limit": 100}).json()) == 20


def test_stats_for_owner_and_admin_only(api, human, follower, admin, settings):
    post = _published(human, "**Counted** post")
    today = timezone.now().date()
    PostPubView.objects.create(post=post, owner=human, day=today, count=3)
    PostPubView.objects.create(post=post, owner=human, day=today - timedelta(days=2), count=2)
    PostPubView.objects.create(post=post, owner=human, day=today - timedelta(days=40), count=99)
    url = f"/api/users/{human.hex_id}/pub-stats"
    assert api.get(url).status_code == 401
    assert login_client(follower).get(url).status_code == 403
    data = login_client(human).get(url).json()
    assert data["retentionDays"] == settings.STGY_PUB_VIEW_RETENTION_DAYS == 15
    assert data["totalPv"] == 5 and len(data["dailyPv"]) == 15
    assert data["dailyPv"][-1] == {"date": today.isoformat(), "pv": 3}
    assert data["dailyPv"][-3]["pv"] == 2
    [entry] = data["entries"]
    assert entry["id"] == post.hex_id and entry["pv"] == 5 and entry["digest"] == "Counted post"
    assert entry["dailyPv"][-1] == 3 and len(entry["dailyPv"]) == 15
    assert login_client(admin).get(url).json() == data
