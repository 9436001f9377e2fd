"""A direct message in a real Chromium: one person writes from the other's profile,
the other sees it in their inbox (with the header count) and reads it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_message_reaches_the_other_persons_inbox(open_session):
    alice = make_user("Alice")
    bob = make_user("Bob")
    services.follow_add(bob, alice.id)  # Bob follows Alice: her message is not a request

    page = open_session(alice).page
    page.goto(f"/users/{bob.hex_id}")
    page.get_by_role("link", name="Message", exact=True).click()
    page.wait_for_url(f"**/messages/{bob.hex_id}")
    page.get_by_label("Message to Bob").fill("Hi **Bob**, tea on Friday?")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_test_id("thread")).to_contain_text("tea on Friday?")

    other = open_session(bob).page
    other.goto("/")
    expect(other.get_by_test_id("unread-messages")).to_have_text("1")
    other.click(".nav-messages")
    expect(other.get_by_test_id("conversations")).to_contain_text("Alice")
    expect(other.get_by_test_id("inbox-unread")).to_have_text("1")
    other.get_by_role("link", name="Hi **Bob**, tea on Friday?").click()
    expect(other.locator(".dm-body strong")).to_have_text("Bob")
    expect(other.get_by_test_id("unread-messages")).to_have_count(0)
