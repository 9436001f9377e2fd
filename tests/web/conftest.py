"""Helpers for the page tests (the Django test client; no browser)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import agents.recommend


@pytest.fixture
def page_client():
    """A client that logs in as the given user: `page_client(user)`."""

    def make(user=None, *, csrf: bool = False) -> Client:
        client = Client(enforce_csrf_checks=csrf)
        if user is not None:
            client.force_login(user)
        return client

    return make


def text_of(response) -> str:
    return response.content.decode("utf-8")


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def page_queries(monkeypatch, settings):
    """`page_queries(client, url)`: the SQL a page runs, for N+1 checks. Session
    bookkeeping and the recommender (an optional extra with its own cache) are left
    out, so the count is the page's own and does not depend on what a cache holds;
    the session's auth record is read from the database on every request for the same
    reason (sns/auth/session.py)."""
    settings.STGY_AUTH_RECORD_TTL = 0
    monkeypatch.setattr(agents.recommend, "recommended_posts_for_user", lambda user, **kw: [])
    monkeypatch.setattr(agents.recommend, "user_recommended_ids", lambda user_id: [])
    monkeypatch.setattr(agents.recommend, "user_recommended_ids_cached", lambda user_id: [])
    monkeypatch.setattr(agents.recommend, "related_posts", lambda post, viewer, **kw: [])

    def run(client, url, **extra) -> list[str]:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url, **extra).status_code == 200
        return [
            q["sql"]
            for q in ctx.captured_queries
            if "django_session" not in q["sql"] and "SAVEPOINT" not in q["sql"]
        ]

    return run
