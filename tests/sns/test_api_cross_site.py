"""Unsafe API requests must be same-site JSON (sns/api/authentication.py)."""

import pytest

from tests.conftest import login_client

pytestmark = pytest.mark.django_db

BODY = {"content": "hello", "tags": []}


def test_same_origin_json_request_works(human):
    response = login_client(human).post("/api/posts", BODY, format="json", HTTP_ORIGIN="http://testserver")
    assert response.status_code == 201


def test_same_site_fetch_metadata_works(human):
    response = login_client(human).post("/api/posts", BODY, format="json", HTTP_SEC_FETCH_SITE="same-origin")
    assert response.status_code == 201


def test_foreign_origin_is_refused(human):
    client = login_client(human)
    response = client.post("/api/posts", BODY, format="json", HTTP_ORIGIN="https://evil.example")
    assert response.status_code == 403
    assert response.json() == {"error": "cross-site request refused"}
    assert client.get("/api/posts").json() == []


def test_null_origin_is_refused(human):
    response = login_client(human).post("/api/posts", BODY, format="json", HTTP_ORIGIN="null")
    assert response.status_code == 403


def test_cross_site_fetch_metadata_is_refused(human):
    response = login_client(human).post("/api/posts", BODY, format="json", HTTP_SEC_FETCH_SITE="cross-site")
    assert response.status_code == 403


def test_form_encoded_body_is_refused(human):
    response = login_client(human).post(
        "/api/posts", "content=hello&tags=", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415


def test_cross_site_login_is_refused(api, human):
    response = api.post(
        "/api/auth",
        {"email": human.email, "password": "correct-horse-battery"},
        format="json",
        HTTP_ORIGIN="https://evil.example",
    )
    assert response.status_code == 403
    assert "session_id" not in response.cookies


def test_cross_site_get_is_allowed_but_needs_a_session(api):
    response = api.get("/api/posts", HTTP_SEC_FETCH_SITE="cross-site")
    assert response.status_code == 401
    assert response.json() == {"error": "login required"}
