"""The welcome posts the original's frontend sends a new user to (agents/demo/welcome.py):
seeded once, as the original's seeder writes them, and readable by that new user."""

from __future__ import annotations

import pytest

from agents.demo.welcome import WELCOME_POSTS, seed_welcome_posts
from sns import services
from sns.models import Post, PostTag
from tests.conftest import login_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_nothing_without_an_admin():
    assert seed_welcome_posts() == 0
    assert Post.objects.count() == 0


def test_both_welcome_posts_are_seeded_once_as_the_original_seeds_them(admin):
    assert seed_welcome_posts() == 2
    english, japanese = Post.objects.get(pk=0x10001), Post.objects.get(pk=0x20001)
    assert (english.hex_id, japanese.hex_id) == ("0000000000010001", "0000000000020001")
    for post in (english, japanese):
        assert post.owner_id == admin.id and post.reply_to is None
        assert post.allow_likes is False and post.allow_replies is False
        assert post.published_at is not None and post.published_at.year == 2025
        assert list(PostTag.objects.filter(post=post).values_list("name", flat=True)) == ["stgy-help"]
    assert english.locale == "en-US" and english.content.startswith("# Welcome to STGY")
    assert japanese.locale == "ja-JP" and japanese.content.startswith("# STGYへようこそ")
    # Idempotent; an admin's later edit stays.
    services.post_update(admin, english.id, content="# Welcome\n\nOur own words.")
    assert seed_welcome_posts() == 0
    assert Post.objects.get(pk=0x10001).content == "# Welcome\n\nOur own words."
    assert Post.objects.filter(pk__in=[spec["id"] for spec in WELCOME_POSTS]).count() == 2


def test_a_new_user_reads_the_page_the_original_frontend_sends_them_to(admin):
    seed_welcome_posts()
    newcomer = login_client(make_user("Newcomer", locale="ja-JP"))
    for hex_id in ("0000000000010001", "0000000000020001"):
        response = newcomer.get(f"/api/posts/{hex_id}")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["allowReplies"] is False and body["tags"] == ["stgy-help"]
    liked = newcomer.post("/api/posts/0000000000010001/like")
    assert liked.status_code == 400
