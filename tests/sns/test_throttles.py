"""Hourly write throttles per user (sns/core/throttle.py), AI users included, admins exempt."""

import time

import pytest
from django.core.cache import cache

from sns import services
from sns.core import throttle
from sns.core.errors import Throttled
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def test_likes_throttle(settings, human, follower):
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 2
    posts = [make_post(human, f"p{i}") for i in range(3)]
    client = login_client(follower)
    assert client.post(f"/api/posts/{posts[0].hex_id}/like").status_code == 200
    assert client.post(f"/api/posts/{posts[1].hex_id}/like").status_code == 200
    response = client.post(f"/api/posts/{posts[2].hex_id}/like")
    assert response.status_code == 403 and response.json() == {"error": "too often likes"}


def test_posts_count_throttle(settings, human):
    settings.STGY_HOURLY_POSTS_COUNT_LIMIT = 2
    client = login_client(human)
    for _ in range(2):
        assert client.post("/api/posts", {"content": "x", "tags": []}, format="json").status_code == 201
    response = client.post("/api/posts", {"content": "x", "tags": []}, format="json")
    assert response.status_code == 403 and response.json() == {"error": "too often posts"}


def test_posts_size_throttle_counts_tags(settings, human):
    settings.STGY_HOURLY_POSTS_SIZE_LIMIT = 120
    client = login_client(human)
    # 10 characters + 2 tags * 50 = 110.
    assert client.post("/api/posts", {"content": "x" * 10, "tags": ["a", "b"]}, format="json").status_code == 201
    response = client.post("/api/posts", {"content": "x" * 11, "tags": []}, format="json")
    assert response.json() == {"error": "too often posts"}


def test_follow_and_profile_updates_share_a_throttle(settings, human):
    settings.STGY_HOURLY_USER_UPDATES_COUNT_LIMIT = 2
    a, b = make_user("A"), make_user("B")
    client = login_client(human)
    assert client.post(f"/api/users/{a.hex_id}/follow").status_code == 200
    assert client.put(f"/api/users/{human.hex_id}", {"nickname": "Al"}, format="json").status_code == 200
    response = client.post(f"/api/users/{b.hex_id}/follow")
    assert response.status_code == 403 and response.json() == {"error": "too often updates"}
    response = client.post(f"/api/users/{b.hex_id}/block")
    assert response.json() == {"error": "too often updates"}


def test_refused_actions_do_not_count(settings, human, follower):
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 1
    post = make_post(human, "no likes", allow_likes=False)
    client = login_client(follower)
    assert client.post(f"/api/posts/{post.hex_id}/like").status_code == 400
    assert client.post(f"/api/posts/{make_post(human, 'ok').hex_id}/like").status_code == 200


def test_throttles_are_per_user(settings, human, follower):
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 1
    post = make_post(human, "p")
    assert login_client(follower).post(f"/api/posts/{post.hex_id}/like").status_code == 200
    assert login_client(make_user("Other")).post(f"/api/posts/{post.hex_id}/like").status_code == 200


def test_ai_users_are_throttled_in_process(settings, human, ai_user):
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 1
    services.like_add(ai_user, make_post(human, "a").id)
    with pytest.raises(Throttled, match="too often likes"):
        services.like_add(ai_user, make_post(human, "b").id)


def test_admins_are_not_throttled(settings, admin, human):
    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 1
    client = login_client(admin)
    for i in range(3):
        assert client.post(f"/api/posts/{make_post(human, str(i)).hex_id}/like").status_code == 200


def test_vanished_bucket_does_not_fail_the_write(settings, human, monkeypatch):
    from django.core.cache import cache

    from sns.core import throttle

    settings.STGY_HOURLY_LIKES_COUNT_LIMIT = 1

    def lost(key, delta=1, version=None):
        raise ValueError(f"Key '{key}' not found.")

    monkeypatch.setattr(cache, "incr", lost)
    throttle.throttle_check(human, throttle.LIKES)  # counted despite the lost bucket
    with pytest.raises(Throttled):
        throttle.throttle_check(human, throttle.LIKES)


def test_the_window_sums_the_last_sixty_minutes_of_counts_and_sizes(settings, human):
    """Buckets of earlier minutes count while inside the hour, in both the count and the
    size window; a bucket just outside the hour does not."""
    settings.STGY_HOURLY_POSTS_COUNT_LIMIT = 4
    settings.STGY_HOURLY_POSTS_SIZE_LIMIT = 100
    base = f"throttle:{throttle.POSTS.kind}:{human.id}"
    for _ in range(3):  # again if the minute turned between writing and reading
        minute = int(time.time() // 60)
        keys = throttle._keys(throttle.POSTS, human.id, minute)
        (n_old, s_old), (n_mid, s_mid) = keys[0], keys[30]
        buckets = {n_old: 2, s_old: 50, n_mid: 1, s_mid: 30,
                   f"{base}:n:{minute - 60}": 100, f"{base}:s:{minute - 60}": 10_000}
        cache.set_many(buckets, 600)
        window = throttle._Window(throttle.POSTS, human.id)
        if int(time.time() // 60) == minute:
            break
        cache.delete_many(list(buckets))
    assert (window.done, window.size) == (3, 80)
    window.refuse_if_over(1, 20)
    with pytest.raises(Throttled):
        window.refuse_if_over(1, 21)
    with pytest.raises(Throttled):
        window.refuse_if_over(2)
