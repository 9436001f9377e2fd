"""Cards for links to this site: users, posts and public posts, read from the database as
the viewer may see them; never fetched over HTTP."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sns import services
from tests.conftest import login_client
from tests.factories import make_post, make_user
from tests.linksnippets.conftest import resolve as card

pytestmark = pytest.mark.django_db


def test_a_post_link_shows_its_heading_and_text(human, follower):
    post = make_post(human, "# Fermenting at home\n\nStart with **cabbage** and salt.")
    got = card(login_client(follower), f"/posts/{post.hex_id.lower()}")
    assert got["url"] == f"/posts/{post.hex_id.lower()}"
    assert (got["status"], got["title"], got["description"], got["siteName"]) == (
        "ready", "Fermenting at home", "Start with cabbage and salt.", "STGY")
    assert got["expiresAt"] is None and got["stale"] is False
    pictured = make_post(human, "Intro\n\n## Beans\n\nUp today.\n\n![sprouts](/images/x/masters/a.png){grid}")
    got = card(login_client(follower), f"/posts/{pictured.hex_id}")
    assert (got["title"], got["description"]) == ("Beans", "Intro Up today. sprouts")
    untitled = make_post(human, "just words")
    assert card(login_client(follower), f"/posts/{untitled.hex_id}")["title"] == (
        f"POST@{untitled.created_at:%Y-%m-%d}")


def test_absolute_urls_of_this_site_are_read_the_same_way(human):
    post = make_post(human, "# Title\n\nBody")
    got = card(login_client(human), f"http://testserver/posts/{post.hex_id}#x")
    assert got["title"] == "Title" and got["url"] == f"http://testserver/posts/{post.hex_id}"


def test_user_links_need_a_session_and_respect_blocks(api, human, follower):
    services.user_update(human, human.id, introduction="I **like** jars.")
    signed_out = card(api, f"/users/{human.hex_id}")
    assert signed_out["status"] == "unavailable" and signed_out["title"] is None
    got = card(login_client(follower), f"/users/{human.hex_id}")
    assert (got["status"], got["title"], got["description"]) == ("ready", "Alice", "I like jars.")
    stranger = make_user("Stranger")
    services.block_add(human, stranger.id)
    assert card(login_client(stranger), f"/users/{human.hex_id}")["status"] == "unavailable"


def test_hidden_or_missing_posts_are_unavailable_not_errors(api, human):
    post = make_post(human, "# Secret")
    stranger = make_user("Stranger")
    services.block_add(human, stranger.id)
    assert card(api, f"/posts/{post.hex_id}")["status"] == "unavailable"
    assert card(login_client(stranger), f"/posts/{post.hex_id}")["status"] == "unavailable"
    assert card(login_client(human), "/posts/00000000DEADBEEF")["status"] == "unavailable"
    assert card(api, "/pub/FFFFFFFFFFFFFFFF")["status"] == "unavailable"


def test_public_posts_are_open_to_everyone(api, human):
    published = timezone.now() - timedelta(days=1)
    post = make_post(human, "# Out in the open\n\nHello", published_at=published)
    got = card(api, f"/pub/{post.hex_id}")
    assert (got["status"], got["title"], got["siteName"]) == ("ready", "Out in the open", "STGY")
    draft = make_post(human, "# Not yet")
    assert card(api, f"/pub/{draft.hex_id}")["status"] == "unavailable"
