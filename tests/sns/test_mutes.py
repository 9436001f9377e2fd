"""Mutes and muted words (docs/mutes.md): the API routes, their refusals, and what a
mute hides through the one visibility rule — from the muting person only, refusing
nothing."""

from __future__ import annotations

import pytest

from sns import services
from sns.models.mutes import Mute, MutedWord
from sns.services import mutes
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _ids(response) -> list[str]:
    return [p["id"] for p in response.json()]


def test_muting_hides_the_muted_users_posts_from_the_muting_person_only(human, follower):
    chatty = make_user("Chatty")
    loud = make_post(chatty, "Chatty talks a lot")
    mine = make_post(human, "My own post")
    client = login_client(human)
    assert loud.hex_id in _ids(client.get("/api/posts"))
    assert client.post(f"/api/users/{chatty.hex_id}/mute").json() == {"result": "ok"}
    assert loud.hex_id not in _ids(client.get("/api/posts"))
    assert client.get(f"/api/posts/{loud.hex_id}").status_code == 404
    assert mine.hex_id in _ids(client.get("/api/posts"))
    # Nobody else is affected, and the muted user is refused nothing.
    assert loud.hex_id in _ids(login_client(follower).get("/api/posts"))
    services.like_add(chatty, mine.id)
    reply = make_post(chatty, "A reply all the same", reply_to=mine.id)
    assert mine.hex_id in _ids(login_client(chatty).get("/api/posts"))
    assert reply.hex_id not in _ids(client.get(f"/api/posts?replyTo={mine.hex_id}"))
    assert [u["id"] for u in client.get(f"/api/users/{human.hex_id}/mutees").json()] == [chatty.hex_id]
    assert client.delete(f"/api/users/{chatty.hex_id}/mute").json() == {"result": "ok"}
    assert loud.hex_id in _ids(client.get("/api/posts"))


def test_mute_refusals(human, follower, admin):
    client = login_client(human)
    assert client.post(f"/api/users/{human.hex_id}/mute").json() == {"error": "cannot mute yourself"}
    assert client.post("/api/users/0000000000000099/mute").status_code == 404
    client.post(f"/api/users/{follower.hex_id}/mute")
    again = client.post(f"/api/users/{follower.hex_id}/mute")
    assert (again.status_code, again.json()) == (400, {"error": "already muted"})
    client.delete(f"/api/users/{follower.hex_id}/mute")
    gone = client.delete(f"/api/users/{follower.hex_id}/mute")
    assert (gone.status_code, gone.json()) == (404, {"error": "not muted"})
    assert Mute.objects.count() == 0
    # Someone else's mutes and muted words are theirs (and an admin's) to read.
    assert login_client(follower).get(f"/api/users/{human.hex_id}/mutees").status_code == 403
    assert login_client(follower).get(f"/api/users/{human.hex_id}/muted-words").status_code == 403
    assert login_client(admin).get(f"/api/users/{human.hex_id}/muted-words").json() == {"words": []}


def test_muted_words_hide_posts_in_any_case_but_never_ones_own(human, follower):
    client = login_client(human)
    spoiled = make_post(follower, "The SPOILERS of the final episode")
    fine = make_post(follower, "A quiet evening")
    own = make_post(human, "my own spoiler stays")
    answer = client.put(f"/api/users/{human.hex_id}/muted-words", {"words": ["  Spoiler ", "spoiler", "", "final   score"]}, format="json")
    assert answer.json() == {"words": ["final score", "spoiler"]}
    seen = _ids(client.get("/api/posts"))
    assert fine.hex_id in seen and own.hex_id in seen and spoiled.hex_id not in seen
    hits = client.get("/api/posts/search?query=episode").json()["result"]
    assert spoiled.hex_id not in [p["id"] for p in hits]
    assert spoiled.hex_id in _ids(login_client(follower).get("/api/posts"))
    client.put(f"/api/users/{human.hex_id}/muted-words", {"words": []}, format="json")
    assert spoiled.hex_id in _ids(client.get("/api/posts"))


@pytest.mark.parametrize(
    "words, message",
    [
        ("spoiler", "words must be an array of strings"),
        (["ok", 3], "words must be an array of strings"),
        (None, "words must be an array of strings"),
        (["x" * 51], "muted word is too long"),
        ([f"w{i}" for i in range(mutes.MUTED_WORDS_MAX + 1)], "too many muted words"),
    ],
)
def test_bad_muted_words_are_a_400_and_change_nothing(human, words, message):
    client = login_client(human)
    client.put(f"/api/users/{human.hex_id}/muted-words", {"words": ["kept"]}, format="json")
    answer = client.put(f"/api/users/{human.hex_id}/muted-words", {"words": words}, format="json")
    assert (answer.status_code, answer.json()) == (400, {"error": message})
    assert list(MutedWord.objects.values_list("word", flat=True)) == ["kept"]


def test_a_muted_users_events_leave_the_notifications_feed(human, follower, django_capture_on_commit_callbacks):
    fan = make_user("Fan")
    post = make_post(human, "likeable")
    with django_capture_on_commit_callbacks(execute=True):
        services.like_add(follower, post.id)
        services.like_add(fan, post.id)
    client = login_client(human)
    [row] = client.get("/api/notifications/feed").json()
    assert row["countUsers"] == 2
    mutes.mute_add(human, fan.id)
    [row] = client.get("/api/notifications/feed").json()
    assert row["countUsers"] == 1 and [r["userId"] for r in row["records"]] == [follower.hex_id]
    mutes.mute_add(human, follower.id)
    assert client.get("/api/notifications/feed").json() == []
