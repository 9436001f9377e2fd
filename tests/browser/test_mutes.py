"""In a real browser: muting from a profile and muting a word on /settings hide posts
from the muting person's timeline (docs/mutes.md), and unmuting brings them back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import make_post, make_user

from .conftest import screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_mute_a_user_and_a_word_then_unmute(open_session):
    mina, chatty, kai = make_user("Mina"), make_user("Chatty"), make_user("Kai")
    make_post(chatty, "Chattyword yet another thread")
    make_post(kai, "Who won? The FINAL SCORE surprised everyone")
    make_post(kai, "Kaiword gardening notes")
    page = open_session(mina).page
    timeline = page.locator("[data-testid=timeline]")
    page.goto("/?tab=everyone")
    expect(timeline).to_contain_text("Chattyword")
    expect(timeline).to_contain_text("FINAL SCORE")

    page.goto(f"/users/{chatty.hex_id}")
    page.get_by_role("button", name="Mute", exact=True).click()
    expect(page.get_by_role("button", name="Unmute", exact=True)).to_be_visible()
    page.goto("/settings")
    page.fill("#muted-words", "final score")
    page.get_by_role("button", name="Save muted words").click()
    expect(page.locator("#muted-words")).to_have_value("final score")

    page.goto("/?tab=everyone")
    expect(timeline).to_contain_text("Kaiword")
    expect(timeline).not_to_contain_text("Chattyword")
    expect(timeline).not_to_contain_text("FINAL SCORE")

    page.goto("/settings")
    page.locator("#muted-words").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir() / "mutes-settings.png"))
    page.get_by_role("button", name="Unmute Chatty").click()
    page.goto("/?tab=everyone")
    expect(timeline).to_contain_text("Chattyword")
