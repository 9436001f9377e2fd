"""Mutes on the pages (docs/mutes.md): Mute / Unmute on a profile, muted words and the
muted users on /settings; what is muted disappears from the muting person's pages only."""

from __future__ import annotations

import pytest

from sns.models.mutes import Mute
from tests.factories import make_post, make_user

from .conftest import text_of

pytestmark = pytest.mark.django_db


def test_mute_from_the_profile_hides_their_posts_and_unmute_from_settings(page_client):
    mina, chatty = make_user("Mina"), make_user("Chatty")
    make_post(chatty, "Chattyword endless thread")
    client = page_client(mina)
    profile = f"/users/{chatty.hex_id}"
    assert "Mute" in text_of(client.get(profile))
    assert "Chattyword" in text_of(client.get("/?tab=everyone"))
    client.post(f"{profile}/mute", {"next": profile})
    assert Mute.objects.filter(user=mina, target=chatty).exists()
    assert "Unmute" in text_of(client.get(profile))
    assert "Chattyword" not in text_of(client.get("/?tab=everyone"))
    assert "Chattyword" in text_of(page_client(chatty).get("/?tab=everyone"))  # nobody else is affected
    settings_page = text_of(client.get("/settings"))
    assert "Unmute Chatty" in settings_page
    client.post(f"{profile}/unmute", {"next": "/settings"})
    assert "Chattyword" in text_of(client.get("/?tab=everyone"))


def test_muted_words_from_settings(page_client):
    mina, kai = make_user("Mina"), make_user("Kai")
    make_post(kai, "The FINAL SCORE was close")
    make_post(kai, "Gardening notes")
    client = page_client(mina)
    response = client.post("/settings/muted-words", {"words": "final score\n\n  Spoiler "}, follow=True)
    assert "Muted words saved (2)." in text_of(response)
    assert "final score\nspoiler" in text_of(client.get("/settings"))
    timeline = text_of(client.get("/?tab=everyone"))
    assert "Gardening notes" in timeline and "FINAL SCORE" not in timeline


def test_too_many_muted_words_is_an_error_and_keeps_the_list(page_client):
    mina = make_user("Mina")
    client = page_client(mina)
    client.post("/settings/muted-words", {"words": "kept"})
    response = client.post("/settings/muted-words", {"words": "\n".join(f"w{i}" for i in range(101))}, follow=True)
    assert "too many muted words" in text_of(response)
    assert "kept" in text_of(client.get("/settings"))
