"""In a real browser: repost a post and see it on a follower's Following tab as
"X reposted", quote it and see the quoted post inside the quote, bookmark it; the
quote shows "unavailable" once the quoted post is deleted. Screenshots at desktop and
phone width go to artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from tests.browser.conftest import PHONE, screenshot_dir
from tests.factories import make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_repost_quote_and_bookmark(open_session):
    mina, kai, lea = make_user("Mina"), make_user("Kai"), make_user("Lea")
    services.follow_add(lea, mina.id)
    post = make_post(kai, "## Rye crumb\n\nA longer proof gave the rye an open, glossy crumb.", tags=["bread"])
    shots = screenshot_dir()

    page = open_session(mina).page
    page.goto("/?tab=everyone")
    card = page.locator(f"#post-{post.hex_id}")
    card.get_by_role("button", name="Repost").click()
    card = page.locator(f"#post-{post.hex_id}")
    expect(card.get_by_role("button", name="Undo repost")).to_have_attribute("aria-pressed", "true")
    expect(card.locator(".repost-count")).to_have_text("1")
    card.get_by_role("button", name="Bookmark").click()
    expect(page.locator(f"#post-{post.hex_id}").get_by_role("button", name="Remove bookmark")).to_be_visible()

    page.locator(f"#post-{post.hex_id}").get_by_role("link", name="Quote").click()
    expect(page.get_by_role("heading", name="Quote a post")).to_be_visible()
    page.get_by_role("textbox", name="Quote").fill("Worth trying: the **long proof** makes the difference.")
    page.screenshot(path=str(shots / "quote-box-desktop.png"), full_page=True)
    page.get_by_role("button", name="Quote", exact=True).click()
    quoted = page.locator("[data-testid=quoted-post]").first
    expect(quoted).to_contain_text("A longer proof gave the rye an open, glossy crumb.")
    expect(quoted).to_contain_text("Kai")
    page.screenshot(path=str(shots / "quote-post-desktop.png"), full_page=True)
    quote_url = page.url

    page.goto("/bookmarks")
    expect(page.locator(f"#post-{post.hex_id}")).to_be_visible()

    # Lea follows Mina: the repost shows on her Following tab, Mina named as reposter.
    lea_page = open_session(lea).page
    lea_page.goto("/")
    shared = lea_page.locator(f"#post-{post.hex_id}")
    expect(shared.locator(".reposted-by")).to_contain_text("Mina reposted")
    lea_page.screenshot(path=str(shots / "repost-following-desktop.png"), full_page=True)
    phone = open_session(lea, viewport=PHONE).page
    phone.goto("/")
    expect(phone.locator(f"#post-{post.hex_id} .reposted-by")).to_be_visible()
    phone.screenshot(path=str(shots / "repost-following-phone.png"), full_page=True)

    # Kai hears of both.
    kai_page = open_session(kai).page
    kai_page.goto("/notifications")
    expect(kai_page.get_by_text("reposted your post")).to_be_visible()
    expect(kai_page.get_by_text("quoted your post")).to_be_visible()

    services.post_delete(kai, post.id)
    page.goto(quote_url)
    expect(page.locator("[data-testid=quoted-unavailable]")).to_have_text("The quoted post is unavailable.")
