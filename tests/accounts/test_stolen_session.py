"""A stolen session is not a takeover: a person's e-mail address changes only through the
code mailed to the new address, and their password only with the current one or from a
session that logged in within the last minutes (docs/accounts.md §2 and §6). What the
original's frontend sends keeps working, and so do admins' scripts."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import timezone

from sns.core.isotime import iso
from sns.models import User
from tests.accounts.mailbox import code_sent_to
from tests.clients import APIClient
from tests.conftest import login_client
from tests.factories import PASSWORD, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "an-entirely-new-secret"


def api_login(user) -> APIClient:
    """Logged in the way the original's frontend does it, POST /api/auth."""
    client = APIClient()
    response = client.post("/api/auth", {"email": user.email, "password": PASSWORD}, format="json")
    assert response.status_code == 200
    return client


def age_the_login(client, minutes: int) -> None:
    """Move the session's login `minutes` into the past (a session stolen later)."""
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    store["logged_in_at"] = iso(timezone.now() - timedelta(minutes=minutes))
    store.save()


def put_password(client, user, body: dict):
    return client.put(f"/api/users/{user.hex_id}/password", body, format="json")


# ----------------------------------------------------------------------------- e-mail


def test_a_person_cannot_move_their_account_to_another_address_with_put(human):
    other = make_user("Bob")
    before = human.email
    client = login_client(human)
    for address in ("thief@example.com", other.email):  # free and taken alike
        response = client.put(f"/api/users/{human.hex_id}", {"email": address}, format="json")
        assert response.status_code == 403
        assert response.json() == {
            "error": "forbidden to change email without verification: "
            "use /users/{id}/email/start and /email/verify"
        }
    human.refresh_from_db()
    assert human.email == before


def test_the_unchanged_address_is_still_accepted_with_a_profile_save(human):
    before = human.email
    client = login_client(human)
    body = {"email": before.upper(), "nickname": "Alice B", "introduction": "hi"}
    response = client.put(f"/api/users/{human.hex_id}", body, format="json")
    assert response.status_code == 200, response.json()
    human.refresh_from_db()
    assert human.nickname == "Alice B" and human.email == before


def test_the_verified_flow_still_changes_the_address(human):
    client = api_login(human)  # right after logging in, as the frontend does it
    response = client.post(
        f"/api/users/{human.hex_id}/email/start", {"email": "alice@new.example.com"}, format="json"
    )
    assert response.status_code == 201
    ticket = response.json()["updateEmailId"]
    response = client.post(
        f"/api/users/{human.hex_id}/email/verify",
        {"updateEmailId": ticket, "verificationCode": code_sent_to("alice@new.example.com")},
        format="json",
    )
    assert response.status_code == 200
    human.refresh_from_db()
    assert human.email == "alice@new.example.com"


def test_a_stolen_session_cannot_start_moving_the_account_to_the_thiefs_mailbox(human):
    """The verified flow proves the new mailbox, not the account: the start needs the
    same proof as a password change."""
    client = api_login(human)
    age_the_login(client, 11)
    url = f"/api/users/{human.hex_id}/email/start"
    response = client.post(url, {"email": "thief@example.com"}, format="json")
    assert response.status_code == 403
    assert response.json() == {
        "error": "currentPassword is needed, or a login within the last 10 minutes"
    }
    response = client.post(url, {"email": "thief@example.com", "currentPassword": "guess"}, format="json")
    assert response.status_code == 403
    assert not mail.outbox
    body = {"email": "alice@new.example.com", "currentPassword": PASSWORD}
    assert client.post(url, body, format="json").status_code == 201


def test_the_e_mail_page_holds_to_the_same_rule(human):
    client = Client()
    client.post("/login", {"email": human.email, "password": PASSWORD})
    age_the_login(client, 11)
    response = client.post(  # as a browser sends the form, the empty field included
        "/settings/email", {"email": "thief@example.com", "current_password": ""}, follow=True
    )
    assert "Current password is needed" in text_of(response)
    response = client.post(
        "/settings/email", {"email": "alice@new.example.com", "current_password": PASSWORD}
    )
    assert response["Location"] == "/settings/email/code"


def test_admins_change_other_peoples_addresses_with_put_as_before(admin, human):
    client = login_client(admin)
    response = client.put(f"/api/users/{human.hex_id}", {"email": "a2@example.com"}, format="json")
    assert response.status_code == 200
    response = client.put(f"/api/users/{human.hex_id}", {"email": admin.email}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "email is already in use"}
    # Their own goes through the code like anyone's; the unchanged one is accepted.
    response = client.put(f"/api/users/{admin.hex_id}", {"email": "root2@example.com"}, format="json")
    assert response.status_code == 403
    response = client.put(f"/api/users/{admin.hex_id}", {"email": admin.email}, format="json")
    assert response.status_code == 200
    assert set(User.objects.values_list("email", flat=True)) == {"a2@example.com", admin.email}


# ----------------------------------------------------------------------------- password


def test_the_frontend_changes_the_password_right_after_logging_in(human):
    client = api_login(human)
    response = put_password(client, human, {"password": NEW_PASSWORD})  # all it sends
    assert response.status_code == 200
    human.refresh_from_db()
    assert human.check_password(NEW_PASSWORD)


def test_a_session_logged_in_long_ago_needs_the_current_password(human):
    client = api_login(human)
    age_the_login(client, 11)
    response = put_password(client, human, {"password": NEW_PASSWORD})
    assert response.status_code == 403
    assert response.json() == {
        "error": "currentPassword is needed, or a login within the last 10 minutes"
    }
    response = put_password(client, human, {"password": NEW_PASSWORD, "currentPassword": "guess-1"})
    assert response.status_code == 403
    assert response.json() == {"error": "currentPassword is not correct"}
    human.refresh_from_db()
    assert human.check_password(PASSWORD)

    response = put_password(client, human, {"password": NEW_PASSWORD, "currentPassword": PASSWORD})
    assert response.status_code == 200
    human.refresh_from_db()
    assert human.check_password(NEW_PASSWORD)
    assert client.get("/api/auth").status_code == 200  # the changer's session is kept


def test_a_session_without_a_login_time_needs_the_current_password(human):
    response = put_password(login_client(human), human, {"password": NEW_PASSWORD})
    assert response.status_code == 403


def test_the_window_is_a_setting(settings, human):
    settings.STGY_PASSWORD_CHANGE_RECENT_LOGIN_SECONDS = 3600
    client = api_login(human)
    age_the_login(client, 30)
    assert put_password(client, human, {"password": NEW_PASSWORD}).status_code == 200


def test_guesses_of_the_current_password_are_throttled(settings, human):
    settings.STGY_HOURLY_USER_UPDATES_COUNT_LIMIT = 3
    client = login_client(human)
    statuses = [
        put_password(client, human, {"password": NEW_PASSWORD, "currentPassword": f"guess-{n}"})
        for n in range(4)
    ]
    assert [r.status_code for r in statuses] == [403, 403, 403, 403]
    assert statuses[-1].json() == {"error": "too often updates"}


def test_admins_set_other_peoples_passwords_without_either(admin, human):
    client = login_client(admin)  # no login time at all
    assert put_password(client, human, {"password": "admin-set"}).status_code == 200
    human.refresh_from_db()
    assert human.check_password("admin-set")
    # Their own is theirs like anyone's.
    assert put_password(client, admin, {"password": NEW_PASSWORD}).status_code == 403


def test_the_page_holds_to_the_same_rule(human):
    client = Client()
    client.post("/login", {"email": human.email, "password": PASSWORD})
    form = {"current_password": "", "new_password": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    age_the_login(client, 11)
    response = client.post("/settings/password", form, follow=True)
    assert "Current password is needed, or a login within the last 10 minutes" in text_of(response)
    human.refresh_from_db()
    assert human.check_password(PASSWORD)

    client.post("/logout")
    client.post("/login", {"email": human.email, "password": PASSWORD})
    response = client.post("/settings/password", form)
    assert response.status_code == 302
    human.refresh_from_db()
    assert human.check_password(NEW_PASSWORD)


def test_the_admin_site_holds_an_admin_to_it_for_their_own_password(admin):
    client = Client()
    client.force_login(admin)  # a session with no login time
    data = {
        "email": admin.email, "nickname": admin.nickname, "introduction": "", "avatar": "",
        "locale": admin.locale, "timezone": admin.timezone, "ai_model": "", "ai_personality": "",
        "is_admin": "on", "new_password": NEW_PASSWORD,
    }
    response = client.post(f"/admin/sns/user/{admin.id}/change/", data)
    assert response.status_code == 200
    assert "currentPassword is needed" in text_of(response)
    admin.refresh_from_db()
    assert admin.check_password(PASSWORD)
