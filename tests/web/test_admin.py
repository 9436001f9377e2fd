"""Django admin: every model is listed for admins; edits go through the services; rows
whose editing would corrupt state are read-only."""

from __future__ import annotations

import pytest
from django.utils import timezone

from agents.models import (
    AgentState,
    CycleRun,
    FleetPause,
    Interest,
    LlmBatch,
    LlmUsage,
    PeerImpression,
    PostImpression,
)
from sns import services
from sns.models import Like, Post, User
from tests.factories import PASSWORD, make_post
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db

CHANGELISTS = [
    "sns/user",
    "sns/post",
    "sns/like",
    "sns/follow",
    "sns/block",
    "sns/notification",
    "sns/agreementterm",
    "agents/postsummary",
    "agents/aiposttag",
    "agents/interest",
    "agents/peerimpression",
    "agents/postimpression",
    "agents/agentstate",
    "agents/cyclerun",
    "agents/llmusage",
    "agents/fleetpause",
    "agents/llmbatch",
]


@pytest.fixture
def world(human, follower, ai_user):
    post = make_post(human, "hello", tags=["a"])
    services.like_add(follower, post.id)
    now = timezone.now()
    Interest.objects.create(
        user=ai_user, updated_at=now, interest="koji", tags=["koji"], features=b"\1" * 512
    )
    PeerImpression.objects.create(
        user=ai_user, peer=human, updated_at=now, payload='{"impression": "nice"}'
    )
    PostImpression.objects.create(user=ai_user, peer=human, post=post, updated_at=now, payload="{}")
    AgentState.objects.create(user=ai_user, next_run_at=now)
    run = CycleRun.objects.create(
        user=ai_user, started_at=now, stages={"read": {"outcome": "ok"}}, details={"x": 1}
    )
    LlmUsage.objects.create(
        created_at=now, user=ai_user, run=run, provider="offline", model="m", outcome="ok"
    )
    FleetPause.objects.create(day=now.date(), started_at=now, reason="site daily budget exceeded")
    LlmBatch.objects.create(kind="summary", created_at=now, provider_batch_id="batch_1", items={"post-1": {}})
    return post


def test_every_changelist_and_change_page_opens_for_admins(page_client, admin, world):
    client = page_client(admin)
    for name in CHANGELISTS:
        response = client.get(f"/admin/{name}/")
        assert response.status_code == 200, name
        rows = response.context["cl"].result_list
        if rows:
            detail = client.get(f"/admin/{name}/{rows[0].pk}/change/")
            assert detail.status_code == 200, name


def test_non_admins_are_kept_out(page_client, human):
    assert page_client(human).get("/admin/sns/user/").status_code == 302


def test_user_filters_and_search(page_client, admin, human, ai_user):
    client = page_client(admin)
    ai = text_of(client.get("/admin/sns/user/?kind=ai"))
    assert "Aiko" in ai and "Alice" not in ai
    humans = text_of(client.get("/admin/sns/user/?kind=human"))
    assert "Alice" in humans and "Aiko" not in humans
    assert "Aiko" in text_of(client.get("/admin/sns/user/?ai_model__exact=balanced"))
    assert "Alice" in text_of(client.get("/admin/sns/user/?q=alice"))
    assert client.get("/admin/sns/user/?is_frozen__exact=1").status_code == 200


def _user_form(user, **changes):
    data = {
        "email": user.email,
        "nickname": user.nickname,
        "introduction": user.introduction,
        "avatar": "",
        "locale": user.locale,
        "timezone": user.timezone,
        "ai_model": user.ai_model or "",
        "ai_personality": user.ai_personality or "",
        "new_password": "",
    }
    for flag in ("is_admin", "is_frozen", "block_strangers"):
        if getattr(user, flag):
            data[flag] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_admin_edits_ai_personality_in_a_large_field_through_the_service(
    page_client, admin, ai_user
):
    client = page_client(admin)
    page = text_of(client.get(f"/admin/sns/user/{ai_user.id}/change/"))
    assert 'name="ai_personality" cols="100" rows="24"' in page
    response = client.post(
        f"/admin/sns/user/{ai_user.id}/change/",
        _user_form(ai_user, ai_personality="A quiet gardener.", is_frozen="on"),
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    ai_user.refresh_from_db()
    assert ai_user.ai_personality == "A quiet gardener." and ai_user.is_frozen
    assert ai_user.updated_at is not None  # written by user_update


def test_admin_edit_refused_by_the_rules_shows_the_message(page_client, admin, human):
    response = page_client(admin).post(
        f"/admin/sns/user/{human.id}/change/", _user_form(human, timezone="Mars/Base")
    )
    assert response.status_code == 200
    assert "timezone is invalid" in text_of(response)
    human.refresh_from_db()
    assert human.timezone == "UTC"


def test_admin_creates_a_user_through_the_service(page_client, admin):
    client = page_client(admin)
    data = _user_form(
        User(email="new@example.com", nickname="Newbie"), new_password=PASSWORD, ai_model="basic"
    )
    data["locale"], data["timezone"] = "en-US", "UTC"
    response = client.post("/admin/sns/user/add/", data)
    assert response.status_code == 302, text_of(response)[:3000]
    user = User.objects.get(email="new@example.com")
    assert user.ai_model == "basic" and user.check_password(PASSWORD)

    missing = client.post(
        "/admin/sns/user/add/", {**data, "email": "other@example.com", "new_password": ""}
    )
    assert "password required" in text_of(missing)


def test_admin_deletes_a_user_keeping_counters_right(page_client, admin, human, follower):
    post = make_post(human, "x")
    services.like_add(follower, post.id)
    response = page_client(admin).post(f"/admin/sns/user/{follower.id}/delete/", {"post": "yes"})
    assert response.status_code == 302
    human.refresh_from_db()
    post.refresh_from_db()
    assert human.follower_count == 0 and post.like_count == 0


def test_admin_edits_and_deletes_posts_through_the_services(page_client, admin, human, follower):
    root = make_post(human, "root", tags=["a"])
    reply = make_post(follower, "reply", reply_to=root.id)
    client = page_client(admin)
    response = client.post(
        f"/admin/sns/post/{root.id}/change/",
        {
            "content": "edited root",
            "tags": "b, c",
            "locale": "",
            "allow_likes": "on",
            "allow_replies": "on",
            "published_at_0": "",
            "published_at_1": "",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    root.refresh_from_db()
    assert root.content == "edited root" and root.snippet == '[{"T":"p","X":"edited root"}]'
    assert sorted(root.tags.values_list("name", flat=True)) == ["b", "c"]

    client.post(f"/admin/sns/post/{reply.id}/delete/", {"post": "yes"})
    root.refresh_from_db()
    assert root.reply_count == 0 and not Post.objects.filter(pk=reply.id).exists()


def test_relation_rows_and_run_records_are_read_only(page_client, admin, world):
    client = page_client(admin)
    like = Like.objects.get()
    assert client.get("/admin/sns/like/add/").status_code == 403
    client.post(f"/admin/sns/like/{like.pk}/delete/", {"post": "yes"})
    assert Like.objects.filter(pk=like.pk).exists()
    run = CycleRun.objects.get()
    assert (
        client.post(f"/admin/agents/cyclerun/{run.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    usage = LlmUsage.objects.get()
    assert (
        client.post(f"/admin/agents/llmusage/{usage.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    detail = text_of(client.get(f"/admin/agents/cyclerun/{run.pk}/change/"))
    assert "&quot;outcome&quot;: &quot;ok&quot;" in detail


def test_memory_rows_may_be_deleted_to_reset_memory(page_client, admin, world):
    impression = PeerImpression.objects.get()
    page_client(admin).post(
        f"/admin/agents/peerimpression/{impression.pk}/delete/", {"post": "yes"}
    )
    assert not PeerImpression.objects.exists()


def test_agents_admin_filters_and_search(page_client, admin, world):
    client = page_client(admin)
    assert "koji" in text_of(client.get("/admin/agents/interest/?q=koji"))
    assert client.get("/admin/agents/postsummary/?state=pending").status_code == 200
    assert client.get("/admin/agents/cyclerun/?status__exact=running").status_code == 200
    assert client.get("/admin/agents/llmusage/?outcome__exact=ok&q=offline").status_code == 200
    interest = Interest.objects.get()
    assert "512 bytes" in text_of(client.get(f"/admin/agents/interest/{interest.pk}/change/"))
