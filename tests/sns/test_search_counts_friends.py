"""GET /posts/count, /users/count (admin only) and /users/friends/by-nickname-prefix."""

import pytest

from sns import services
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _count(client, path, **params):
    response = client.get(path, params)
    assert response.status_code == 200, response.content
    return response.json()["count"]


def test_posts_count_with_each_filter(admin, human, follower):
    root = make_post(human, "Kimchi root", tags=["food"])
    make_post(human, "Kimchi reply", tags=["food"], reply_to=root.id)
    make_post(follower, "Other thing")
    client = login_client(admin)
    assert _count(client, "/api/posts/count") == 3
    assert _count(client, "/api/posts/count", query=" kimchi ") == 2
    assert _count(client, "/api/posts/count", ownedBy=human.hex_id) == 2
    assert _count(client, "/api/posts/count", tag="food") == 2
    assert _count(client, "/api/posts/count", tag="food", replyTo="") == 1
    assert _count(client, "/api/posts/count", replyTo="*") == 1
    assert _count(client, "/api/posts/count", replyTo=root.hex_id) == 1


def test_users_count_by_the_first_filter_given(admin, human, follower):
    make_user("Alicia", introduction="likes tea")
    client = login_client(admin)
    total = _count(client, "/api/users/count")
    assert total == 4  # Root, Alice, Bob, Alicia
    assert _count(client, "/api/users/count", query="tea") == 1
    assert _count(client, "/api/users/count", nickname="alice") == 1
    assert _count(client, "/api/users/count", nicknamePrefix="ali") == 2
    assert _count(client, "/api/users/count", query="tea", nickname="bob") == 1  # query wins


@pytest.mark.parametrize("path", ["/api/posts/count", "/api/users/count"])
def test_counts_are_for_admins_only(human, path):
    response = login_client(human).get(path)
    assert (response.status_code, response.json()) == (403, {"error": "admin only"})


def test_posts_count_bad_ids(admin):
    client = login_client(admin)
    assert client.get("/api/posts/count", {"ownedBy": "zz"}).json() == {"error": "invalid ownedBy"}
    assert client.get("/api/posts/count", {"replyTo": "zz"}).json() == {"error": "invalid replyTo"}


@pytest.fixture
def circle(human):
    """Alice follows Anna and Zed; Amy and Ann are strangers to her."""
    anna, zed, amy, ann = (make_user(n) for n in ("anna", "Zed", "Amy", "Ann"))
    for friend in (anna, zed):
        services.follow_add(human, friend.id)
    return {"anna": anna, "zed": zed, "amy": amy, "ann": ann}


def _names(response):
    assert response.status_code == 200, response.content
    return [u["nickname"] for u in response.json()]


def test_self_then_followees_then_others_by_nickname(human, circle):
    client = login_client(human)
    path = "/api/users/friends/by-nickname-prefix"
    assert _names(client.get(path, {"nicknamePrefix": "A"})) == ["Alice", "anna", "Amy", "Ann"]
    assert _names(client.get(path, {"nicknamePrefix": "a", "omitSelf": "true"})) == ["anna", "Amy", "Ann"]
    assert _names(client.get(path, {"nicknamePrefix": "a", "omitOthers": "true"})) == ["Alice", "anna"]
    assert _names(client.get(path, {"nicknamePrefix": "a", "offset": 1, "limit": 2})) == ["anna", "Amy"]
    assert _names(client.get(path, {"nicknamePrefix": "z"})) == ["Zed"]
    everyone = _names(client.get(path))
    assert everyone[:3] == ["Alice", "anna", "Zed"]
    row = client.get(path, {"nicknamePrefix": "zed"}).json()[0]
    assert row["countFollowers"] == 1 and "snippet" in row


def test_another_focus_user(human, circle):
    anna = circle["anna"]
    services.follow_add(anna, circle["zed"].id)
    path = "/api/users/friends/by-nickname-prefix"
    names = _names(login_client(human).get(path, {"focusUserId": anna.hex_id, "nicknamePrefix": "z"}))
    assert names == ["Zed"]
    names = _names(login_client(human).get(path, {"focusUserId": anna.hex_id}))
    assert names[:2] == ["anna", "Zed"]


def test_friends_bad_input_and_login(api, human):
    path = "/api/users/friends/by-nickname-prefix"
    assert api.get(path).status_code == 401
    client = login_client(human)
    assert client.get(path, {"focusUserId": "zz"}).json() == {"error": "invalid focusUserId"}
    assert client.get(path, {"limit": "x"}).json() == {"error": "invalid limit"}
    assert client.get(path, {"nicknamePrefix": "%"}).json() == []  # a literal %, not a wildcard


def test_friends_at_the_largest_offset_is_an_empty_page(human, circle):
    # Found by tests/sns/test_api_fuzz.py: offset + limit past 2^63-1 overflowed the SQL
    # LIMIT (a 500).
    path = "/api/users/friends/by-nickname-prefix"
    response = login_client(human).get(path, {"offset": (1 << 63) - 1, "limit": 540})
    assert _names(response) == []
