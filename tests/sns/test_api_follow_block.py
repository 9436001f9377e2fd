"""POST/DELETE /users/{id}/follow and /block, followees, followers, blockees."""

import pytest

from sns import services
from tests.conftest import login_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_follow_and_unfollow(human, follower):
    client = login_client(human)
    response = client.post(f"/api/users/{follower.hex_id}/follow")
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    follower.refresh_from_db()
    assert follower.follower_count == 1
    assert client.post(f"/api/users/{follower.hex_id}/follow").json() == {"error": "already following"}
    assert client.delete(f"/api/users/{follower.hex_id}/follow").json() == {"result": "ok"}
    response = client.delete(f"/api/users/{follower.hex_id}/follow")
    assert response.status_code == 404 and response.json() == {"error": "not followed"}
    follower.refresh_from_db()
    assert follower.follower_count == 0


def test_follow_errors(human):
    client = login_client(human)
    response = client.post(f"/api/users/{human.hex_id}/follow")
    assert response.status_code == 400 and response.json() == {"error": "cannot follow yourself"}
    assert client.post("/api/users/00000000000000FF/follow").status_code == 404


def test_block_and_unblock(human, follower):
    client = login_client(human)
    assert client.post(f"/api/users/{follower.hex_id}/block").json() == {"result": "ok"}
    assert client.post(f"/api/users/{follower.hex_id}/block").json() == {"error": "already blocked"}
    response = client.post(f"/api/users/{human.hex_id}/block")
    assert response.status_code == 400 and response.json() == {"error": "cannot block yourself"}
    # Blocking does not remove follows.
    follower.refresh_from_db()
    assert follower.followee_count == 1
    assert client.delete(f"/api/users/{follower.hex_id}/block").json() == {"result": "ok"}
    response = client.delete(f"/api/users/{follower.hex_id}/block")
    assert response.status_code == 404 and response.json() == {"error": "not blocked"}


def test_followees_and_followers_by_follow_time(human):
    fans = [make_user(f"fan{i}") for i in range(3)]
    for fan in fans:
        services.follow_add(fan, human.id)
        services.follow_add(human, fan.id)
    client = login_client(fans[0])
    hex_ids = [f.hex_id for f in fans]
    followers = client.get(f"/api/users/{human.hex_id}/followers").json()
    assert [r["id"] for r in followers] == hex_ids[::-1]
    followers = client.get(f"/api/users/{human.hex_id}/followers?order=asc&limit=2").json()
    assert [r["id"] for r in followers] == hex_ids[:2]
    followees = client.get(f"/api/users/{human.hex_id}/followees?order=asc").json()
    assert [r["id"] for r in followees] == hex_ids
    after = client.get(f"/api/users/{human.hex_id}/followees?order=asc&after={hex_ids[0]}").json()
    assert [r["id"] for r in after] == hex_ids[1:]
    focused = client.get(f"/api/users/{human.hex_id}/followees?focusUserId={human.hex_id}").json()
    assert all(r["isFollowedByFocusUser"] and r["isFollowingFocusUser"] for r in focused)


def test_followees_after_unknown_cursor_is_400(human, follower):
    response = login_client(human).get(f"/api/users/{follower.hex_id}/followees?after=00000000000000FF")
    assert response.status_code == 400


def test_blockees(human, blocked):
    rows = login_client(human).get(f"/api/users/{human.hex_id}/blockees").json()
    assert [r["id"] for r in rows] == [blocked.hex_id]


@pytest.mark.parametrize("action", ["follow", "block"])
def test_follow_block_need_login(api, human, action):
    assert api.post(f"/api/users/{human.hex_id}/{action}").status_code == 401
