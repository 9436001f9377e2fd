"""Sliding session expiry: a used session is kept alive, but written at most once per
refresh interval, not on every read."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sns.auth.sliding import refresh_interval
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _login(api, user) -> str:
    response = api.post("/api/auth", {"email": user.email, "password": PASSWORD}, format="json")
    assert response.status_code == 200
    return response.cookies["session_id"].value


def _session_writes(queries) -> list[str]:
    return [q["sql"] for q in queries if "django_session" in q["sql"] and q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT"))]


def test_reads_within_the_interval_do_not_write_the_session(api, human):
    key = _login(api, human)
    expiry = Session.objects.get(session_key=key).expire_date
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert api.get("/api/posts?limit=5").status_code == 200
    assert _session_writes(queries.captured_queries) == []
    assert Session.objects.get(session_key=key).expire_date == expiry


def test_a_used_session_is_extended_once_the_interval_has_passed(api, human):
    key = _login(api, human)
    # Age the session as if its last refresh were one interval and a second ago.
    store = api.session
    store["_stgy_refreshed_at"] = store.get("_stgy_refreshed_at", 0) - refresh_interval() - 1
    store.save()
    soon = timezone.now() + timedelta(minutes=5)
    Session.objects.filter(session_key=key).update(expire_date=soon)
    assert api.get("/api/auth").status_code == 200
    assert Session.objects.get(session_key=key).expire_date > soon + timedelta(days=6)
    response = api.get("/api/auth")
    assert response.json()["userId"] == human.hex_id


def test_anonymous_requests_create_no_session(api, client):
    assert api.get("/api/posts?limit=5").status_code == 401
    assert client.get("/login").status_code == 200
    assert Session.objects.count() == 0


def test_refresh_interval_is_a_tenth_of_the_age_capped_at_an_hour(settings):
    settings.SESSION_COOKIE_AGE = 604800
    assert refresh_interval() == 3600
    settings.SESSION_COOKIE_AGE = 600
    assert refresh_interval() == 60
