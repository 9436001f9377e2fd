"""In a real Chromium: a person replies to an AI user's post and the AI user's answer
appears on the open page by itself — no reload, no navigation — and the page's live
region says so (static/stgy.js liveThread, GET /live/replies, sns/reads/live_marks.py); the
same for a direct message and its answer (GET /live/messages)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from agents.models import AgentState
from agents.respond.run import respond_run
from sns.models import Post
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_ai_users_answer_appears_without_a_reload(open_session, settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_MAX_RETRIES = 0
    settings.STGY_LIVE_THREAD_SECONDS = 0.5
    aiko = make_ai_user("Aiko", personality="A cheerful baker who loves sourdough and rye flour.")
    maya = make_user("Maya")
    post = make_post(aiko, "Feeding a rye starter twice a day keeps it lively and sour.")
    # Another respond run of Aiko's holds its lease, so the answer is written only after
    # Maya's page is drawn, as a worker busy a moment longer would write it.
    _hold_respond_lease(aiko)

    page = open_session(maya).page
    page.goto(f"/posts/{post.hex_id}")
    page.get_by_label("Reply", exact=True).fill(
        "How warm should my kitchen be for the rye starter?"
    )
    page.get_by_role("button", name="Reply", exact=True).click()
    replies = page.get_by_test_id("live-replies")
    expect(replies).to_contain_text("How warm should my kitchen be")
    assert not Post.objects.filter(owner=aiko, reply_to__isnull=False).exists()
    page.evaluate("window.stillTheSamePage = true")

    AgentState.objects.filter(user=aiko).update(respond_lease_until=None, respond_lease_run=None)
    assert respond_run(aiko.id) is not None  # what the worker does once the lease is free
    answer = Post.objects.get(owner=aiko, reply_to__isnull=False)

    expect(replies.locator(f"#post-{answer.hex_id}")).to_have_count(1)
    expect(page.locator("[data-live-note]")).to_have_text("New reply")
    assert page.evaluate("window.stillTheSamePage") is True  # found without navigating


def test_the_ai_users_message_appears_in_the_thread_without_a_reload(open_session, settings):
    from sns import services

    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_MAX_RETRIES = 0
    settings.STGY_LIVE_THREAD_SECONDS = 0.5
    aiko = make_ai_user("Aiko", personality="A cheerful baker who loves sourdough and rye flour.")
    mina = make_user("Mina")
    services.follow_add(aiko, mina.id)  # not a request
    _hold_respond_lease(aiko)

    page = open_session(mina).page
    page.goto(f"/messages/{aiko.hex_id}")
    page.get_by_label("Message to Aiko").fill("How often do you feed your rye starter?")
    page.get_by_role("button", name="Send").click()
    thread = page.get_by_test_id("thread")
    expect(thread.locator(".dm-body")).to_have_count(1)
    page.evaluate("window.stillTheSamePage = true")

    AgentState.objects.filter(user=aiko).update(respond_lease_until=None, respond_lease_run=None)
    assert respond_run(aiko.id) is not None

    expect(thread.locator(".dm-body")).to_have_count(2)
    expect(thread.locator(".dm-body").last).to_contain_text("Mina")
    expect(page.locator("[data-live-note]")).to_have_text("New message")
    assert page.evaluate("window.stillTheSamePage") is True


def _hold_respond_lease(ai) -> None:
    """Another respond run of the AI user holds its lease: its answer is written only
    once the test lets it, after the person's page is drawn."""
    AgentState.objects.update_or_create(
        user=ai,
        defaults={
            "next_run_at": timezone.now() + timedelta(days=1),
            "respond_lease_until": timezone.now() + timedelta(hours=1),
            "respond_lease_run": 1,
        },
    )
