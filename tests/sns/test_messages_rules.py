"""What the message service refuses, with a clear 4xx `{error}` and no rows written:
blocks both ways, blockStrangers, frozen, unknown, self, empty, too long, NUL bytes,
AI users a person turned away; and the two hourly throttles at N and N+1."""

from __future__ import annotations

import json

import pytest

from sns import services
from sns.models import Conversation, Message
from sns.services import boundaries
from tests.conftest import login_client
from tests.factories import make_ai_user, make_user

pytestmark = pytest.mark.django_db


def _send(sender, recipient_hex, content="hello"):
    return login_client(sender).post(
        f"/api/messages/conversations/{recipient_hex}", {"content": content}, format="json"
    )


def _refused(response, status: int, error: str):
    assert response.status_code == status, response.content
    assert response.json() == {"error": error}
    assert not Message.objects.exists() and not Conversation.objects.exists()


def test_blocks_either_way(human, blocked):
    _refused(_send(blocked, human.hex_id), 400, "blocked by the user")
    _refused(_send(human, blocked.hex_id), 400, "you are blocking the user")


def test_block_strangers_applies_as_for_replies(human, follower):
    services.user_update(human, human.id, block_strangers=True)
    _refused(_send(follower, human.hex_id), 400, "blocked by the user")
    services.follow_add(human, follower.id)
    assert _send(follower, human.hex_id).status_code == 201


def test_frozen_unknown_self_and_bad_ids(human, follower):
    services.user_update(make_user("Root", is_admin=True), follower.id, is_frozen=True)
    follower.refresh_from_db()
    _refused(_send(follower, human.hex_id), 403, "user is frozen")
    _refused(_send(human, "00000000000000AB"), 404, "not found")
    _refused(_send(human, human.hex_id), 400, "cannot message yourself")
    _refused(_send(human, "not-hex"), 400, "invalid userId")


@pytest.mark.parametrize(
    "content, error",
    [
        ("", "content is required"),
        ("  \n\t ", "content is required"),
        (None, "content is required"),
        (123, "content is required"),
        ("a\x00b", None),
        ("lone \ud800 surrogate", None),
    ],
)
def test_empty_blank_and_unstorable_content(human, follower, content, error):
    # Raw JSON, so a lone surrogate travels as the escape a client would send.
    response = login_client(follower).post(
        f"/api/messages/conversations/{human.hex_id}",
        json.dumps({"content": content}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert set(response.json()) == {"error"} and response.json()["error"]
    if error:
        assert response.json()["error"] == error
    assert not Message.objects.exists()


def test_too_long(human, follower, settings):
    settings.STGY_MESSAGE_LENGTH_LIMIT = 10
    _refused(_send(follower, human.hex_id, "x" * 11), 400, "content is too long")
    # UTF-16 units, as posts count: five emoji are ten units.
    assert _send(follower, human.hex_id, "😀" * 5).status_code == 201
    assert Message.objects.get().content == "😀" * 5


def test_content_is_normalised_like_posts(human, follower):
    _send(follower, human.hex_id, "e\u0301 line  \r\nnext\n\n")
    assert Message.objects.get().content == "\u00e9 line\nnext"


def test_hourly_total_throttle_at_n_and_n_plus_one(human, settings):
    settings.STGY_HOURLY_MESSAGES_COUNT_LIMIT = 3
    settings.STGY_HOURLY_MESSAGES_TO_ONE_COUNT_LIMIT = 10
    sender = make_user("Chatty")
    people = [make_user(f"p{i}") for i in range(4)]
    for person in people[:3]:
        assert _send(sender, person.hex_id).status_code == 201
    response = _send(sender, people[3].hex_id)
    assert response.status_code == 403 and response.json() == {"error": "too often messages"}
    assert Message.objects.count() == 3


def test_hourly_per_recipient_throttle_at_n_and_n_plus_one(human, settings):
    settings.STGY_HOURLY_MESSAGES_TO_ONE_COUNT_LIMIT = 2
    sender = make_user("Chatty")
    other = make_user("Other")
    assert _send(sender, human.hex_id).status_code == 201
    assert _send(sender, human.hex_id).status_code == 201
    response = _send(sender, human.hex_id)
    assert response.status_code == 403
    assert response.json() == {"error": "too often messages to this user"}
    # Another person can still be written to, and the refusal used up nothing.
    assert _send(sender, other.hex_id).status_code == 201
    assert Message.objects.count() == 3


def test_ai_users_are_throttled_and_admins_are_not(human, ai_user, admin, settings):
    settings.STGY_HOURLY_MESSAGES_TO_ONE_COUNT_LIMIT = 1
    assert _send(ai_user, human.hex_id).status_code == 201
    assert _send(ai_user, human.hex_id).status_code == 403
    for _ in range(3):
        assert _send(admin, human.hex_id).status_code == 201


def test_ai_user_refused_when_the_person_turned_messages_off(human, ai_user):
    boundaries.ai_boundaries_update(human, human.id, allow_messages=False)
    _refused(_send(ai_user, human.hex_id), 403, "the user does not accept messages from AI users")
    # A human is not affected by the switch.
    assert _send(make_user("Person"), human.hex_id).status_code == 201


def test_ai_user_refused_after_a_stop(human, ai_user):
    other_ai = make_ai_user("Other AI")
    boundaries.ai_stop_add(human, ai_user.id)
    _refused(_send(ai_user, human.hex_id), 403, "the user asked this AI user to stop")
    assert _send(other_ai, human.hex_id).status_code == 201
