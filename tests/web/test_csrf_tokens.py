"""The masked CSRF token of the pages' forms (sns/web/card_forms.py `csrf_token`, Django's
`get_token` once a response): accepted by Django's check, masked anew on every page, the
cookie renewed as before."""

from __future__ import annotations

import re

import pytest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, _unmask_cipher_token

from sns.models import Like
from tests.factories import make_post
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def test_a_pages_token_is_djangos_and_a_post_with_it_passes_the_check(page_client, human):
    post = make_post(human, "x")
    client = page_client(human, csrf=True)
    tokens = []
    for _ in range(2):
        response = client.get("/")
        assert response.status_code == 200
        assert "csrftoken" in response.cookies  # sent again, renewing its expiry, as get_token does
        tokens.append(set(_TOKEN.findall(text_of(response))))
    secret = client.cookies["csrftoken"].value
    for found in tokens:
        (token,) = found  # one masked token serves the whole page
        assert len(token) == 64 and set(token) <= set(CSRF_ALLOWED_CHARS)
        assert _unmask_cipher_token(token) == secret
    assert tokens[0] != tokens[1]  # masked anew on every page
    token = next(iter(tokens[1]))
    tampered = token[:40] + ("a" if token[40] != "a" else "b") + token[41:]
    like = f"/posts/{post.hex_id}/like"
    assert client.post(like, {"csrfmiddlewaretoken": tampered}).status_code == 403
    assert not Like.objects.filter(post=post).exists()
    assert client.post(like, {"csrfmiddlewaretoken": token}).status_code == 302
    assert Like.objects.filter(post=post, user=human).exists()
