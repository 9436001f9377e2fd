"""The AI boundaries on pages: the settings switches, "Stop this AI user" on a profile
and on an AI-written message, and undo from the settings page."""

from __future__ import annotations

import re
from datetime import time

import pytest

from sns.models import AiStop
from sns.selectors.boundaries import ai_boundaries_get, ai_contact_allowed
from sns.services import messages as dm
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def test_settings_switches(page_client, human):
    client = page_client(human)
    body = text_of(client.get("/settings"))
    for label in (
        "AI users may reply to me",
        "AI users may mention me",
        "AI users may send me messages",
    ):
        assert label in body
    assert body.count("checked") >= 3  # all on by default
    response = client.post("/settings/ai-boundaries", {"ai-allow_replies": "on"})
    assert response["Location"] == "/settings"
    current = ai_boundaries_get(human.id)
    assert current.allow_replies and not current.allow_mentions and not current.allow_messages
    body = text_of(client.get("/settings"))
    assert re.search(r'name="ai-allow_replies" id="[^"]+" checked', body)
    assert not re.search(r'name="ai-allow_messages" id="[^"]+" checked', body)


def test_stop_from_a_profile_and_undo_from_settings(page_client, human, ai_user):
    client = page_client(human)
    profile = text_of(client.get(f"/users/{ai_user.hex_id}"))
    assert "Stop this AI user" in profile and '<label for="stop-duration">' in profile
    assert f'name="next" value="/users/{ai_user.hex_id}"' in profile
    response = client.post(
        f"/users/{ai_user.hex_id}/stop-ai",
        {"duration": "forever", "next": f"/users/{ai_user.hex_id}"},
    )
    assert response["Location"] == f"/users/{ai_user.hex_id}"
    assert AiStop.objects.get().until is None
    assert "for good" in text_of(client.get(f"/users/{ai_user.hex_id}"))
    assert ai_contact_allowed(ai_user, human, "reply")[0] is False

    settings_page = text_of(client.get("/settings"))
    assert "Aiko" in settings_page and f"/settings/ai-stops/{ai_user.hex_id}/undo" in settings_page
    client.post(f"/settings/ai-stops/{ai_user.hex_id}/undo")
    assert not AiStop.objects.exists()
    assert ai_contact_allowed(ai_user, human, "reply") == (True, "")


def test_stop_from_an_ai_written_message(page_client, human, ai_user, follower):
    dm.message_send(ai_user, human.id, content="hello from a model")
    dm.message_send(follower, human.id, content="hello from a person")
    client = page_client(human)
    assert "Stop this AI user" in text_of(client.get(f"/messages/{ai_user.hex_id}"))
    assert "Stop this AI user" not in text_of(client.get(f"/messages/{follower.hex_id}"))
    response = client.post(
        f"/users/{ai_user.hex_id}/stop-ai",
        {"duration": "48h", "next": f"/messages/{ai_user.hex_id}"},
    )
    assert response["Location"] == f"/messages/{ai_user.hex_id}"
    assert AiStop.objects.get().until is not None


def test_stopping_a_human_is_refused(page_client, human, follower):
    response = page_client(human).post(
        f"/users/{follower.hex_id}/stop-ai", {"duration": "48h"}, follow=True
    )
    assert not AiStop.objects.exists()
    assert "not an AI user" in text_of(response)


def test_quiet_hours_on_the_settings_page(page_client, human):
    client = page_client(human)
    body = text_of(client.get("/settings"))
    assert "Quiet hours from" in body and "In your time zone (UTC)" in body
    form = {"ai-allow_replies": "on", "ai-allow_mentions": "on", "ai-allow_messages": "on"}
    response = client.post("/settings/ai-boundaries", {**form, "ai-quiet_start": "21:00", "ai-quiet_end": "06:00:00"})
    assert response["Location"] == "/settings"
    assert (ai_boundaries_get(human.id).quiet_start, ai_boundaries_get(human.id).quiet_end) == (time(21), time(6))
    assert 'value="21:00"' in text_of(client.get("/settings"))
    # Bad input: the page says why and nothing changes.
    client.post("/settings/ai-boundaries", {**form, "ai-quiet_start": "21:00", "ai-quiet_end": ""})
    assert "must both be set or both be null" in text_of(client.get("/settings"))
    assert ai_boundaries_get(human.id).quiet_end == time(6)
    client.post("/settings/ai-boundaries", form)  # both empty: none
    assert ai_boundaries_get(human.id).quiet_start is None
