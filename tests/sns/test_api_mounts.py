"""The API under /backend/ as well as /api/, and cross-origin access for allowed
frontend origins only (sns/api/cors.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import login_client
from tests.factories import make_post

pytestmark = pytest.mark.django_db
FRONTEND = "http://localhost:3000"


def test_the_backend_mount_serves_the_same_api(human):
    post = make_post(human, "mounted twice")
    client = login_client(human)
    assert client.get(f"/backend/posts/{post.hex_id}").json() == client.get(
        f"/api/posts/{post.hex_id}"
    ).json()
    assert client.get("/backend/no/such").json() == {"error": "not found"}
    assert reverse("post", args=[post.hex_id]).startswith("/api/")


def test_the_document_lists_each_operation_once(client):
    text = client.get("/openapi.yml").content.decode()
    assert "/api/posts:" in text and "/backend/" not in text


def test_no_origin_is_allowed_by_default(human):
    client = login_client(human)
    response = client.post(
        "/backend/posts", {"content": "x", "tags": []}, format="json", HTTP_ORIGIN=FRONTEND
    )
    assert response.status_code == 403 and response.json() == {"error": "cross-site request refused"}
    assert "Access-Control-Allow-Origin" not in response


def test_an_allowed_frontend_origin_gets_cors_answers(settings, human):
    settings.STGY_CORS_ALLOWED_ORIGINS = [FRONTEND]
    preflight = Client().options(
        "/backend/posts",
        HTTP_ORIGIN=FRONTEND,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="content-type",
    )
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == FRONTEND
    assert preflight["Access-Control-Allow-Credentials"] == "true"
    assert "POST" in preflight["Access-Control-Allow-Methods"]
    client = login_client(human)
    response = client.post(
        "/backend/posts", {"content": "from the frontend", "tags": []}, format="json",
        HTTP_ORIGIN=FRONTEND, HTTP_SEC_FETCH_SITE="same-site",
    )
    assert response.status_code == 201 and response["Access-Control-Allow-Origin"] == FRONTEND
    # Another origin is still refused, and gets no CORS headers.
    other = client.post(
        "/api/posts", {"content": "x", "tags": []}, format="json", HTTP_ORIGIN="http://evil.test"
    )
    assert other.status_code == 403 and "Access-Control-Allow-Origin" not in other
    # Pages are not part of it.
    assert "Access-Control-Allow-Origin" not in Client().get("/login", HTTP_ORIGIN=FRONTEND)


@pytest.mark.parametrize("prefix", ["/api", "/backend"])
def test_an_unknown_path_is_a_json_404_for_unsafe_methods_too(human, prefix):
    # A path no route matches (a newline in an id), with a session and no CSRF token:
    # the JSON 404, not Django's HTML CSRF page.
    client = Client(enforce_csrf_checks=True)
    client.force_login(human)
    response = client.delete(f"{prefix}/media/%0A/images/x%0Ay")
    assert response.status_code == 404 and response.json() == {"error": "not found"}
