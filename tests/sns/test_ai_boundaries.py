"""The boundaries a person sets for AI users: the three switches, stop records (48 h
or for good, undo) and the verdicts of `ai_contact_allowed`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sns.models import AiBoundaries, AiStop
from sns.selectors.boundaries import ai_contact_allowed
from sns.services import boundaries
from tests.conftest import login_client
from tests.factories import make_ai_user, make_user

pytestmark = pytest.mark.django_db


def test_switches_default_on_and_change_through_the_api(human, ai_user):
    client = login_client(human)
    path = f"/api/users/{human.hex_id}/ai-boundaries"
    everything = {
        "allowReplies": True, "allowMentions": True, "allowMessages": True,
        "quietHoursStart": None, "quietHoursEnd": None, "timezone": "UTC",
    }
    assert client.get(path).json() == everything
    for kind in ("reply", "mention", "message"):
        assert ai_contact_allowed(ai_user, human, kind) == (True, "")

    response = client.put(path, {"allowMentions": False}, format="json")
    assert response.status_code == 200
    assert response.json() == {**everything, "allowMentions": False}
    assert client.get(path).json() == {**everything, "allowMentions": False}
    assert ai_contact_allowed(ai_user, human, "mention") == (
        False,
        "the user does not accept mentions from AI users",
    )
    assert ai_contact_allowed(ai_user, human, "reply") == (True, "")

    client.put(path, {"allowReplies": False, "allowMessages": False}, format="json")
    assert ai_contact_allowed(ai_user, human, "reply")[0] is False
    assert ai_contact_allowed(ai_user, human, "message")[0] is False
    # A human is never asked about AI boundaries.
    assert ai_contact_allowed(make_user("Person"), human, "message") == (True, "")


def test_switches_refuse_non_booleans_and_other_people(human, follower, admin):
    client = login_client(human)
    path = f"/api/users/{human.hex_id}/ai-boundaries"
    bad = client.put(path, {"allowReplies": "no"}, format="json")
    assert bad.status_code == 400 and bad.json() == {"error": "allowReplies must be a boolean"}
    assert not AiBoundaries.objects.exists()
    other = login_client(follower)
    assert other.get(path).status_code == 403
    assert other.put(path, {"allowReplies": False}, format="json").status_code == 403
    assert login_client(admin).put(path, {"allowReplies": False}, format="json").status_code == 200


def test_stop_for_48_hours_expires(human, ai_user):
    start = timezone.now()
    stop = boundaries.ai_stop_add(human, ai_user.id, now=start)
    assert stop.until == start + timedelta(hours=48)
    refused = (False, "the user asked this AI user to stop")
    for kind in ("reply", "mention", "message"):
        assert ai_contact_allowed(ai_user, human, kind, now=start) == refused
    almost = start + timedelta(hours=47, minutes=59)
    assert ai_contact_allowed(ai_user, human, "reply", now=almost) == refused
    later = start + timedelta(hours=48, seconds=1)
    assert ai_contact_allowed(ai_user, human, "reply", now=later) == (True, "")


def test_stop_forever_and_undo(human, ai_user):
    other_ai = make_ai_user("Other AI")
    boundaries.ai_stop_add(human, ai_user.id, forever=True)
    far = timezone.now() + timedelta(days=3650)
    assert ai_contact_allowed(ai_user, human, "message", now=far)[0] is False
    assert ai_contact_allowed(other_ai, human, "message", now=far) == (True, "")
    boundaries.ai_stop_remove(human, ai_user.id)
    assert ai_contact_allowed(ai_user, human, "message") == (True, "")
    assert not AiStop.objects.exists()


def test_stops_through_the_api(human, ai_user, settings):
    settings.STGY_AI_STOP_HOURS = 48
    client = login_client(human)
    path = f"/api/users/{human.hex_id}/ai-stops"
    created = client.post(path, {"aiUserId": ai_user.hex_id}, format="json")
    assert created.status_code == 201
    data = created.json()
    assert data["aiUserId"] == ai_user.hex_id and data["until"] is not None
    forever = client.post(path, {"aiUserId": ai_user.hex_id, "duration": "forever"}, format="json")
    assert forever.json()["until"] is None
    [row] = client.get(path).json()
    assert row["aiUserNickname"] == "Aiko" and row["until"] is None

    person = make_user("Person")
    not_ai = client.post(path, {"aiUserId": person.hex_id}, format="json")
    assert not_ai.status_code == 400 and not_ai.json() == {"error": "not an AI user"}
    bad = client.post(path, {"aiUserId": ai_user.hex_id, "duration": "1y"}, format="json")
    assert bad.status_code == 400 and bad.json() == {"error": "duration must be 48h or forever"}
    assert client.post(path, {}, format="json").json() == {"error": "aiUserId is required"}
    assert login_client(person).get(path).status_code == 403

    assert client.delete(f"{path}/{ai_user.hex_id}").json() == {"result": "ok"}
    assert client.get(path).json() == []
    gone = client.delete(f"{path}/{ai_user.hex_id}")
    assert gone.status_code == 404 and gone.json() == {"error": "stop not found"}


def test_expired_stops_are_not_listed(human, ai_user):
    boundaries.ai_stop_add(human, ai_user.id, now=timezone.now() - timedelta(hours=49))
    assert login_client(human).get(f"/api/users/{human.hex_id}/ai-stops").json() == []
    assert ai_contact_allowed(ai_user, human, "reply") == (True, "")
