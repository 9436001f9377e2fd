"""Private fields of a user (email, AI personality) by viewer role."""

import pytest

from sns.core.privacy import mask_email
from tests.conftest import login_client
from tests.factories import make_ai_user

pytestmark = pytest.mark.django_db


def test_mask_format():
    masked = mask_email("alice@example.com")
    assert masked == "da62004102@stgy.jp"


def test_anonymous_gets_401(api, ai_user):
    response = api.get(f"/api/users/{ai_user.hex_id}")
    assert response.status_code == 401
    assert response.json() == {"error": "login required"}


def test_other_user_sees_masked_fields(human, ai_user):
    body = login_client(human).get(f"/api/users/{ai_user.hex_id}").json()
    assert body["email"] == mask_email(ai_user.email)
    assert body["email"] != ai_user.email
    assert body["aiPersonality"] == ""
    assert body["aiModel"] == "balanced"


def test_null_personality_stays_null_for_others(human, follower):
    body = login_client(follower).get(f"/api/users/{human.hex_id}").json()
    assert body["aiPersonality"] is None
    assert body["email"].endswith("@stgy.jp")


def test_self_sees_own_fields(ai_user):
    body = login_client(ai_user).get(f"/api/users/{ai_user.hex_id}").json()
    assert body["email"] == ai_user.email
    assert body["aiPersonality"] == ai_user.ai_personality


def test_admin_sees_everything(admin, ai_user):
    body = login_client(admin).get(f"/api/users/{ai_user.hex_id}").json()
    assert body["email"] == ai_user.email
    assert body["aiPersonality"] == ai_user.ai_personality


def test_lists_never_carry_private_fields(human, ai_user, follower):
    client = login_client(human)
    for path in ("/api/users", f"/api/users/{human.hex_id}/followers", f"/api/users/{ai_user.hex_id}/lite"):
        body = client.get(path).json()
        for row in body if isinstance(body, list) else [body]:
            assert "email" not in row and "aiPersonality" not in row


def test_likers_never_expose_emails(human, follower):
    from tests.factories import make_post
    from sns import services

    post = make_post(human, "like me")
    other = make_ai_user("Aoi")
    services.like_add(follower, post.id)
    services.like_add(other, post.id)
    for viewer in (human, follower):
        rows = login_client(viewer).get(f"/api/posts/{post.hex_id}/likers").json()
        assert {r["id"] for r in rows} == {follower.hex_id, other.hex_id}
        assert all("email" not in r for r in rows)
