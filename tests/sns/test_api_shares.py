"""The share routes of the JSON API (docs/shares.md), under /api/ and /backend/."""

import pytest
from django.test import TestCase

from sns import services
from sns.models import Post, Quote, Repost
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("prefix", ["/api", "/backend"])
def test_repost_and_unrepost(prefix, human, follower):
    post = make_post(human)
    client = login_client(follower)
    url = f"{prefix}/posts/{post.hex_id}/repost"
    assert client.post(url).json() == {"result": "ok"}
    again = client.post(url)
    assert again.status_code == 400 and again.json() == {"error": "already reposted"}
    reposters = client.get(f"{prefix}/posts/{post.hex_id}/reposters").json()
    assert [u["id"] for u in reposters] == [follower.hex_id] and "email" not in reposters[0]
    assert client.delete(url).json() == {"result": "ok"}
    gone = client.delete(url)
    assert gone.status_code == 404 and gone.json() == {"error": "repost not found"}


def test_bad_ids_and_missing_posts_are_4xx(human):
    client = login_client(human)
    for method in ("post", "delete"):
        for route in ("repost", "bookmark"):
            response = getattr(client, method)(f"/api/posts/zz/{route}")
            assert response.status_code == 400 and response.json() == {"error": "invalid id"}
    missing = client.post("/api/posts/0000000000000abc/repost")
    assert missing.status_code == 404 and missing.json() == {"error": "post not found"}
    assert client.get("/api/posts/0000000000000abc/shares").status_code == 404


def test_login_required(human):
    post = make_post(human)
    from tests.clients import APIClient

    anonymous = APIClient()
    assert anonymous.post(f"/api/posts/{post.hex_id}/repost").status_code == 401
    assert anonymous.get("/api/bookmarks").status_code == 401


def test_quote_route(human, follower):
    post = make_post(human, "Quotable")
    client = login_client(follower)
    response = client.post(
        f"/api/posts/{post.hex_id}/quote", {"content": "So true", "tags": ["wisdom"]}, format="json"
    )
    assert response.status_code == 201
    data = response.json()
    assert data["quotedPostId"] == post.hex_id and data["content"] == "So true" and data["replyTo"] is None
    assert Quote.objects.get(post_id=int(data["id"], 16)).quoted_id == post.id
    # the original's post JSON keeps its shape: no share fields in it
    plain = client.get(f"/api/posts/{data['id']}").json()
    assert "quotedPostId" not in plain and "countReposts" not in plain

    shares = client.get(f"/api/posts/{data['id']}/shares").json()
    assert shares["quotedPostId"] == post.hex_id and shares["quotedPostAvailable"] is True
    assert shares["quotedPost"]["id"] == post.hex_id
    assert client.get(f"/api/posts/{post.hex_id}/shares").json()["countQuotes"] == 1

    services.post_delete(human, post.id)
    shares = client.get(f"/api/posts/{data['id']}/shares").json()
    assert shares["quotedPostAvailable"] is False and shares["quotedPost"] is None


@pytest.mark.parametrize(
    "payload, error",
    [
        ({}, "content is required"),
        ({"content": ""}, "content is required"),
        ({"content": 5}, "content is required"),
        ({"content": "x", "tags": "a"}, "tags is required and must be array"),
        ([1, 2], "invalid body"),
    ],
)
def test_quote_bad_input_writes_nothing(payload, error, human, follower):
    post = make_post(human)
    before = Post.objects.count()
    response = login_client(follower).post(f"/api/posts/{post.hex_id}/quote", payload, format="json")
    assert response.status_code == 400 and response.json() == {"error": error}
    assert Post.objects.count() == before and not Quote.objects.exists()


def test_quote_refused_by_allow_replies_and_blocks(human, blocked):
    closed = make_post(make_user("Closed"), allow_replies=False)
    mine = make_post(human)
    client = login_client(blocked)
    response = client.post(f"/api/posts/{closed.hex_id}/quote", {"content": "hm"}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "quotes are not allowed for the target post"}
    response = client.post(f"/api/posts/{mine.hex_id}/quote", {"content": "hm"}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "blocked by the owner"}


def test_bookmarks_are_private(human, follower):
    a, b = make_post(human, "a"), make_post(human, "b")
    client = login_client(follower)
    assert client.post(f"/api/posts/{a.hex_id}/bookmark").json() == {"result": "ok"}
    assert client.post(f"/api/posts/{b.hex_id}/bookmark").json() == {"result": "ok"}
    listed = client.get("/api/bookmarks").json()
    assert [p["id"] for p in listed] == [b.hex_id, a.hex_id]
    assert client.get("/api/bookmarks?order=asc&limit=1").json()[0]["id"] == a.hex_id
    # the owner of the posts sees no bookmark of theirs, no count, no flag
    owner = login_client(human)
    assert owner.get("/api/bookmarks").json() == []
    shares = owner.get(f"/api/posts/{a.hex_id}/shares").json()
    assert shares["isBookmarkedByMe"] is False and "countBookmarks" not in shares
    assert client.get(f"/api/posts/{a.hex_id}/shares").json()["isBookmarkedByMe"] is True
    assert client.delete(f"/api/posts/{a.hex_id}/bookmark").json() == {"result": "ok"}
    assert [p["id"] for p in client.get("/api/bookmarks").json()] == [b.hex_id]


def test_bookmarks_hide_posts_now_out_of_sight(human, follower):
    post = make_post(human)
    services.bookmark_add(follower, post.id)
    services.block_add(human, follower.id)
    assert login_client(follower).get("/api/bookmarks").json() == []


def test_repost_notification_reaches_the_owner(human, follower):
    post = make_post(human)
    with TestCase.captureOnCommitCallbacks(execute=True):
        login_client(follower).post(f"/api/posts/{post.hex_id}/repost")
    assert Repost.objects.count() == 1
    from sns.models import Notification

    assert Notification.objects.filter(user=human, slot=f"repost:{post.hex_id}").exists()


def test_share_notifications_stay_off_the_original_feed(human, follower):
    post = make_post(human)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.like_add(follower, post.id)
        services.repost_add(follower, post.id)
        quote = services.quote_create(follower, post.id, content="quoting you")
    client = login_client(human)
    feed = client.get("/api/notifications/feed").json()
    assert [n["slot"] for n in feed] == [f"like:{post.hex_id}"]
    shares = client.get("/api/notifications/shares").json()
    assert sorted(n["slot"] for n in shares) == [f"quote:{post.hex_id}", f"repost:{post.hex_id}"]
    quoted = next(n for n in shares if n["slot"].startswith("quote:"))
    assert quoted["records"][0]["postId"] == quote.hex_id and quoted["countUsers"] == 1
    assert "userIds" not in quoted
    newest = max(n["updatedAt"] for n in shares)
    assert client.get(f"/api/notifications/shares?newerThan={newest}").status_code == 304
    # the original feed's 304 ignores share rows too
    newest_feed = max(n["updatedAt"] for n in feed)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.repost_remove(follower, post.id)
        services.repost_add(follower, post.id)
    assert client.get("/api/notifications/feed", {"newerThan": newest_feed}).status_code == 304
