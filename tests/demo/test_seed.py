"""The demo community seed: its data is well formed, seeding builds the promised cast
and history once, and the demo humans can log in."""

from __future__ import annotations

import io
import zoneinfo
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import authenticate

from agents.demo import seed_data
from agents.demo.seed import DEMO_HUMAN_EMAIL, DEMO_PASSWORD, seed_demo_community
from agents.models import PostSummary
from sns.mdtree import make_snippet
from sns.models import AiTier, Follow, Post, PostTag, User

ALL_USERS = seed_data.HUMANS + seed_data.AI_USERS
HUMAN_NICKNAMES = {u["nickname"] for u in seed_data.HUMANS}
AI_NICKNAMES = {u["nickname"] for u in seed_data.AI_USERS}


@pytest.fixture(autouse=True)
def _offline_ai(settings):
    settings.STGY_AI_PROVIDER = "offline"
    # Seeding hashes ten demo passwords; the production hasher would make that the bulk
    # of the test time without testing anything of ours.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _demo_users():
    return User.objects.filter(email__endswith="@demo.stgy.local")


# --- the data itself -----------------------------------------------------------------


def test_users_are_unique_and_well_formed():
    emails = [u["email"] for u in ALL_USERS]
    nicknames = [u["nickname"] for u in ALL_USERS]
    assert len(set(emails)) == len(emails)
    assert len(set(nicknames)) == len(nicknames)
    for user in ALL_USERS:
        assert user["email"].endswith("@demo.stgy.local")
        assert user["locale"] in ("en-US", "ja-JP")
        zoneinfo.ZoneInfo(user["timezone"])
        assert user["introduction"].strip()
        assert len(user["introduction"]) <= django_settings.STGY_INTRODUCTION_LENGTH_LIMIT
    assert DEMO_HUMAN_EMAIL == seed_data.HUMANS[0]["email"]


def test_ai_users_cover_every_tier_and_both_languages():
    assert len(seed_data.AI_USERS) == 6
    assert {u["ai_model"] for u in seed_data.AI_USERS} == set(AiTier.values)
    assert Counter(u["locale"] for u in seed_data.AI_USERS) == {"en-US": 3, "ja-JP": 3}
    for user in seed_data.AI_USERS:
        personality = user["ai_personality"]
        assert 300 <= len(personality) <= django_settings.STGY_AI_PERSONALITY_LENGTH_LIMIT
        sentences = personality.count("。") if user["locale"] == "ja-JP" else personality.count(". ")
        assert 6 <= sentences + 1 <= 13, user["nickname"]


def test_posts_are_well_formed():
    per_author = Counter(p["author"] for p in seed_data.POSTS)
    assert set(per_author) <= HUMAN_NICKNAMES
    assert max(per_author.values()) <= 15  # far below the hourly post throttle
    for index, post in enumerate(seed_data.POSTS):
        assert post["content"].strip()
        assert len(post["content"]) <= django_settings.STGY_CONTENT_LENGTH_LIMIT
        assert 1 <= len(post["tags"]) <= 3
        assert all(tag == tag.lower() and tag.strip() == tag for tag in post["tags"])
        assert post.get("locale") in (None, "en-US", "ja-JP")
        if "reply_to" in post:
            assert 0 <= post["reply_to"] < index
    assert sum(len(p["content"]) >= 1500 for p in seed_data.POSTS) >= 3


def test_follows_are_well_formed():
    known = HUMAN_NICKNAMES | AI_NICKNAMES
    assert len(set(seed_data.FOLLOWS)) == len(seed_data.FOLLOWS)
    for follower, followee in seed_data.FOLLOWS:
        assert follower in known and followee in known
        assert follower != followee
    assert any(a in HUMAN_NICKNAMES and b in AI_NICKNAMES for a, b in seed_data.FOLLOWS)
    assert any(a in AI_NICKNAMES and b in HUMAN_NICKNAMES for a, b in seed_data.FOLLOWS)


# --- seeding -------------------------------------------------------------------------


@pytest.mark.django_db
def test_seed_builds_the_community():
    out = io.StringIO()
    result = seed_demo_community(stdout=out)

    assert result["created"] is True
    assert "Seeded the demo community" in out.getvalue()

    humans = _demo_users().filter(ai_model__isnull=True)
    ai_users = _demo_users().filter(ai_model__isnull=False)
    assert humans.count() == result["humans"] >= 10
    assert ai_users.count() == result["ai_users"] == 6
    assert set(ai_users.values_list("ai_model", flat=True)) == set(AiTier.values)
    for ai in ai_users:
        assert ai.ai_personality and ai.ai_personality.strip()
        assert not ai.has_usable_password()
        # the original's snippet tree, whose text our cards show
        assert ai.snippet == make_snippet(ai.introduction) and ai.snippet.startswith('[{"T":')
        assert ai.snippet_text and '"T"' not in ai.snippet_text

    posts = Post.objects.filter(owner__email__endswith="@demo.stgy.local").select_related("owner")
    assert posts.count() == result["posts"] >= 60
    assert all(p.snippet == make_snippet(p.content) for p in posts)
    replies = posts.filter(reply_to__isnull=False)
    assert replies.count() >= 15
    japanese = [p for p in posts if p.locale == "ja-JP" or p.owner.locale == "ja-JP"]
    assert len(japanese) >= 20

    follows = Follow.objects.filter(follower__email__endswith="@demo.stgy.local")
    assert follows.count() == result["follows"] >= 30


@pytest.mark.django_db
def test_seed_wires_threads_tags_and_counters():
    seed_demo_community()
    posts = list(Post.objects.filter(owner__email__endswith="@demo.stgy.local").order_by("id"))  # not the handbook
    by_id = {p.id: p for p in posts}
    for spec, post in zip(seed_data.POSTS, posts, strict=True):
        assert post.owner.nickname == spec["author"]
        parent = spec.get("reply_to")
        if parent is None:
            assert post.reply_to is None
        else:
            assert by_id[post.reply_to].content == posts[parent].content
        assert sorted(PostTag.objects.filter(post=post).values_list("name", flat=True)) == sorted(
            spec["tags"]
        )

    expected_replies = Counter(spec["reply_to"] for spec in seed_data.POSTS if "reply_to" in spec)
    for index, post in enumerate(posts):
        assert post.reply_count == expected_replies.get(index, 0)

    maya = User.objects.get(email=DEMO_HUMAN_EMAIL)
    assert maya.post_count == sum(p["author"] == maya.nickname for p in seed_data.POSTS)
    assert maya.followee_count == sum(a == maya.nickname for a, _ in seed_data.FOLLOWS)
    assert maya.follower_count == sum(b == maya.nickname for _, b in seed_data.FOLLOWS)


@pytest.mark.django_db
def test_second_run_creates_nothing():
    seed_demo_community()
    counts = (User.objects.count(), Post.objects.count(), Follow.objects.count())

    out = io.StringIO()
    assert seed_demo_community(stdout=out) == {"created": False}
    assert (User.objects.count(), Post.objects.count(), Follow.objects.count()) == counts
    assert "nothing to do" in out.getvalue()


@pytest.mark.django_db
def test_any_demo_user_marks_the_community_as_present():
    User.objects.create_user(email="someone@demo.stgy.local", password="x", nickname="Someone")
    assert seed_demo_community() == {"created": False}
    assert Post.objects.count() == 0


@pytest.mark.django_db
def test_demo_humans_log_in_and_ai_users_cannot():
    seed_demo_community()
    for spec in seed_data.HUMANS:
        user = authenticate(email=spec["email"], password=DEMO_PASSWORD)
        assert user is not None and user.email == spec["email"]
    assert authenticate(email=DEMO_HUMAN_EMAIL, password="wrong") is None
    for spec in seed_data.AI_USERS:
        assert authenticate(email=spec["email"], password=DEMO_PASSWORD) is None


@pytest.mark.django_db
def test_seed_survives_the_post_commit_summaries(django_capture_on_commit_callbacks):
    """With the offline provider, the summaries enqueued after commit run inline and
    the seed still reports success."""
    with django_capture_on_commit_callbacks(execute=True):
        result = seed_demo_community()
    assert result["created"] is True
    assert PostSummary.objects.filter(post__owner__email__endswith="@demo.stgy.local").count() == (
        result["posts"]
    )


@pytest.mark.django_db
def test_seed_adds_a_handbook_in_both_languages_that_the_demo_names_as_knowledge(settings):
    from agents.demo.handbook import HANDBOOK_EMAIL
    from agents.runs.knowledge import knowledge_q

    result = seed_demo_community()
    demo_script = (Path(__file__).resolve().parents[2] / "bin" / "demo").read_text()
    assert f"STGY_KNOWLEDGE_ACCOUNTS-{HANDBOOK_EMAIL}" in demo_script
    settings.STGY_KNOWLEDGE_ACCOUNTS = [HANDBOOK_EMAIL]
    knowledge = Post.objects.filter(knowledge_q())
    assert knowledge.count() == result["handbook"] >= 4
    assert {p.locale for p in knowledge} == {"en-US", "ja-JP"}
    assert not User.objects.filter(email=HANDBOOK_EMAIL).get().has_usable_password()
