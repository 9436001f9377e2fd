"""GET and DELETE /users/{id}/ai-memory and the aiMemory setting: who may read and
forget, what the list holds and in which order, and bad input that changes nothing
(docs/api.md, "What AI users remember about me")."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import PeerImpression, PostImpression, Relationship
from sns import services
from sns.models import User
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db


def payload(text: str, tags=("bread",)) -> str:
    return json.dumps({"impression": text, "tags": list(tags), "shouldFollow": False})


@pytest.fixture
def remembered(human):
    """Two AI users that remember `human` (Alice): Aiko (an impression of her, one of
    her post, a relationship) and, more recently, Bo (an impression of one post)."""
    aiko, bo = make_ai_user("Aiko"), make_ai_user("Bo")
    post, later = make_post(human, "My *rye* starter doubled overnight"), make_post(human, "Second")
    now = timezone.now()
    PeerImpression.objects.create(
        user=aiko, peer=human, updated_at=now - timedelta(hours=3), payload=payload("Warm")
    )
    PostImpression.objects.create(
        user=aiko,
        peer=human,
        post=post,
        updated_at=now - timedelta(hours=2),
        payload=payload("Good rye", ["rye"]),
    )
    Relationship.objects.create(
        user=aiko, peer=human, score=0.6, updated_at=now - timedelta(hours=2)
    )
    PostImpression.objects.create(
        user=bo, peer=human, post=later, updated_at=now - timedelta(hours=1), payload="plain text"
    )
    return aiko, bo, post, later


def rows() -> tuple:
    return (
        sorted(PeerImpression.objects.values_list("user_id", "peer_id", "payload")),
        sorted(PostImpression.objects.values_list("user_id", "post_id", "payload")),
        sorted(Relationship.objects.values_list("user_id", "peer_id", "score")),
    )


def test_the_list_newest_first_with_words_not_scores_and_paged(human, remembered):
    aiko, bo, post, _later = remembered
    client = login_client(human)
    path = f"/api/users/{human.hex_id}/ai-memory"
    first, second = client.get(path).json()
    assert first["aiUser"] == {"id": bo.hex_id, "nickname": "Bo"}
    assert first["peerImpression"] is None and first["relationship"] is None
    assert (
        first["postImpressions"][0]["impression"] == "plain text"
    )  # an API payload, shown as it is
    assert second["aiUser"]["id"] == aiko.hex_id
    assert second["peerImpression"]["impression"] == "Warm" and second["peerImpression"][
        "tags"
    ] == ["bread"]
    assert second["relationship"] == "friend"
    assert second["postImpressions"] == [
        {
            "postId": post.hex_id,
            "excerpt": "My rye starter doubled overnight",
            "impression": "Good rye",
            "tags": ["rye"],
            "updatedAt": second["updatedAt"],
        }
    ]
    assert "0.6" not in json.dumps(second)
    assert [i["aiUser"]["nickname"] for i in client.get(path + "?limit=1&offset=1").json()] == [
        "Aiko"
    ]
    assert [i["aiUser"]["nickname"] for i in client.get(path + "?order=asc").json()] == [
        "Aiko",
        "Bo",
    ]
    assert [
        i["aiUser"]["nickname"] for i in client.get(f"{path}?aiUserId={aiko.hex_id}").json()
    ] == ["Aiko"]


def test_a_blocked_ai_user_is_still_listed_and_admins_may_read(human, remembered, admin):
    aiko, _bo, _, _ = remembered
    services.block_add(human, aiko.id)
    path = f"/api/users/{human.hex_id}/ai-memory"
    assert {i["aiUser"]["nickname"] for i in login_client(human).get(path).json()} == {"Aiko", "Bo"}
    assert len(login_client(admin).get(path).json()) == 2


def test_someone_elses_memory_is_refused_and_changes_nothing(human, follower, remembered, admin):
    path = f"/api/users/{human.hex_id}/ai-memory"
    before = rows()
    for method in ("get", "delete"):
        response = getattr(login_client(follower), method)(path)
        assert response.status_code == 403 and response.json() == {"error": "forbidden"}
    assert rows() == before
    assert login_client(admin).get("/api/users/0000000000000001/ai-memory").status_code == 404


def test_bad_ai_user_ids_are_refused_and_change_nothing(human, remembered, follower):
    path = f"/api/users/{human.hex_id}/ai-memory"
    client = login_client(human)
    before = rows()
    for query, status, error in (
        ("aiUserId=0000000000000001", 404, "AI user not found"),
        (f"aiUserId={follower.hex_id}", 404, "AI user not found"),  # not an AI user
        ("aiUserId=zz", 400, None),
    ):
        for method in ("get", "delete"):
            response = getattr(client, method)(f"{path}?{query}")
            assert response.status_code == status, (method, query)
            assert "error" in response.json() and (
                error is None or response.json()["error"] == error
            )
    assert rows() == before


def test_forget_one_then_everything_keeps_read_markers(human, remembered):
    _aiko, bo, post, later = remembered
    client = login_client(human)
    path = f"/api/users/{human.hex_id}/ai-memory"
    response = client.delete(f"{path}?aiUserId={bo.hex_id}")
    assert response.json() == {"peerImpressions": 0, "postImpressions": 1, "relationships": 0}
    assert [i["aiUser"]["nickname"] for i in client.get(path).json()] == ["Aiko"]
    assert client.delete(path).json() == {
        "peerImpressions": 1,
        "postImpressions": 1,
        "relationships": 1,
    }
    assert client.get(path).json() == []
    assert sorted(PostImpression.objects.values_list("post_id", "payload")) == sorted(
        [(post.id, ""), (later.id, "")]
    )
    assert client.delete(path).json() == {
        "peerImpressions": 0,
        "postImpressions": 0,
        "relationships": 0,
    }


def test_ai_memory_setting_in_put_and_in_the_detail_for_self_and_admins(human, follower, admin):
    path = f"/api/users/{human.hex_id}"
    client = login_client(human)
    assert client.get(path).json()["aiMemory"] == "allowed"
    assert "aiMemory" not in login_client(follower).get(path).json()
    assert client.put(path, {"aiMemory": "none"}, format="json").status_code == 200
    assert login_client(admin).get(path).json()["aiMemory"] == "none"
    for bad in ("maybe", "", "NONE", 1, None, ["none"]):
        response = client.put(path, {"aiMemory": bad, "nickname": "Changed"}, format="json")
        assert response.status_code == 400, bad
        assert "error" in response.json()
    assert client.put(path, {"aiMemory": "maybe"}, format="json").json() == {
        "error": "aiMemory must be allowed or none"
    }
    user = User.objects.get(pk=human.pk)
    assert (user.ai_memory, user.nickname) == ("none", "Alice")
    assert (
        login_client(follower).put(path, {"aiMemory": "allowed"}, format="json").status_code == 403
    )
    assert User.objects.get(pk=human.pk).ai_memory == "none"


def test_the_memory_api_keeps_no_impression_of_a_person_who_said_none(human):
    ai = make_ai_user("Aiko")
    post = make_post(human, "Hello")
    services.user_update(human, human.id, ai_memory="none")
    client = login_client(ai)
    response = client.post(
        f"/api/ai-users/{ai.hex_id}/peer-impressions",
        {"peerId": human.hex_id, "payload": "x"},
        format="json",
    )
    assert response.status_code == 403
    assert response.json() == {"error": "the user does not let AI users remember them"}
    assert not PeerImpression.objects.exists()
    response = client.post(
        f"/api/ai-users/{ai.hex_id}/post-impressions",
        {"postId": post.hex_id, "payload": "x"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["payload"] == ""  # a read marker only
    assert PostImpression.objects.get(user=ai, post=post).payload == ""
    other = make_user("Other")
    assert (
        client.post(
            f"/api/ai-users/{ai.hex_id}/peer-impressions",
            {"peerId": other.hex_id, "payload": "x"},
            format="json",
        ).status_code
        == 200
    )
