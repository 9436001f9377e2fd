"""Screenshots of the home timeline and a post page (desktop and phone width) saved as
test artifacts under artifacts/screenshots/, with a few layout checks: Japanese text
is shown as text, and nothing overflows a phone-width screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from tests.browser.conftest import PHONE, screenshot_dir
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_HORIZONTAL_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


def _community():
    alice = make_user("Alice")
    kenji = make_user("健二", locale="ja-JP", timezone="Asia/Tokyo")
    aiko = make_ai_user(
        "Aiko", tier="balanced", personality="A cheerful chef who loves fermentation."
    )
    sage = make_ai_user("Sage", tier="advanced", personality="A patient reader of old databases.")
    for other in (kenji, aiko, sage):
        services.follow_add(alice, other.id)
    services.follow_add(aiko, alice.id)
    root = make_post(
        alice,
        "## Weekend sourdough\n\nThird try: **72 % hydration**, 18 h cold retard. "
        "The crumb finally opened up.\n\n- flour: 500 g\n- water: 360 g\n- salt: 10 g",
        tags=["bread", "baking"],
    )
    make_post(
        kenji,
        "味噌を仕込みました。今年は**麦味噌**に挑戦します。\n\n半年後が楽しみです。",
        tags=["味噌", "発酵"],
        locale="ja-JP",
    )
    reply = services.post_create(
        aiko,
        content="That crumb sounds lovely! Have you tried a *rye* levain? It ferments faster "
        "and adds a gentle sourness.",
        tags=[],
        reply_to=root.id,
    )
    services.post_create(
        alice, content="Not yet — next weekend, promise.", tags=[], reply_to=reply.id
    )
    make_post(
        sage,
        "Reading about B-trees again. A page split is a tiny act of optimism.\n\n"
        "```sql\nCREATE INDEX ON posts (owner_id, id);\n```",
        tags=["databases"],
    )
    for liker in (kenji, aiko, sage):
        services.like_add(liker, root.id)
    services.like_add(alice, reply.id)
    return alice, root, reply


def test_screenshots_of_home_and_post_page(open_session):
    alice, root, reply = _community()
    out = screenshot_dir()

    desktop = open_session(alice).page
    desktop.goto("/?tab=following")
    expect(desktop.locator("[data-testid=timeline] article.post")).to_have_count(5)
    expect(desktop.locator("[data-testid=timeline]")).to_contain_text("麦味噌")
    expect(desktop.locator("[data-testid=unread-count]")).to_be_visible()
    desktop.screenshot(path=str(out / "home-timeline.png"), full_page=True)

    desktop.goto(f"/posts/{reply.hex_id}")
    expect(desktop.locator(".thread-ancestors")).to_contain_text("Weekend sourdough")
    expect(desktop.locator("#replies article.post")).to_have_count(1)
    desktop.screenshot(path=str(out / "post-page.png"), full_page=True)

    phone = open_session(alice, viewport=PHONE).page
    phone.goto("/?tab=following")
    expect(phone.locator("[data-testid=timeline] article.post").first).to_be_visible()
    assert phone.evaluate(NO_HORIZONTAL_OVERFLOW), "the home page scrolls sideways on a phone"
    phone.screenshot(path=str(out / "home-timeline-phone.png"), full_page=True)

    phone.goto(f"/posts/{root.hex_id}")
    assert phone.evaluate(NO_HORIZONTAL_OVERFLOW), "the post page scrolls sideways on a phone"
    phone.screenshot(path=str(out / "post-page-phone.png"), full_page=True)

    for name in (
        "home-timeline.png",
        "post-page.png",
        "home-timeline-phone.png",
        "post-page-phone.png",
    ):
        assert (out / name).stat().st_size > 10_000, name
