"""Every kind of response carries the security headers (stgy/security_headers.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.conftest import login_client
from tests.factories import make_post

pytestmark = pytest.mark.django_db
EXPECTED = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def assert_headers(response, what: str) -> str:
    for name, value in EXPECTED.items():
        assert response.get(name) == value, (what, name, response.get(name))
    csp = response.get("Content-Security-Policy", "")
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, (what, csp)
    script_src = re.search(r"script-src ([^;]*)", csp).group(1)
    assert "unsafe-inline" not in script_src and "http" not in script_src, (what, csp)
    return csp


def page(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_pages_api_admin_agent_pages_and_errors_all_carry_the_headers(human, admin, ai_user):
    post = make_post(human, "hello")
    responses = {
        "login page": page().get("/login"),
        "home page": page(human).get("/"),
        "post page": page(human).get(f"/posts/{post.hex_id}"),
        "missing post page": page(human).get("/posts/00000000000000FF"),
        "unknown path": page().get("/no/such/page"),
        "api list": login_client(human).get("/api/posts"),
        "api 401": Client().get("/api/posts"),
        "api 405": login_client(human).patch("/api/posts"),
        "openapi schema": Client().get("/openapi.yml"),
        "admin login": page().get("/admin/login/"),
        "admin index": page(admin).get("/admin/"),
        "admin change list": page(admin).get("/admin/sns/post/"),
        "agent activity": page(admin).get("/agents/activity"),
        "agent activity refused": page(human).get("/agents/activity"),
        "AI memory page": page(admin).get(f"/users/{ai_user.hex_id}/memory"),
    }
    statuses = {what: r.status_code for what, r in responses.items()}
    assert statuses["missing post page"] == 404 and statuses["api 401"] == 401, statuses
    assert statuses["agent activity refused"] == 403 and statuses["admin index"] == 200, statuses
    for what, response in responses.items():
        csp = assert_headers(response, what)
        assert "unsafe-inline" not in csp, what


def test_the_api_reference_runs_from_our_own_static_files():
    response = Client().get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert scripts == ["/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"]
    assert "<script>" not in html and "https://" not in html
    assert finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")
    csp = assert_headers(response, "api docs")
    assert "worker-src 'self' blob:" in csp


def test_static_files_carry_the_headers(client):
    response = client.get("/static/stgy.css")
    assert response.status_code == 200
    assert_headers(response, "static file")


def test_hsts_and_https_redirect_when_configured(settings, human):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    plain = page().get("/login")
    assert plain.status_code == 301 and plain["Location"] == "https://testserver/login"
    secure = page().get("/login", secure=True)
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000"
    forwarded = page().get("/login", HTTP_X_FORWARDED_PROTO="https")
    assert forwarded.status_code == 200  # behind the TLS proxy
