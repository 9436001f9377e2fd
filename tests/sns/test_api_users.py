"""GET/POST /users, GET/PUT/DELETE /users/{id}, /lite and /password."""

import pytest

from sns.models import User
from tests.conftest import PASSWORD, login_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()]


# ----------------------------------------------------------------------------- list


def test_list_orders_and_pages(human, follower, admin):
    client = login_client(human)
    everyone = sorted([human.hex_id, follower.hex_id, admin.hex_id])
    assert _ids(client.get("/api/users")) == everyone[::-1]
    assert _ids(client.get("/api/users?order=asc")) == everyone
    assert _ids(client.get("/api/users?order=asc&offset=1&limit=1")) == everyone[1:2]
    assert _ids(client.get(f"/api/users?order=asc&after={everyone[0]}")) == everyone[1:]
    assert client.get("/api/users?order=sideways").status_code == 400
    assert client.get(f"/api/users?offset=1&after={everyone[0]}").json() == {"error": "after requires offset=0"}


def test_list_limit_is_capped_for_non_admins(human, settings):
    settings.STGY_MAX_PAGE_LIMIT = 2
    for _ in range(3):
        make_user()
    assert len(login_client(human).get("/api/users?limit=50").json()) == 2


def test_social_order_puts_self_followees_then_followers(human, follower):
    followee = make_user("Carol")
    stranger = make_user("Dave")
    from sns import services

    services.follow_add(human, followee.id)
    client = login_client(follower)
    order = _ids(client.get(f"/api/users?order=social&focusUserId={human.hex_id}"))
    assert order == [human.hex_id, followee.hex_id, follower.hex_id, stranger.hex_id]
    # Without a focus user: by id, newest first.
    assert _ids(client.get("/api/users?order=social")) == sorted(order, reverse=True)
    assert client.get(f"/api/users?order=social&after={human.hex_id}").status_code == 400


def test_nickname_filters(human, follower):
    make_user("alicia")
    client = login_client(follower)
    assert _ids(client.get("/api/users?nickname=ALICE")) == [human.hex_id]
    assert len(client.get("/api/users?nicknamePrefix=ali").json()) == 2


def test_query_is_admin_only(human, admin):
    response = login_client(human).get("/api/users?query=ali")
    assert response.status_code == 403
    assert response.json() == {"error": "admin only"}
    assert _ids(login_client(admin).get("/api/users?query=ali")) == [human.hex_id]


def test_focus_flags(human, follower, blocked):
    rows = login_client(follower).get(f"/api/users?focusUserId={human.hex_id}").json()
    by_id = {r["id"]: r for r in rows}
    assert by_id[follower.hex_id]["isFollowingFocusUser"] is True
    assert by_id[follower.hex_id]["isFollowedByFocusUser"] is False
    assert by_id[blocked.hex_id]["isBlockedByFocusUser"] is True
    assert "isFollowingFocusUser" not in by_id[human.hex_id]


# ----------------------------------------------------------------------------- one user


def test_get_detail_and_lite(human, follower):
    client = login_client(follower)
    detail = client.get(f"/api/users/{human.hex_id}").json()
    assert detail["nickname"] == "Alice" and detail["countFollowers"] == 1
    assert set(detail) >= {"email", "locale", "timezone", "introduction", "aiPersonality", "snippet", "avatar"}
    lite = client.get(f"/api/users/{human.hex_id}/lite").json()
    assert "snippet" not in lite and "avatar" not in lite and lite["countFollowers"] == 1
    assert client.get("/api/users/00000000000000FF/lite").status_code == 404


# ----------------------------------------------------------------------------- create


def test_create_is_admin_only(human):
    body = {"email": "n@example.com", "nickname": "N", "password": "long-password-1"}
    response = login_client(human).post("/api/users", body, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "admin only"}


def test_admin_creates_ai_user_with_id(admin):
    body = {
        "id": "00000000000ABCDE",
        "email": "Bot@Example.com",
        "nickname": "Bot",
        "password": "long-password-1",
        "isAdmin": False,
        "blockStrangers": True,
        "locale": "ja_jp",
        "timezone": "Asia/Tokyo",
        "introduction": "I am **bot**",
        "avatar": "/a.png",
        "aiModel": "basic",
        "aiPersonality": "terse",
    }
    response = login_client(admin).post("/api/users", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["id"] == "00000000000ABCDE"
    user = User.objects.get(pk=0xABCDE)
    assert (user.email, user.locale, user.timezone) == ("bot@example.com", "ja-JP", "Asia/Tokyo")
    assert user.block_strangers and user.ai_model == "basic" and user.ai_personality == "terse"
    assert user.snippet == '[{"T":"p","C":[{"X":"I am "},{"T":"strong","X":"bot"}]}]'
    assert user.snippet_text == "I am bot" and user.avatar == "/a.png"
    assert user.check_password("long-password-1")


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"id": "00000000000abcde"}, "invalid id"),
        ({"id": "ABCDE"}, "invalid id"),
        ({"email": None}, "email is required"),
        ({"email": "not-an-email"}, "email is invalid"),
        ({"nickname": " "}, "nickname is required"),
        ({"password": ""}, "password required"),
        ({"aiModel": "genius"}, "aiModel must be one of advanced, balanced, basic"),
        ({"locale": "!!"}, "locale is invalid"),
        ({"timezone": "Mars/Olympus"}, "timezone is invalid"),
    ],
)
def test_create_validation(admin, patch, message):
    body = {"email": "v@example.com", "nickname": "V", "password": "long-password-1", **patch}
    response = login_client(admin).post("/api/users", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": message}


def test_create_duplicate_email(admin, human):
    body = {"email": human.email, "nickname": "V", "password": "long-password-1"}
    assert login_client(admin).post("/api/users", body, format="json").status_code == 400


# ----------------------------------------------------------------------------- update


def test_update_maps_camel_case_and_changes_only_present_keys(human):
    human.introduction = "keep me"
    human.save()
    body = {"nickname": "Alice B", "timezone": "Asia/Tokyo", "locale": "en_gb", "blockStrangers": True}
    response = login_client(human).put(f"/api/users/{human.hex_id}", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["nickname"] == "Alice B" and response.json()["blockStrangers"] is True
    human.refresh_from_db()
    assert (human.timezone, human.locale, human.introduction) == ("Asia/Tokyo", "en-GB", "keep me")
    assert human.updated_at is not None


def test_admin_updates_role_fields(admin, human):
    body = {"isAdmin": True, "isFrozen": True, "aiModel": "advanced", "aiPersonality": "calm", "email": "new@example.com"}
    response = login_client(admin).put(f"/api/users/{human.hex_id}", body, format="json")
    assert response.status_code == 200, response.content
    human.refresh_from_db()
    assert human.is_admin and human.is_frozen and human.ai_model == "advanced"
    assert human.ai_personality == "calm" and human.email == "new@example.com"


def test_changing_frozen_flag_ends_the_users_sessions(admin, human):
    client = login_client(human)
    assert client.get("/api/auth").status_code == 200
    login_client(admin).put(f"/api/users/{human.hex_id}", {"isFrozen": True}, format="json")
    assert client.get("/api/auth").status_code == 401


@pytest.mark.parametrize("field", ["isAdmin", "isFrozen", "aiModel"])
def test_non_admin_cannot_change_role_fields(human, field):
    value = "basic" if field == "aiModel" else True
    response = login_client(human).put(f"/api/users/{human.hex_id}", {field: value}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": f"forbidden to change {field}"}


def test_personality_only_for_ai_users(human, ai_user):
    response = login_client(human).put(f"/api/users/{human.hex_id}", {"aiPersonality": "x"}, format="json")
    assert response.status_code == 403
    response = login_client(ai_user).put(f"/api/users/{ai_user.hex_id}", {"aiPersonality": "new"}, format="json")
    assert response.status_code == 200
    ai_user.refresh_from_db()
    assert ai_user.ai_personality == "new"


def test_long_introduction_refused_for_non_admin(human, admin, settings):
    settings.STGY_INTRODUCTION_LENGTH_LIMIT = 10
    response = login_client(human).put(f"/api/users/{human.hex_id}", {"introduction": "x" * 11}, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": "introduction is too long"}
    response = login_client(admin).put(f"/api/users/{human.hex_id}", {"introduction": "x" * 11}, format="json")
    assert response.status_code == 200


def test_only_self_or_admin_updates(human, follower, admin):
    response = login_client(follower).put(f"/api/users/{human.hex_id}", {"nickname": "Hacked"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "forbidden"}
    assert login_client(admin).put("/api/users/00000000000000FF", {"nickname": "X"}, format="json").status_code == 404


# ----------------------------------------------------------------------------- password


def test_password_change_keeps_own_session(api, human):
    api.post("/api/auth", {"email": human.email, "password": PASSWORD}, format="json")
    response = api.put(f"/api/users/{human.hex_id}/password", {"password": "brand-new-secret"}, format="json")
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    assert api.get("/api/auth").status_code == 200
    human.refresh_from_db()
    assert human.check_password("brand-new-secret")


def test_password_errors(human, follower, admin):
    client = login_client(human)
    assert client.put(f"/api/users/{human.hex_id}/password", {}, format="json").json() == {"error": "password required"}
    response = login_client(follower).put(f"/api/users/{human.hex_id}/password", {"password": "x" * 12}, format="json")
    assert response.status_code == 403 and response.json() == {"error": "forbidden"}
    response = login_client(admin).put("/api/users/00000000000000FF/password", {"password": "x" * 12}, format="json")
    assert response.status_code == 404
    response = client.put(
        f"/api/users/{human.hex_id}/password", {"password": "short", "currentPassword": PASSWORD}, format="json"
    )
    assert response.status_code == 400
    assert login_client(admin).put(f"/api/users/{human.hex_id}/password", {"password": "admin-set-pass"}, format="json").status_code == 200


# ----------------------------------------------------------------------------- delete


def test_delete_self_ends_sessions_and_fixes_counters(human, follower):
    from sns import services

    services.follow_add(human, follower.id)
    client = login_client(human)
    response = client.delete(f"/api/users/{human.hex_id}")
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    assert client.get("/api/auth").status_code == 401
    follower.refresh_from_db()
    assert (follower.follower_count, follower.followee_count) == (0, 0)


def test_delete_rules(human, follower, admin):
    response = login_client(follower).delete(f"/api/users/{human.hex_id}")
    assert response.status_code == 403 and response.json() == {"error": "forbidden"}
    assert login_client(admin).delete("/api/users/00000000000000FF").status_code == 404
    assert login_client(admin).delete(f"/api/users/{human.hex_id}").status_code == 200
    assert not User.objects.filter(pk=human.id).exists()
