"""In a real browser: a person blocks another from their profile (the page asks first),
and the blocked person's posts and replies are gone from every page type — both home
tabs, a post page's thread, search, notifications and the profile's post list — and
the blocked person no longer sees the blocker's posts (sns/selectors/visibility.py)."""

from __future__ import annotations

import pytest
from django.test import TestCase
from playwright.sync_api import expect

from sns import services
from tests.factories import make_post, make_user

from .conftest import screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _scene():
    mina, nova, kai = make_user("Mina"), make_user("Nova Pell"), make_user("Kai")
    services.follow_add(mina, nova.id)
    services.follow_add(mina, kai.id)
    kai_root = make_post(kai, "Kai asks about sourdough starters")
    with TestCase.captureOnCommitCallbacks(execute=True):
        make_post(nova, "Novaword thoughts on bread crusts")
        make_post(nova, "Novaword reply under Kai", reply_to=kai_root.id)
        mine = make_post(mina, "Minaword notes on rye")
        services.like_add(nova, mine.id)
    return mina, nova, kai_root, mine


def _pages(kai_root, person):
    return {
        "home, Following": "/?tab=following",
        "home, Everyone": "/?tab=everyone",
        "post page thread": f"/posts/{kai_root.hex_id}",
        "search": "/search?q=bread" if person.nickname.startswith("Nova") else "/search?q=rye",
        "notifications": "/notifications",
        "profile": f"/users/{person.hex_id}",
    }


def test_after_blocking_the_blocked_users_posts_are_gone_from_every_page_type(open_session):
    mina, nova, kai_root, mine = _scene()
    session = open_session(mina)
    page = session.page
    main = page.locator("main")
    for name, path in _pages(kai_root, nova).items():
        page.goto(path)
        if name == "notifications":
            expect(main, name).to_contain_text("Nova Pell")
        else:
            expect(main, name).to_contain_text("Novaword")

    page.goto(f"/users/{nova.hex_id}")
    page.get_by_role("link", name="Block", exact=True).click()
    expect(page.get_by_role("heading", name="Block Nova Pell?")).to_be_visible()
    page.get_by_role("button", name="Block", exact=True).click()
    expect(page.get_by_role("button", name="Unblock")).to_be_visible()

    for name, path in _pages(kai_root, nova).items():
        page.goto(path)
        expect(main, name).to_be_visible()
        expect(main, name).not_to_contain_text("Novaword")
        if name == "notifications":
            expect(main, name).not_to_contain_text("Nova Pell")
        if name == "post page thread":
            expect(main).to_contain_text("Kai asks about sourdough starters")
    page.goto("/?tab=everyone")
    page.screenshot(path=str(screenshot_dir() / "block-hides-everyone-tab.png"), full_page=True)

    # The blocked person, for their part, no longer sees the blocker's posts.
    other = open_session(nova).page
    for name, path in _pages(kai_root, mina).items():
        if name == "notifications":
            continue
        other.goto(path)
        expect(other.locator("main"), name).not_to_contain_text("Minaword")
    assert other.goto(f"/posts/{mine.hex_id}").status == 404
