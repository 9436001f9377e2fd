"""Sign up, log in, log out and password change pages."""

from __future__ import annotations

import pytest

from sns.models import User
from tests.factories import PASSWORD, make_user
from tests.accounts.mailbox import code_sent_to, last_mail_to
from tests.web.account_steps import sign_up_on_the_pages
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def test_pages_need_a_session(page_client):
    client = page_client()
    for path in ("/users", "/notifications", "/settings", "/search", "/compose"):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/login?next=")


def test_sign_up_goes_through_the_mailed_code_and_logs_in(page_client):
    client = page_client()
    assert "/signup/code" not in text_of(client.get("/signup"))
    # No skipping ahead: the later steps send a person without a ticket back.
    assert client.get("/signup/code")["Location"] == "/signup"
    assert client.get("/signup/finish")["Location"] == "/signup"
    response = sign_up_on_the_pages(
        client, "Kenji@Example.com", nickname="  健二  ", password=PASSWORD,
        locale="ja_jp", timezone="Asia/Tokyo",
    )
    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get(email="kenji@example.com")
    # Normalised by the services, not by the page.
    assert (user.nickname, user.locale, user.timezone) == ("健二", "ja-JP", "Asia/Tokyo")
    assert "健二" in text_of(client.get("/"))


def test_a_wrong_code_is_said_and_the_account_waits(page_client):
    client = page_client()
    client.post("/signup", {"email": "wrong@example.com"})
    wrong = "111111" if code_sent_to("wrong@example.com") == "000000" else "000000"
    response = client.post("/signup/code", {"code": wrong}, follow=True)
    assert "Verification code mismatch." in text_of(response)
    assert client.get("/signup/finish").status_code == 200  # the ticket is still there...
    response = client.post("/signup/finish", {"nickname": "Wrong", "password": PASSWORD}, follow=True)
    # ...but the code was never right, so nothing is created.
    assert "Signup info not found or expired." in text_of(response)
    assert not User.objects.filter(email="wrong@example.com").exists()


def test_a_taken_address_looks_like_a_free_one_on_the_page(page_client, human):
    client = page_client()
    response = client.post("/signup", {"email": human.email})
    assert response.status_code == 302 and response["Location"] == "/signup/code"
    assert "already exists" in last_mail_to(human.email).body
    response = client.post("/signup/code", {"code": "123456"}, follow=True)
    assert "Verification code mismatch." in text_of(response)


def test_refused_finish_keeps_the_nickname_but_not_the_password(page_client):
    client = page_client()
    response = sign_up_on_the_pages(client, "x@example.com", nickname="Second Alice", password="short")
    assert response["Location"] == "/signup/finish"
    body = text_of(client.get("/signup/finish"))
    assert "too short" in body and 'value="Second Alice"' in body and 'value="short"' not in body
    assert not User.objects.filter(nickname="Second Alice").exists()
    response = client.post("/signup/finish", {"nickname": "Second Alice", "password": PASSWORD})
    assert response["Location"] == "/"


def test_forgot_password_from_the_login_page(page_client, human):
    client = page_client()
    assert "/password-reset" in text_of(client.get("/login"))
    response = client.post("/password-reset", {"email": human.email})
    assert response["Location"] == "/password-reset/code"
    code = code_sent_to(human.email)
    response = client.post(
        "/password-reset/code",
        {"code": code, "new_password": "a-new-long-secret", "new_password2": "a-new-long-secret"},
    )
    assert response.status_code == 302 and response["Location"] == "/login"
    human.refresh_from_db()
    assert human.check_password("a-new-long-secret")
    response = client.post("/login", {"email": human.email, "password": "a-new-long-secret"})
    assert response["Location"] == "/"


def test_forgot_password_for_an_unknown_address_reads_the_same(page_client):
    client = page_client()
    response = client.post("/password-reset", {"email": "nobody@example.com"})
    assert response["Location"] == "/password-reset/code"
    response = client.post(
        "/password-reset/code",
        {"code": "123456", "new_password": "a-new-long-secret", "new_password2": "a-new-long-secret"},
        follow=True,
    )
    assert "Mail verification code mismatch" in text_of(response)


def test_e_mail_change_from_the_settings_page(page_client, human):
    client = page_client(human)
    assert "/settings/email" in text_of(client.get("/settings"))
    response = client.post(
        "/settings/email", {"email": "alice.moved@example.com", "current_password": PASSWORD}
    )
    assert response["Location"] == "/settings/email/code"
    response = client.post("/settings/email/code", {"code": code_sent_to("alice.moved@example.com")})
    assert response["Location"] == "/settings"
    human.refresh_from_db()
    assert human.email == "alice.moved@example.com"
    assert "alice.moved@example.com" in text_of(client.get("/settings"))


def test_log_in_and_log_out(page_client, human):
    client = page_client()
    response = client.post(
        "/login", {"email": human.email.upper(), "password": PASSWORD, "next": "/users"}
    )
    assert response.status_code == 302 and response["Location"] == "/users"
    assert client.get("/").status_code == 200
    assert client.get("/logout").status_code == 405  # logging out is a POST
    client.post("/logout")
    assert "Create your account" in text_of(client.get("/"))  # the landing page


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
        follow=True,
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
