"""Every form of the pages: a refused submission shows the refusal beside the field it
concerns (aria-invalid, aria-describedby naming an element that exists) and keeps what
was typed, except passwords and mailed codes (docs/pages.md §1)."""

from __future__ import annotations

import pytest

from sns.models import Post, User
from tests.accounts.mailbox import code_sent_to
from tests.factories import PASSWORD, make_post, make_user
from tests.web.conftest import messages_of, text_of
from tests.web.field_check import field_error, field_value, read_page

pytestmark = pytest.mark.django_db

WEAK = "password"  # common: refused by the validators


def _not_echoed(response, secret: str) -> None:
    assert secret not in text_of(response)


# ----------------------------------------------------------------------------- log in and sign up


def test_login_refusal_keeps_the_address_and_says_so_beside_the_password(page_client, human):
    response = page_client().post(
        "/login", {"email": human.email, "password": "wrong-secret-42"}, follow=True
    )
    assert field_error(response, "password") == "The email or the password is not correct."
    assert field_value(response, "email") == human.email
    assert field_value(response, "password") == ""
    _not_echoed(response, "wrong-secret-42")
    assert messages_of(response) == []


def test_sign_up_address_refusal_is_beside_the_address(page_client):
    response = page_client().post("/signup", {"email": "no-at-sign", "locale": "", "timezone": ""}, follow=True)
    assert "mail" in field_error(response, "email").lower()
    assert field_value(response, "email") == "no-at-sign"


def _to_finish(client, email="step@example.com"):
    client.post("/signup", {"email": email, "locale": "", "timezone": ""})
    return client


def test_a_wrong_code_is_beside_the_code_field_and_not_echoed(page_client):
    client = _to_finish(page_client())
    response = client.post("/signup/code", {"code": "000000"}, follow=True)
    assert field_error(response, "code") == "Verification code mismatch."
    assert field_value(response, "code") == ""


def test_sign_up_finish_refusals(page_client):
    client = _to_finish(page_client())
    client.post("/signup/code", {"code": code_sent_to("step@example.com")})
    response = client.post("/signup/finish", {"nickname": "Step", "password": WEAK}, follow=True)
    assert "common" in field_error(response, "password")
    # The refused new password is not echoed; the nickname is kept.
    assert field_value(response, "nickname") == "Step" and field_value(response, "password") == ""
    response = client.post("/signup/finish", {"nickname": "n" * 51, "password": PASSWORD}, follow=True)
    assert field_error(response, "nickname") == "Nickname is too long"
    assert field_value(response, "nickname") == "n" * 51
    _not_echoed(response, PASSWORD)
    # The help text the password field points at is there too.
    control = read_page(response).controls["password"]
    assert control["aria-describedby"] == "id_password_helptext"
    assert not User.objects.filter(email="step@example.com").exists()


def test_password_reset_code_refusal(page_client, human):
    client = page_client()
    client.post("/password-reset", {"email": human.email})
    response = client.post(
        "/password-reset/code",
        {"code": "000000", "new_password": PASSWORD + "x", "new_password2": PASSWORD + "x"},
        follow=True,
    )
    assert "mismatch" in field_error(response, "code")
    _not_echoed(response, PASSWORD + "x")


# ----------------------------------------------------------------------------- settings


def test_password_change_refusals(page_client, human):
    client = page_client(human)
    # The rulebook's check of the current password (sns/reads/access.py), the API's too.
    response = client.post(
        "/settings/password",
        {"current_password": "nope-nope", "new_password": "x", "new_password2": "x"},
        follow=True,
    )
    assert field_error(response, "current_password") == "Current password is not correct"
    # The rulebook's refusal of the new password, after a redirect.
    response = client.post(
        "/settings/password",
        {"current_password": PASSWORD, "new_password": WEAK, "new_password2": WEAK},
        follow=True,
    )
    assert "common" in field_error(response, "new_password")
    assert field_value(response, "new_password") == ""
    human.refresh_from_db()
    assert human.check_password(PASSWORD)


def test_email_change_refusals(page_client, human):
    client = page_client(human)
    other = make_user("Other")
    response = client.post(
        "/settings/email", {"email": "nope", "current_password": PASSWORD}, follow=True
    )
    assert "mail" in field_error(response, "email").lower()
    assert field_value(response, "email") == "nope"
    client.post("/settings/email", {"email": "new@example.com", "current_password": PASSWORD})
    response = client.post("/settings/email/code", {"code": "000000"}, follow=True)
    assert field_error(response, "code") == "Verification code mismatch."
    assert other.email != human.email


def test_profile_refusal_names_the_field(page_client, human):
    response = page_client(human).post(
        "/settings",
        {"nickname": "", "introduction": "keep", "locale": "en-US", "timezone": "UTC"},
        follow=True,
    )
    # The empty nickname is refused by the form itself, beside the field.
    assert field_error(response, "nickname")
    assert field_value(response, "introduction") == "keep"


def test_public_site_refusal_names_the_sidebar_field(page_client, human):
    from tests.web.test_publication_pages import _form

    response = page_client(human).post(
        "/publications/update", {**_form(), "show_side_popular": "many", "from": "settings", "next": "/settings"}, follow=True
    )
    assert response.request["PATH_INFO"] == "/settings"
    assert field_error(response, "show_side_popular") == "Invalid sidebar count"
    assert field_value(response, "show_side_popular") == "many"


# ----------------------------------------------------------------------------- posts, replies, messages


def test_compose_content_too_long(page_client, human, settings):
    settings.STGY_CONTENT_LENGTH_LIMIT = 10
    response = page_client(human).post(
        "/compose", {"content": "x" * 11, "tags": "a", "locale": "en-US", "next": "/"}, follow=True
    )
    assert field_error(response, "content") == "Post is too long"
    assert field_value(response, "content") == "x" * 11
    assert not Post.objects.exists()


def test_edit_refusal_keeps_the_edit(page_client, human, settings):
    post = make_post(human, "before")
    settings.STGY_CONTENT_LENGTH_LIMIT = 10
    url = f"/posts/{post.hex_id}/edit"
    response = page_client(human).post(url, {"content": "after" * 5, "tags": "", "locale": "xx_!"}, follow=True)
    assert response.request["PATH_INFO"] == url
    assert field_error(response, "content") == "Post is too long"
    assert field_value(response, "content") == "after" * 5
    post.refresh_from_db()
    assert post.content == "before"


def test_edit_refusal_of_the_language(page_client, human):
    post = make_post(human, "before")
    url = f"/posts/{post.hex_id}/edit"
    response = page_client(human).post(url, {"content": "after", "tags": "", "locale": "!!"}, follow=True)
    assert field_error(response, "locale") == "Language is invalid"
    assert field_value(response, "locale") == "!!" and field_value(response, "content") == "after"


def test_reply_refusals_are_beside_the_reply_box(page_client, human, settings):
    post = make_post(human, "a post")
    client = page_client(human)
    url = f"/posts/{post.hex_id}"
    response = client.post(f"{url}/reply", {"content": ""}, follow=True)
    assert response.request["PATH_INFO"] == url
    assert field_error(response, "content") == "This field is required."
    settings.STGY_CONTENT_LENGTH_LIMIT = 10
    response = client.post(f"{url}/reply", {"content": "y" * 11, "next": url}, follow=True)
    assert field_error(response, "content") == "Reply is too long"
    assert field_value(response, "content") == "y" * 11
    assert Post.objects.count() == 1


def test_message_too_long_is_beside_the_box(page_client, human, settings):
    peer = make_user("Peer")
    settings.STGY_MESSAGE_LENGTH_LIMIT = 10
    url = f"/messages/{peer.hex_id}"
    response = page_client(human).post(url, {"content": "z" * 11}, follow=True)
    assert field_error(response, "content") == "Message is too long"
    assert field_value(response, "content") == "z" * 11
    # The help text is still one of the descriptions, and exists.
    ids = read_page(response).controls["content"]["aria-describedby"].split()
    assert "id_content_helptext" in ids


def test_an_error_of_no_field_stays_a_banner_and_keeps_the_text(page_client, human, follower, settings):
    # The hourly throttle refuses the reply: the refusal concerns no field.
    settings.STGY_HOURLY_POSTS_COUNT_LIMIT = 1
    post = make_post(human, "mine")
    make_post(follower, "the hour's one post")
    response = page_client(follower).post(
        f"/posts/{post.hex_id}/reply", {"content": "kept reply", "next": f"/posts/{post.hex_id}"}, follow=True
    )
    assert messages_of(response) and "too often" in messages_of(response)[0]
    page = read_page(response)
    assert page.controls["content"].get("aria-invalid") is None
    assert field_value(response, "content") == "kept reply"


def test_an_error_of_a_hidden_field_is_a_banner(page_client):
    # The sign-up form's language is filled in by the browser, in a hidden field.
    response = page_client().post(
        "/signup", {"email": "fine@example.com", "locale": "!!bad!!", "timezone": ""}, follow=True
    )
    assert any("locale" in m.lower() or "language" in m.lower() for m in messages_of(response))
    assert field_value(response, "email") == "fine@example.com"
