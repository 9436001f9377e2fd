"""In a real browser: a link to a reply folded deep in a thread opens the folds around
it and the reply is shown highlighted (:target); without the link the folds stay shut."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from tests.factories import make_post, make_user

from .conftest import screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_linked_deep_reply_is_unfolded_and_highlighted(open_session):
    mina, kai = make_user("Mina"), make_user("Kai")
    root = make_post(mina, "Root of the thread")
    parent = root
    chain = []
    for i in range(4):
        parent = services.post_create(kai if i % 2 == 0 else mina, content=f"Level {i + 1}", tags=[], reply_to=parent.id)
        chain.append(parent)
    deep = chain[3]
    page = open_session(mina).page
    page.goto(f"/posts/{root.hex_id}")
    expect(page.locator(f"#post-{chain[0].hex_id}")).to_be_visible()
    expect(page.locator(f"#post-{deep.hex_id}")).to_be_hidden()
    page.goto(f"/posts/{root.hex_id}#post-{deep.hex_id}")
    card = page.locator(f"#post-{deep.hex_id}")
    expect(card).to_be_visible()
    outline = card.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid"


def test_the_compose_box_counts_characters_up_to_the_limit(open_session, settings):
    settings.STGY_CONTENT_LENGTH_LIMIT = 50
    page = open_session(make_user("Mina")).page
    page.goto("/")
    box = page.locator("textarea[data-limit]").first
    counter = page.locator(".char-counter").first
    expect(counter).to_have_text("0 / 50 characters")
    box.fill("Rye")
    expect(counter).to_have_text("3 / 50 characters")
    box.fill("x" * 80)  # the browser stops at the limit
    expect(counter).to_have_text("50 / 50 characters")
    assert "near" in counter.get_attribute("class")
    assert counter.get_attribute("id") in box.get_attribute("aria-describedby")


def test_new_posts_and_counts_appear_without_a_reload(open_session, settings):
    settings.STGY_LIVE_POLL_SECONDS = 0.5
    mina, kai = make_user("Mina"), make_user("Kai")
    services.follow_add(mina, kai.id)
    make_post(kai, "Already there")
    page = open_session(mina).page
    page.goto("/?tab=following")
    banner = page.locator("[data-new-posts]")
    expect(banner).to_be_hidden()
    make_post(kai, "Fresh from Kai")
    services.like_add(kai, make_post(mina, "Like this").id)
    expect(banner).to_be_visible(timeout=10_000)
    expect(banner).to_contain_text("2 new posts — show")
    expect(page.locator("[data-testid=unread-count]")).to_have_text("1")
    page.screenshot(path=str(screenshot_dir() / "new-posts-indicator.png"))
    banner.locator("a").click()
    expect(page.locator("[data-testid=timeline]")).to_contain_text("Fresh from Kai")


def test_older_posts_load_on_scroll(open_session):
    mina = make_user("Mina")
    for i in range(45):
        make_post(mina, f"Numbered post {i}")
    page = open_session(mina).page
    page.goto("/?tab=everyone")
    posts = page.locator("[data-testid=timeline] > article.post")
    first_page = posts.count()
    assert 0 < first_page < 45
    page.mouse.wheel(0, 100_000)
    expect(posts).not_to_have_count(first_page, timeout=10_000)
