"""Repost, quote and bookmark on the pages (docs/shares.md), without JavaScript."""

from __future__ import annotations

import re

import pytest

from sns import services
from sns.models import Bookmark, Post, Quote, Repost
from tests.factories import make_post, make_user
from tests.web.conftest import messages_of, text_of

pytestmark = pytest.mark.django_db


def _card(body: str, post) -> str:
    start = body.index(f'id="post-{post.hex_id}"')
    return body[start : body.index("</article>", start)]


def test_repost_and_bookmark_buttons_are_csrf_forms_that_work(page_client, human, follower):
    post = make_post(human, "Share me")
    client = page_client(follower, csrf=True)
    body = text_of(client.get("/?tab=everyone"))
    card = _card(body, post)
    assert f'action="/posts/{post.hex_id}/repost"' in card and f'action="/posts/{post.hex_id}/bookmark"' in card
    assert 'aria-pressed="false"' in card
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', card).group(1)
    # without the token the form is refused
    assert client.post(f"/posts/{post.hex_id}/repost").status_code == 403
    response = client.post(f"/posts/{post.hex_id}/repost", {"csrfmiddlewaretoken": token, "next": "/?tab=everyone"})
    assert response.status_code == 302 and response["Location"] == "/?tab=everyone"
    client.post(f"/posts/{post.hex_id}/bookmark", {"csrfmiddlewaretoken": token})
    assert Repost.objects.filter(user=follower, post=post).exists()
    assert Bookmark.objects.filter(user=follower, post=post).exists()
    card = _card(text_of(client.get("/?tab=everyone")), post)
    assert f'action="/posts/{post.hex_id}/unrepost"' in card and f'action="/posts/{post.hex_id}/unbookmark"' in card
    assert '<span class="repost-count">1</span>' in card
    client.post(f"/posts/{post.hex_id}/unrepost", {"csrfmiddlewaretoken": token})
    assert not Repost.objects.exists()


def test_a_refused_repost_says_why(page_client, human, blocked):
    post = make_post(human)
    response = page_client(blocked).post(f"/posts/{post.hex_id}/repost", follow=True)
    assert "blocked by the owner" in messages_of(response)


def test_following_tab_shows_reposts_by_followees(page_client, human, follower):
    stranger = make_user("Stranger")
    old = make_post(stranger, "An older post by a stranger")
    make_post(human, "Alice's own newer post")
    services.repost_add(human, old.id)
    body = text_of(page_client(follower).get("/"))
    card = _card(body, old)
    assert "Alice</a> reposted" in card
    # the repost is the newest entry, above Alice's own post
    assert body.index(f'id="post-{old.hex_id}"') < body.index("own newer post")
    # a repost by someone the viewer does not follow is not on the viewer's tab
    other = make_user("Other")
    assert "An older post by a stranger" not in text_of(page_client(other).get("/"))


def test_reposts_of_posts_the_viewer_may_not_see_stay_hidden(page_client, human, follower):
    hidden_owner = make_user("Hider")
    post = make_post(hidden_owner, "Not for Bob")
    services.block_add(hidden_owner, follower.id)
    services.repost_add(human, post.id)
    assert "Not for Bob" not in text_of(page_client(follower).get("/"))


def test_quote_box_and_the_quoted_post_inside_the_quote(page_client, human, follower):
    post = make_post(human, "The quoted words")
    client = page_client(follower)
    form = text_of(client.get(f"/posts/{post.hex_id}/quote"))
    assert "The quoted words" in form and 'name="content"' in form and 'name="publish"' not in form
    response = client.post(f"/posts/{post.hex_id}/quote", {"content": "My comment", "tags": "", "locale": "", "allow_likes": "on", "allow_replies": "on"})
    quote = Post.objects.get(owner=follower)
    assert response["Location"] == f"/posts/{quote.hex_id}"
    assert Quote.objects.get(post=quote).quoted_id == post.id
    page = text_of(client.get(f"/posts/{quote.hex_id}"))
    inner = page[page.index('data-testid="quoted-post"') :]
    assert "The quoted words" in inner[: inner.index("</blockquote>")]
    services.post_delete(human, post.id)
    assert "The quoted post is unavailable." in text_of(client.get(f"/posts/{quote.hex_id}"))


def test_quote_refused_keeps_what_was_typed(page_client, human, follower):
    post = make_post(human, "closed", allow_replies=False)
    client = page_client(follower)
    assert "Quote</span>" not in _card(text_of(client.get("/?tab=everyone")), post)
    response = client.post(f"/posts/{post.hex_id}/quote", {"content": "typed text"}, follow=True)
    assert "quotes are not allowed for the target post" in messages_of(response)
    assert "typed text" in text_of(response)
    assert not Quote.objects.exists()


def test_bookmarks_page_is_the_viewers_own(page_client, human, follower):
    post = make_post(human, "Keep this one")
    services.bookmark_add(follower, post.id)
    assert "Keep this one" in text_of(page_client(follower).get("/bookmarks"))
    assert "Keep this one" not in text_of(page_client(human).get("/bookmarks"))
    assert "No bookmarks yet" in text_of(page_client(human).get("/bookmarks"))


def test_share_notifications_on_the_notifications_page(page_client, human, follower):
    from django.test import TestCase

    post = make_post(human, "Noticed")
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.repost_add(follower, post.id)
        quote = services.quote_create(follower, post.id, content="quoting")
    body = text_of(page_client(human).get("/notifications"))
    assert "reposted your post" in body and "quoted your post" in body
    assert f"/posts/{quote.hex_id}" in body


def test_share_facts_cost_the_same_queries_for_few_or_many_shares(page_client, page_queries, human, follower):
    carol = make_user("Carol")
    services.follow_add(follower, carol.id)
    first = make_post(human, "one")
    services.repost_add(carol, first.id)
    services.quote_create(carol, first.id, content="a quote")
    client = page_client(follower)
    urls = ["/", "/?tab=everyone", "/bookmarks", f"/posts/{first.hex_id}"]
    services.bookmark_add(follower, first.id)
    few = [len(page_queries(client, url)) for url in urls]
    for i in range(10):
        post = make_post(make_user(f"Author{i}"), f"post {i}")
        services.repost_add(carol, post.id)
        services.quote_create(carol, post.id, content=f"quote {i}")
        services.bookmark_add(follower, post.id)
        services.repost_add(follower, post.id)
    many = [len(page_queries(client, url)) for url in urls]
    assert many == few
