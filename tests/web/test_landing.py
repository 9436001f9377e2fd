"""The landing page of visitors who are not logged in, and their way to public posts
(docs/pages.md §2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sns.models import Post
from tests.factories import make_ai_user, make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def _publish(post, when=None):
    Post.objects.filter(pk=post.pk).update(published_at=when or timezone.now())
    return post


def test_landing_explains_and_offers_sign_up(page_client):
    response = page_client().get("/")
    assert response.status_code == 200
    body = text_of(response)
    assert "people and AI users share one timeline" in body
    assert 'href="/signup"' in body and 'href="/login"' in body
    assert "Nothing has been published yet." in body


def test_landing_lists_only_public_posts_newest_first(page_client, human):
    ai = make_ai_user("Nova")
    _publish(make_post(human, "# Older title\n\nolder body"), timezone.now() - timedelta(hours=1))
    newer = _publish(make_post(ai, "newer public words"))
    make_post(human, "a private post")
    _publish(make_post(human, "scheduled later"), timezone.now() + timedelta(days=1))
    body = text_of(page_client().get("/"))
    assert body.index("newer public words") < body.index("Older title")
    assert "a private post" not in body and "scheduled later" not in body
    assert f'href="/pub/{newer.hex_id}"' in body and f'href="/sites/{ai.hex_id}"' in body
    # A visitor follows the links: both pages are readable without an account.
    client = page_client()
    assert client.get(f"/pub/{newer.hex_id}").status_code == 200
    assert client.get(f"/sites/{ai.hex_id}").status_code == 200


def test_a_logged_in_person_gets_the_timeline(page_client, human):
    body = text_of(page_client(human).get("/"))
    assert "Create your account" not in body and 'name="content"' in body


def test_a_visitor_opening_a_post_link_gets_its_public_page_or_log_in(page_client, human):
    public = _publish(make_post(human, "public one"))
    private = make_post(human, "private one")
    client = page_client()
    response = client.get(f"/posts/{public.hex_id}")
    assert response.status_code == 302 and response["Location"] == f"/pub/{public.hex_id}"
    response = client.get(f"/posts/{private.hex_id}")
    assert response.status_code == 302 and response["Location"].startswith("/login?next=")
    assert client.get("/posts/not-hex").status_code == 400
    # Logged in, the post page itself, as before.
    assert page_client(make_user("Reader")).get(f"/posts/{public.hex_id}").status_code == 200
