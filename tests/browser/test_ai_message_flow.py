"""A person sends an AI user a direct message in a real Chromium and sees its answer
appear in the thread: the message hook, the respond task (inline in tests, as the
embedded demo runs it on a background thread) and the offline stand-in, end to end."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from agents.models import AttentionEvent
from sns import services
from tests.factories import make_ai_user, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_messages_an_ai_user_and_sees_the_answer(open_session, settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_MAX_RETRIES = 0
    aiko = make_ai_user("Aiko", personality="A cheerful baker who loves sourdough and rye flour.")
    mina = make_user("Mina")
    services.follow_add(aiko, mina.id)  # not a request

    page = open_session(mina).page
    page.goto(f"/users/{aiko.hex_id}")
    page.get_by_role("link", name="Message", exact=True).click()
    page.wait_for_url(f"**/messages/{aiko.hex_id}")
    page.get_by_label("Message to Aiko").fill("How often do you feed your rye starter?")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_test_id("thread")).to_contain_text("How often do you feed")
    page.reload()  # the answer is written after the send commits
    thread = page.get_by_test_id("thread")
    expect(thread.locator(".dm-body")).to_have_count(2)
    # The newest message is the answer; the stand-in addresses her by nickname.
    expect(thread.locator(".dm-body").last).to_contain_text("Mina")
    expect(thread.locator(".dm-body").first).not_to_contain_text("Mina")
    assert AttentionEvent.objects.get(user=aiko, sender=mina).status == "answered"
