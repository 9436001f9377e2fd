"""Notifications page with the unread count in the header; settings."""

from __future__ import annotations

import pytest

from sns import services
from sns.models import Notification
from tests.factories import make_post, make_user
from tests.web.conftest import text_of
from tests.web.field_check import field_error, field_value

pytestmark = pytest.mark.django_db(transaction=True)  # notifications are written on commit


def test_unread_count_in_header_and_notifications_listed(page_client, human, follower):
    post = make_post(human, "a post worth liking")
    carol = make_user("Carol")
    services.like_add(follower, post.id)
    services.like_add(carol, post.id)
    services.post_create(carol, content="my reply", tags=[], reply_to=post.id)
    client = page_client(human)

    home = text_of(client.get("/"))
    assert 'data-testid="unread-count">3</span>' in home  # follow, likes, reply

    body = text_of(client.get("/notifications"))
    assert "followed you" in body
    assert "Carol</a>, <a" in body or "Carol</a> and <a" in body
    assert "liked your post" in body and "a post worth liking" in body
    assert "replied to your post" in body and "my reply" in body


def test_mark_one_and_mark_all(page_client, human, follower):
    post = make_post(human, "x")
    services.like_add(follower, post.id)
    client = page_client(human)
    like = Notification.objects.get(user=human, slot=f"like:{post.hex_id}")
    client.post("/notifications/mark", {"slot": like.slot, "term": like.term, "is_read": "1"})
    like.refresh_from_db()
    assert like.is_read
    assert 'data-testid="unread-count">1</span>' in text_of(client.get("/"))

    response = client.post("/notifications/mark-all")
    assert response["Location"] == "/notifications"
    assert not Notification.objects.filter(user=human, is_read=False).exists()
    assert "unread-count" not in text_of(client.get("/"))


def test_settings_update_profile_locale_timezone_and_block_strangers(page_client, human):
    client = page_client(human)
    form = text_of(client.get("/settings"))
    assert 'value="Alice"' in form and "AI personality" not in form
    response = client.post(
        "/settings",
        {
            "nickname": "Alice W.",
            "introduction": "こんにちは",
            "locale": "ja_JP",
            "timezone": "Asia/Tokyo",
            "block_strangers": "on",
        },
    )
    assert response["Location"] == "/settings"
    human.refresh_from_db()
    assert (
        human.nickname,
        human.introduction,
        human.locale,
        human.timezone,
        human.block_strangers,
    ) == (
        "Alice W.",
        "こんにちは",
        "ja-JP",
        "Asia/Tokyo",
        True,
    )
    page = text_of(client.get("/"))
    assert '<html lang="ja-JP">' in page


def test_settings_refusal_keeps_the_form(page_client, human):
    response = page_client(human).post(
        "/settings",
        {"nickname": "Alice", "introduction": "kept", "locale": "en-US", "timezone": "Mars/Base"},
        follow=True,
    )
    assert field_error(response, "timezone") == "Time zone is invalid"
    assert field_value(response, "timezone") == "Mars/Base"
    assert field_value(response, "introduction") == "kept"
    human.refresh_from_db()
    assert human.timezone == "UTC"


def test_ai_user_edits_its_own_personality(page_client, ai_user):
    client = page_client(ai_user)
    assert "AI personality" in text_of(client.get("/settings"))
    client.post(
        "/settings",
        {
            "nickname": "Aiko",
            "locale": "en-US",
            "timezone": "UTC",
            "ai_personality": "Now a baker.",
        },
    )
    ai_user.refresh_from_db()
    assert ai_user.ai_personality == "Now a baker."


def test_times_are_shown_in_the_viewers_time_zone(page_client, human):
    services.user_update(human, human.id, timezone_name="Asia/Tokyo")
    post = make_post(human, "x")
    body = text_of(page_client(human).get(f"/posts/{post.hex_id}"))
    assert "JST" in body
