"""Sign up, log in, log out and password change pages."""

from __future__ import annotations

import pytest

from sns.models import User
from tests.factories import PASSWORD, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def test_pages_need_a_session(page_client):
    client = page_client()
    for path in ("/", "/users", "/notifications", "/settings", "/search", "/compose"):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/login?next=")


def test_sign_up_creates_the_account_through_the_service_and_logs_in(page_client):
    client = page_client()
    response = client.post(
        "/signup",
        {
            "email": "Kenji@Example.com",
            "nickname": "  健二  ",
            "password": PASSWORD,
            "locale": "ja_jp",
            "timezone": "Asia/Tokyo",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get(email="kenji@example.com")
    # Normalised by user_signup, not by the page.
    assert (user.nickname, user.locale, user.timezone) == ("健二", "ja-JP", "Asia/Tokyo")
    home = client.get("/")
    assert "健二" in text_of(home)


def test_refused_sign_up_keeps_what_was_typed_except_the_password(page_client, human):
    client = page_client()
    response = client.post(
        "/signup",
        {"email": human.email, "nickname": "Second Alice", "password": PASSWORD},
        follow=True,
    )
    body = text_of(response)
    assert "email is already in use" in body
    assert 'value="Second Alice"' in body
    assert PASSWORD not in body
    assert User.objects.filter(nickname="Second Alice").count() == 0


def test_weak_password_message_comes_from_the_validators(page_client):
    response = page_client().post(
        "/signup", {"email": "x@example.com", "nickname": "X", "password": "short"}, follow=True
    )
    assert "too short" in text_of(response)


def test_log_in_and_log_out(page_client, human):
    client = page_client()
    response = client.post(
        "/login", {"email": human.email.upper(), "password": PASSWORD, "next": "/users"}
    )
    assert response.status_code == 302 and response["Location"] == "/users"
    assert client.get("/").status_code == 200
    assert client.get("/logout").status_code == 405  # logging out is a POST
    client.post("/logout")
    assert client.get("/").status_code == 302


def test_bad_password_is_refused_with_a_message(page_client, human):
    response = page_client().post(
        "/login", {"email": human.email, "password": "nope-nope-nope"}, follow=True
    )
    assert "not correct" in text_of(response)
    assert not response.context["user"].is_authenticated


def test_login_ignores_a_next_pointing_elsewhere(page_client, human):
    response = page_client().post(
        "/login", {"email": human.email, "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_login_is_rate_limited_like_the_api(page_client, human, settings):
    client = page_client()
    for _ in range(10):
        client.post("/login", {"email": human.email, "password": "wrong-wrong-wrong"})
    response = client.post("/login", {"email": human.email, "password": PASSWORD}, follow=True)
    assert "too many login attempts" in text_of(response)
    assert not response.context["user"].is_authenticated


def test_frozen_user_can_log_in(page_client):
    frozen = make_user("Ice", is_frozen=True)
    response = page_client().post("/login", {"email": frozen.email, "password": PASSWORD})
    assert response["Location"] == "/"


def test_password_change_needs_the_current_password_and_keeps_the_session(page_client, human):
    client = page_client(human)
    response = client.post(
        "/settings/password",
        {
            "current_password": "wrong",
            "new_password": "another-good-one",
            "new_password2": "another-good-one",
        },
    )
    assert response.status_code == 200 and "not correct" in text_of(response)

    response = client.post(
        "/settings/password",
        {
            "current_password": PASSWORD,
            "new_password": "another-good-one",
            "new_password2": "another-good-one",
        },
    )
    assert response.status_code == 302
    human.refresh_from_db()
    assert human.check_password("another-good-one")
    assert client.get("/").status_code == 200  # still logged in


def test_password_rules_are_the_services(page_client, human):
    response = page_client(human).post(
        "/settings/password",
        {"current_password": PASSWORD, "new_password": "password", "new_password2": "password"},
        follow=True,
    )
    assert "too common" in text_of(response)
