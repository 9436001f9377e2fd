"""POST/DELETE /posts/{id}/like and GET /posts/{id}/likers."""

import pytest

from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def test_like_and_unlike(human, follower):
    post = make_post(human, "like me")
    client = login_client(follower)
    response = client.post(f"/api/posts/{post.hex_id}/like")
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    assert client.get(f"/api/posts/{post.hex_id}").json()["countLikes"] == 1
    response = client.post(f"/api/posts/{post.hex_id}/like")
    assert response.status_code == 400 and response.json() == {"error": "already liked"}
    assert client.delete(f"/api/posts/{post.hex_id}/like").json() == {"result": "ok"}
    response = client.delete(f"/api/posts/{post.hex_id}/like")
    assert response.status_code == 404 and response.json() == {"error": "like not found"}
    assert client.get(f"/api/posts/{post.hex_id}").json()["countLikes"] == 0


def test_like_unknown_post(human):
    response = login_client(human).post("/api/posts/00000000000000FF/like")
    assert response.status_code == 400 and response.json() == {"error": "post not found"}


def test_likers_by_like_time(human):
    post = make_post(human, "popular")
    fans = [make_user(f"fan{i}") for i in range(3)]
    for fan in fans:
        assert login_client(fan).post(f"/api/posts/{post.hex_id}/like").status_code == 200
    client = login_client(human)
    rows = client.get(f"/api/posts/{post.hex_id}/likers").json()
    assert [r["id"] for r in rows] == [f.hex_id for f in reversed(fans)]
    rows = client.get(f"/api/posts/{post.hex_id}/likers?order=asc&limit=2&offset=1").json()
    assert [r["id"] for r in rows] == [f.hex_id for f in fans[1:]]
