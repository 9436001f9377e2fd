"""Authentication from the session alone (sns/auth/session.py): the session's user is
built from a small auth record, and every change that must end or alter sessions —
password, freeze, role, locale, deletion, logout — is seen on the very next request,
with the record read from the database each time (TTL 0) or kept in the cache."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from sns import services
from sns.models import User
from tests.clients import APIClient
from tests.conftest import PASSWORD
from tests.factories import make_post

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[0, 300], ids=["from-database", "cached"])
def ttl(request, settings):
    settings.STGY_AUTH_RECORD_TTL = request.param
    return request.param


def _logged_in(user, password=PASSWORD) -> APIClient:
    client = APIClient()
    response = client.post("/api/auth", {"email": user.email, "password": password}, format="json")
    assert response.status_code == 200
    assert client.get("/api/auth").status_code == 200  # the record is read (and cached)
    return client


def _can_write(client) -> int:
    return client.post("/api/posts", {"content": "hello", "tags": []}, format="json").status_code


def test_freezing_stops_the_writes_of_an_existing_session(ttl, human, admin):
    client = _logged_in(human)
    assert _can_write(client) == 201
    services.user_update(admin, human.id, is_frozen=True)
    # The flag is folded into the session hash: the session ends, and a new login
    # gives a session that may read but not write.
    assert client.get("/api/auth").status_code == 401
    again = _logged_in(human)
    assert again.get("/api/auth").json()["userIsFrozen"] is True
    assert _can_write(again) == 403


def test_a_password_change_ends_the_other_sessions_and_keeps_the_callers(ttl, human):
    mine, other = _logged_in(human), _logged_in(human)
    response = mine.put(f"/api/users/{human.hex_id}/password", {"password": "a-new-long-one"}, format="json")
    assert response.status_code == 200
    assert mine.get("/api/auth").status_code == 200
    assert other.get("/api/auth").status_code == 401
    assert _logged_in(human, "a-new-long-one").get("/api/auth").status_code == 200


def test_a_password_set_by_an_admin_ends_every_session_of_the_user(ttl, human, admin):
    client = _logged_in(human)
    admin_client = _logged_in(admin)
    response = admin_client.put(f"/api/users/{human.hex_id}/password", {"password": "x"}, format="json")
    assert response.status_code == 200
    assert client.get("/api/auth").status_code == 401
    assert admin_client.get("/api/auth").status_code == 200


def test_a_role_change_ends_the_sessions_and_the_new_role_holds(ttl, human, admin):
    client = _logged_in(human)
    assert client.get("/api/auth").json()["userIsAdmin"] is False
    services.user_update(admin, human.id, is_admin=True)
    assert client.get("/api/auth").status_code == 401
    assert _logged_in(human).get("/api/auth").json()["userIsAdmin"] is True


def test_a_locale_change_is_seen_by_the_next_request(ttl, human):
    client = _logged_in(human)
    assert client.put(f"/api/users/{human.hex_id}", {"locale": "ja-JP"}, format="json").status_code == 200
    assert client.get("/api/auth").json()["userLocale"] == "ja-JP"


def test_a_nickname_and_time_zone_change_are_seen_by_the_next_page(ttl, human):
    # Both are in the auth record: the header shows them without loading the row.
    page = Client()
    page.force_login(human)
    assert page.get("/").status_code == 200
    api = _logged_in(human)
    body = {"nickname": "Renamed Human", "timezone": "Asia/Tokyo"}
    assert api.put(f"/api/users/{human.hex_id}", body, format="json").status_code == 200
    html = page.get("/").content.decode()
    assert 'title="Renamed Human">Renamed Human</a>' in html
    assert page.get("/").wsgi_request.user.timezone == "Asia/Tokyo"


def test_a_deleted_user_has_no_session(ttl, human):
    client = _logged_in(human)
    services.user_delete(human, human.id)
    assert client.get("/api/auth").status_code == 401


def test_logout_ends_only_that_session(ttl, human):
    first, second = _logged_in(human), _logged_in(human)
    assert first.delete("/api/auth").status_code == 200
    assert first.get("/api/auth").status_code == 401
    assert second.get("/api/auth").status_code == 200


def test_a_password_reset_ends_every_session(ttl, human):
    client = _logged_in(human)
    # The reset's own path (mailed codes) is tests/accounts'; its service is what ends sessions.
    from sns.services.accounts import password_reset_start, password_reset_verify
    from tests.accounts.mailbox import code_sent_to

    row, web_code = password_reset_start(email=human.email)
    password_reset_verify(
        email=human.email,
        reset_password_id=str(row.id),
        web_code=web_code,
        mail_code=code_sent_to(human.email),
        new_password="a-brand-new-one",
    )
    assert client.get("/api/auth").status_code == 401


def test_a_hot_read_does_not_load_the_user_row(settings, human):
    settings.STGY_AUTH_RECORD_TTL = 300
    client = _logged_in(human)
    make_post(human, "one")
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/posts?limit=20").status_code == 200
    user_reads = [q["sql"] for q in queries if 'FROM "sns_user"' in q["sql"] and "password" in q["sql"]]
    assert user_reads == []


def test_the_deferred_columns_load_in_one_statement(settings, human):
    settings.STGY_AUTH_RECORD_TTL = 300
    client = _logged_in(human)
    with CaptureQueriesContext(connection) as queries:
        info = client.get("/api/auth").json()
    assert info["userEmail"] == human.email and info["userNickname"] == human.nickname
    assert len([q for q in queries if 'FROM "sns_user"' in q["sql"]]) == 1


def test_the_login_page_stamps_the_login_time_like_the_api(human):
    client = Client()
    assert client.post("/login", {"email": human.email, "password": PASSWORD}).status_code == 302
    assert client.session.get("logged_in_at")
    api = APIClient()
    api.cookies = client.cookies
    assert api.get("/api/auth").json()["loggedInAt"] == client.session["logged_in_at"]


def test_the_password_page_keeps_the_session_and_ends_the_others(human):
    page = Client()
    assert page.post("/login", {"email": human.email, "password": PASSWORD}).status_code == 302
    other = _logged_in(human)
    response = page.post(
        "/settings/password",
        {"current_password": PASSWORD, "new_password": "another-good-one", "new_password2": "another-good-one"},
    )
    assert response.status_code == 302
    assert page.get("/").status_code == 200
    assert other.get("/api/auth").status_code == 401
    assert User.objects.get(pk=human.id).check_password("another-good-one")


def test_agreement_terms_and_their_acceptance_are_seen_at_once(ttl, human, admin):
    client, admin_client = _logged_in(human), _logged_in(admin)
    assert client.get("/api/auth").json()["requiredAgreementTermId"] is None
    body = [{"locale": "en", "text": "Be kind."}]
    assert admin_client.post("/api/agreement-terms/0000000000000010", body, format="json").status_code == 200
    assert client.get("/api/auth").json()["requiredAgreementTermId"] == "0000000000000010"
    assert client.post("/api/users/agreement/0000000000000010").status_code == 200
    assert client.get("/api/auth").json()["requiredAgreementTermId"] is None
    assert admin_client.delete("/api/agreement-terms/0000000000000010").status_code == 200
    assert admin_client.post("/api/agreement-terms/0000000000000020", body, format="json").status_code == 200
    assert client.get("/api/auth").json()["requiredAgreementTermId"] == "0000000000000020"


def test_a_page_view_reads_no_user_row_and_no_term(settings, human):
    settings.STGY_AUTH_RECORD_TTL = 300
    client = Client()
    client.force_login(human)
    assert client.get("/").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    sql = [q["sql"] for q in queries]
    # The header's nickname and time zone are in the auth record (sns/auth/session.py).
    assert [q for q in sql if q.lstrip().startswith('SELECT "sns_user"') and "password" in q] == []
    assert not [q for q in sql if q.lstrip().startswith('SELECT "sns_agreementterm"')]


def test_a_session_rewritten_for_another_user_is_read_for_that_user(ttl, human, admin):
    # A process remembers whose each session was, to fetch that user's record with the
    # session in one round trip; the session read decides, never the remembered user.
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY

    client = _logged_in(human)
    for _ in range(2):
        assert client.get("/api/auth").json()["userId"] == human.hex_id
        assert client.get("/api/posts?limit=1").status_code == 200
    session = client.session
    session[SESSION_KEY] = str(admin.pk)
    session[HASH_SESSION_KEY] = admin.get_session_auth_hash()
    session.save()
    assert client.get("/api/auth").json()["userId"] == admin.hex_id
    assert client.get("/api/posts?limit=1").status_code == 200
    other = _logged_in(admin)
    assert other.put(f"/api/users/{admin.hex_id}/password", {"password": "changed-again"}, format="json").status_code == 200
    assert client.get("/api/posts?limit=1").status_code == 401


def test_a_session_naming_the_backends_old_path_stays_logged_in(ttl, human):
    from django.contrib.auth import BACKEND_SESSION_KEY

    client = _logged_in(human)
    session = client.session
    assert session[BACKEND_SESSION_KEY] == "sns.auth.backend.UserBackend"
    session[BACKEND_SESSION_KEY] = "sns.auth_backend.UserBackend"
    session.save()
    assert client.get("/api/auth").json()["userId"] == human.hex_id
    assert client.get("/api/posts?limit=1").status_code == 200
    session = client.session
    session[BACKEND_SESSION_KEY] = "sns.nowhere.UserBackend"
    session.save()
    assert client.get("/api/auth").status_code == 401
