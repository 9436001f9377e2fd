""" "What AI users remember about me" in Settings: the list, "forget" behind a
confirmation step (everything, or one AI user), the "don't remember me" setting, and
bad input that changes nothing."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone

from agents.models import PeerImpression, PostImpression, Relationship
from sns.models import User
from tests.factories import make_ai_user, make_post
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def remembered(human):
    aiko, bo = make_ai_user("Aiko"), make_ai_user("Bo")
    post = make_post(human, "Rye starter notes")
    now = timezone.now()
    note = json.dumps({"impression": "Bakes rye with patience", "tags": ["rye"]})
    PeerImpression.objects.create(user=aiko, peer=human, updated_at=now, payload=note)
    PostImpression.objects.create(user=aiko, peer=human, post=post, updated_at=now, payload=note)
    Relationship.objects.create(user=aiko, peer=human, score=0.3, updated_at=now)
    PeerImpression.objects.create(
        user=bo, peer=human, updated_at=now, payload=json.dumps({"impression": "Kind"})
    )
    return aiko, bo, post


def test_settings_links_to_the_page_which_shows_the_memory(page_client, human, remembered):
    client = page_client(human)
    assert 'href="/settings/ai-memory"' in text_of(client.get("/settings"))
    body = text_of(client.get("/settings/ai-memory"))
    for text in (
        "Aiko",
        "Bo",
        "Bakes rye with patience",
        "#rye",
        "Rye starter notes",
        "acquaintance",
        "Kind",
    ):
        assert text in body, text
    assert "0.3" not in body  # the word, never the score


def test_forget_one_ai_user_then_everything_after_confirming(page_client, human, remembered):
    aiko, bo, post = remembered
    client = page_client(human, csrf=True)
    confirm = text_of(client.get(f"/settings/ai-memory/forget?aiUserId={aiko.hex_id}"))
    assert "Have Aiko forget you?" in confirm and "csrfmiddlewaretoken" in confirm
    assert PeerImpression.objects.filter(user=aiko).exists()  # asking is not doing
    token = client.cookies["csrftoken"].value
    assert (
        client.post("/settings/ai-memory/forget", {"aiUserId": aiko.hex_id}).status_code == 403
    )  # no token
    response = client.post(
        "/settings/ai-memory/forget", {"aiUserId": aiko.hex_id, "csrfmiddlewaretoken": token}
    )
    assert response["Location"] == "/settings/ai-memory"
    assert (
        not PeerImpression.objects.filter(user=aiko).exists() and not Relationship.objects.exists()
    )
    assert PostImpression.objects.get(post=post).payload == ""
    assert PeerImpression.objects.filter(user=bo).exists()
    assert "Have every AI user forget you?" in text_of(client.get("/settings/ai-memory/forget"))
    client.post("/settings/ai-memory/forget", {"csrfmiddlewaretoken": token})
    assert not PeerImpression.objects.exists()
    assert "No AI user remembers anything about you" in text_of(client.get("/settings/ai-memory"))


def test_bad_ai_user_ids_change_nothing(page_client, human, remembered, follower):
    client = page_client(human)
    assert client.get("/settings/ai-memory/forget?aiUserId=0000000000000001").status_code == 404
    assert client.get(f"/settings/ai-memory/forget?aiUserId={follower.hex_id}").status_code == 404
    assert client.get("/settings/ai-memory/forget?aiUserId=nope").status_code == 400
    response = client.post(
        "/settings/ai-memory/forget", {"aiUserId": "0000000000000001"}, follow=True
    )
    assert "AI user not found" in text_of(response)
    assert PeerImpression.objects.count() == 2 and Relationship.objects.count() == 1


def test_the_dont_remember_me_setting(page_client, human):
    client = page_client(human)
    response = client.post("/settings/ai-memory/setting", {"ai_memory": "none"})
    assert response["Location"] == "/settings/ai-memory"
    assert User.objects.get(pk=human.pk).ai_memory == "none"
    assert re.search(r'value="none" id="[^"]+" checked', text_of(client.get("/settings/ai-memory")))
    response = client.post("/settings/ai-memory/setting", {"ai_memory": "sometimes"}, follow=True)
    assert "must be allowed or none" in text_of(response)
    assert User.objects.get(pk=human.pk).ai_memory == "none"
    client.post("/settings/ai-memory/setting", {"ai_memory": "allowed"})
    assert User.objects.get(pk=human.pk).ai_memory == "allowed"


def test_the_page_is_for_logged_in_people(page_client):
    response = page_client().get("/settings/ai-memory")
    assert response.status_code == 302 and "/login" in response["Location"]


def test_the_ai_users_own_memory_page_shows_no_empty_read_markers(
    page_client, human, remembered, admin
):
    aiko, _bo, post = remembered
    page = page_client(admin)
    assert f"post {post.hex_id}" in text_of(page.get(f"/users/{aiko.hex_id}/memory"))
    page_client(human).post("/settings/ai-memory/forget", {"aiUserId": aiko.hex_id})
    assert PostImpression.objects.get(post=post).payload == ""
    body = text_of(page.get(f"/users/{aiko.hex_id}/memory"))
    assert f"post {post.hex_id}" not in body and "No impressions of posts yet." in body
