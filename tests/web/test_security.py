"""CSRF on every form, escaping of user text in server output, security headers."""

from __future__ import annotations

import re

import pytest

from sns import services
from sns.models import Post
from tests.factories import PASSWORD, make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db

PAYLOAD = '<script>alert("x")</script><img src=x onerror=alert(1)>[a](javascript:alert(1))'


def test_every_form_refuses_a_post_without_csrf_token(page_client, human, ai_user):
    post = make_post(human, "x")
    client = page_client(human, csrf=True)
    targets = [
        "/compose",
        "/preview",
        "/settings",
        "/settings/password",
        "/settings/tokens",
        "/logout",
        f"/posts/{post.hex_id}/reply",
        f"/posts/{post.hex_id}/like",
        f"/posts/{post.hex_id}/unlike",
        f"/posts/{post.hex_id}/edit",
        f"/posts/{post.hex_id}/delete",
        f"/users/{ai_user.hex_id}/follow",
        f"/users/{ai_user.hex_id}/unfollow",
        f"/users/{ai_user.hex_id}/block",
        f"/users/{ai_user.hex_id}/unblock",
        "/notifications/mark",
        "/notifications/mark-all",
    ]
    for path in targets:
        assert client.post(path, {"content": "x", "tags": ""}).status_code == 403, path
    anonymous = page_client(csrf=True)
    assert anonymous.post("/login", {"email": human.email, "password": PASSWORD}).status_code == 403
    assert (
        anonymous.post(
            "/signup", {"email": "a@b.example"}
        ).status_code
        == 403
    )
    assert Post.objects.count() == 1


def test_forms_carry_the_csrf_token(page_client, human):
    post = make_post(human, "x")
    for path in (
        "/",
        "/settings",
        f"/posts/{post.hex_id}",
        f"/users/{human.hex_id}",
        "/notifications",
    ):
        body = text_of(page_client(human).get(path))
        forms = body.count('method="post"')
        assert forms and body.count('name="csrfmiddlewaretoken"') >= forms, path


def test_user_text_is_escaped_or_sanitised_everywhere(page_client, human, follower):
    evil = make_user("<b>Eve</b>")
    services.user_update(evil, evil.id, introduction=PAYLOAD)
    services.follow_add(evil, human.id)
    post = make_post(evil, PAYLOAD, tags=['<script>"tag"'])
    services.post_create(evil, content=PAYLOAD, tags=[], reply_to=make_post(human, "mine").id)
    client = page_client(human)
    for path in (
        "/",
        "/?tab=everyone",
        f"/posts/{post.hex_id}",
        f"/users/{evil.hex_id}",
        "/users",
        "/search?q=script",
        "/notifications",
        f"/posts/{post.hex_id}/edit",
    ):
        body = (
            text_of(client.get(path))
            if "edit" not in path
            else text_of(page_client(evil).get(path))
        )
        assert "<script>alert" not in body, path
        assert "onerror=alert" not in body.replace("onerror=alert(1)&gt;", ""), path
        assert not re.search(r'href="\s*javascript:', body, re.IGNORECASE), path
        assert "<b>Eve</b>" not in body, path
    body = text_of(client.get(f"/posts/{post.hex_id}"))
    assert (
        "&lt;script&gt;alert" in body
        and "&lt;b&gt;Eve&lt;/b&gt;" in body
        and "#&lt;script&gt;" in body
    )


def test_pages_send_a_content_security_policy(page_client, human):
    response = page_client(human).get("/")
    csp = response["Content-Security-Policy"]
    assert (
        "script-src 'self'" in csp
        and "object-src 'none'" in csp
        and "frame-ancestors 'none'" in csp
    )
    assert "unsafe-inline" not in csp
    login = page_client().get("/login")
    assert "Content-Security-Policy" in login


def test_templates_have_no_inline_script_or_style(settings):
    from pathlib import Path

    for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html"):
        text = path.read_text()
        assert "<script>" not in text and " style=" not in text, path
        assert not re.search(r"\son[a-z]+=", text), path  # no inline event handler at all
        assert "|safe" not in text, path


def test_next_parameter_cannot_redirect_off_site(page_client, human):
    post = make_post(human, "x")
    response = page_client(human).post(
        f"/posts/{post.hex_id}/like", {"next": "https://evil.example/"}
    )
    assert response["Location"] == f"/posts/{post.hex_id}"
