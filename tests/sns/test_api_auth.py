"""POST/GET/DELETE /api/auth, login throttling and /api/auth/switch-user."""

import pytest

from tests.clients import APIClient
from tests.conftest import PASSWORD, login_client

pytestmark = pytest.mark.django_db


def _login(client, user, password=PASSWORD):
    return client.post("/api/auth", {"email": user.email, "password": password}, format="json")


def test_login_sets_strict_httponly_cookie_and_session_info(api, human):
    response = _login(api, human)
    assert response.status_code == 200
    cookie = response.cookies["session_id"]
    assert cookie.value == response.json()["sessionId"]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Strict"
    assert cookie["path"] == "/"

    info = api.get("/api/auth").json()
    assert info["userId"] == human.hex_id
    assert info["userEmail"] == human.email
    assert info["userNickname"] == "Alice"
    assert info["userIsAdmin"] is False and info["userIsFrozen"] is False
    assert info["loggedInAt"].endswith("Z")
    assert set(info) >= {"userCreatedAt", "userUpdatedAt", "userLocale", "userTimezone", "requiredAgreementTermId"}


def test_login_email_is_case_insensitive(api, human):
    response = api.post("/api/auth", {"email": human.email.upper(), "password": PASSWORD}, format="json")
    assert response.status_code == 200


@pytest.mark.parametrize("body", [{}, {"email": "a@example.com"}, {"password": "x"}])
def test_login_needs_email_and_password(api, body):
    response = api.post("/api/auth", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": "email and password are needed"}


def test_login_bad_password_or_unknown_email_is_401(api, human):
    assert _login(api, human, "wrong-password").json() == {"error": "authentication failed"}
    response = api.post("/api/auth", {"email": "nobody@example.com", "password": "x" * 10}, format="json")
    assert response.status_code == 401


def test_frozen_user_can_log_in(api, human):
    human.is_frozen = True
    human.save()
    assert _login(api, human).status_code == 200
    assert api.get("/api/auth").json()["userIsFrozen"] is True


def test_get_auth_without_session(api):
    response = api.get("/api/auth")
    assert response.status_code == 401
    assert response.json() == {"error": "no session ID"}
    api.cookies["session_id"] = "0" * 64
    assert api.get("/api/auth").json() == {"error": "no matching session"}


def test_logout_ends_session_and_is_idempotent(api, human):
    _login(api, human)
    response = api.delete("/api/auth")
    assert response.status_code == 200 and response.json() == {"result": "ok"}
    assert api.get("/api/auth").status_code == 401
    assert api.get("/api/posts").status_code == 401
    assert api.delete("/api/auth").status_code == 200


def test_login_is_throttled(api, human, settings):
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {"login": "2/min"}
    settings.REST_FRAMEWORK = rest
    assert _login(api, human, "wrong-password").status_code == 401
    assert _login(api, human).status_code == 200
    response = _login(api, human)
    assert response.status_code == 429
    assert "error" in response.json()


# --------------------------------------------------------------------- switch-user


def test_switch_user_is_admin_only(human, follower):
    response = login_client(human).post("/api/auth/switch-user", {"id": follower.hex_id}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "admin only"}


def test_switch_user_anonymous_is_admin_only(api, human):
    response = api.post("/api/auth/switch-user", {"id": human.hex_id}, format="json")
    assert response.status_code == 403
    assert response.json() == {"error": "admin only"}


def test_switch_user_gives_new_session_and_keeps_admins(api, admin, ai_user):
    _login(api, admin)
    admin_cookie = api.cookies["session_id"].value
    response = api.post("/api/auth/switch-user", {"id": f"  {ai_user.hex_id} "}, format="json")
    assert response.status_code == 200
    new_session = response.json()["sessionId"]
    assert new_session != admin_cookie
    assert response.cookies["session_id"].value == new_session

    # The client now carries the target's session and can act as the target.
    assert api.get("/api/auth").json()["userId"] == ai_user.hex_id
    created = api.post("/api/posts", {"content": "as the AI user", "tags": []}, format="json")
    assert created.status_code == 201
    assert created.json()["ownedBy"] == ai_user.hex_id

    # The admin's own session still works.
    admin_client = APIClient()
    admin_client.cookies["session_id"] = admin_cookie
    assert admin_client.get("/api/auth").json()["userId"] == admin.hex_id


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({}, 400, "id is required"),
        ({"id": "  "}, 400, "id is required"),
        ({"id": "not-hex"}, 400, "invalid id"),
        ({"id": "00000000000000FF"}, 404, "user not found"),
    ],
)
def test_switch_user_errors(admin, body, status, message):
    response = login_client(admin).post("/api/auth/switch-user", body, format="json")
    assert response.status_code == status
    assert response.json() == {"error": message}


def test_switching_again_ends_the_previous_switched_session(admin, ai_user):
    client = login_client(admin)
    first = client.post("/api/auth/switch-user", {"id": ai_user.hex_id}, format="json").json()["sessionId"]
    old = APIClient()
    old.cookies["session_id"] = first
    assert old.get("/api/auth").status_code == 200

    client = login_client(admin)
    second = client.post("/api/auth/switch-user", {"id": ai_user.hex_id}, format="json").json()["sessionId"]
    assert second != first
    assert old.get("/api/auth").status_code == 401
    assert client.get("/api/auth").json()["userId"] == ai_user.hex_id
