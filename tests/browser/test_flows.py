"""What a person does on STGY, in a real Chromium: sign up, post, reply, like, follow,
block; and what an AI user's page shows a human."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from sns import services
from sns.models import Like, Post, User
from tests.accounts.mailbox import code_sent_to
from tests.factories import PASSWORD, make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_log_out_and_log_in(open_session):
    page = open_session().page
    page.goto("/signup")
    page.fill("input[name=email]", "hanako@example.com")
    page.click("button:has-text('Send the verification code')")
    page.wait_for_url("**/signup/code")
    page.fill("input[name=code]", code_sent_to("hanako@example.com"))
    page.click("button:has-text('Continue')")
    page.wait_for_url("**/signup/finish")
    page.fill("input[name=nickname]", "花子 Hanako")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Sign up')")
    page.wait_for_url("**/")
    expect(page.locator(".nav-me")).to_have_text("花子 Hanako")

    user = User.objects.get(email="hanako@example.com")
    assert user.nickname == "花子 Hanako" and not user.is_ai
    # The sign-up form took the browser's language and time zone (static/stgy.js).
    assert user.locale == "en-US" and user.timezone

    page.click("button:has-text('Log out')")
    page.wait_for_url("**/login")
    page.goto("/")  # without a session, the landing page
    expect(page.locator("[data-testid=landing-signup]")).to_be_visible()
    page.click("main a:has-text('Log in')")
    page.wait_for_url("**/login")

    page.fill("input[name=email]", "hanako@example.com")
    page.fill("input[name=password]", "wrong password!")
    page.click("button:has-text('Log in')")
    # Beside the password, which is not kept; the address is.
    expect(page.locator("#id_password_error")).to_contain_text("not correct")
    expect(page.locator("input[name=email]")).to_have_value("hanako@example.com")
    expect(page.locator("input[name=password]")).to_have_value("")

    page.fill("input[name=email]", "HANAKO@example.com")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url("**/")
    expect(page.locator(".nav-me")).to_have_text("花子 Hanako")


def test_post_with_markdown_is_previewed_and_rendered(open_session):
    alice = make_user("Alice")
    page = open_session(alice).page
    text = (
        "## Fermentation notes\n\n"
        "Miso is **alive**, see [the guide](https://example.com/miso).\n\n- koji\n- 塩"
    )
    page.fill("textarea[name=content]", text)
    page.fill("input[name=tags]", "Food, miso")

    # The preview is the server's renderer, fetched by the small script.
    page.click("button:has-text('Preview')")
    preview = page.locator("[data-preview-target]")
    expect(preview.locator("strong")).to_have_text("alive")
    expect(preview.locator("h2")).to_have_text("Fermentation notes")
    page.click("button:has-text('Edit')")

    page.click("button:has-text('Post')")
    page.wait_for_url("**/")
    card = page.locator("article.post").first
    expect(card.locator(".post-body h2")).to_have_text("Fermentation notes")
    expect(card.locator(".post-body strong")).to_have_text("alive")
    expect(card.locator(".post-body li").nth(1)).to_have_text("塩")
    link = card.locator(".post-body a")
    expect(link).to_have_attribute("href", "https://example.com/miso")
    expect(link).to_have_attribute("rel", re.compile("nofollow"))
    expect(card.locator(".tags a")).to_have_text(["#food", "#miso"])

    post = Post.objects.get(owner=alice)
    assert post.content == text
    assert sorted(post.tags.values_list("name", flat=True)) == ["food", "miso"]


def test_reply_and_see_the_thread(open_session):
    alice, bob = make_user("Alice"), make_user("Bob")
    root = make_post(alice, "Which bread do you bake on weekends?")
    page = open_session(bob).page
    page.goto(f"/posts/{root.hex_id}")
    page.fill("textarea[name=content]", "Sourdough, *always*.")
    page.click("button:has-text('Reply')")

    reply = Post.objects.get(owner=bob)
    assert reply.reply_to == root.id
    page.wait_for_url(f"**/posts/{root.hex_id}#post-{reply.hex_id}")
    replies = page.locator("#replies article.post")
    expect(replies).to_have_count(1)
    expect(replies.first.locator(".post-body em")).to_have_text("always")
    expect(page.locator("#replies h2")).to_contain_text("1")

    # The reply's own page shows its ancestor above it.
    page.click(f"#post-{reply.hex_id} .thread-link")
    page.wait_for_url(f"**/posts/{reply.hex_id}")
    expect(page.locator(".thread-ancestors article.post")).to_contain_text("Which bread")
    expect(page.locator(".thread-focus article.post")).to_contain_text("Sourdough")


def test_like_and_unlike(open_session):
    alice, bob = make_user("Alice"), make_user("Bob")
    post = make_post(alice, "Like me if you can")
    page = open_session(bob).page
    page.goto(f"/posts/{post.hex_id}")
    card = page.locator(f"#post-{post.hex_id}")
    expect(card.locator(".like-count")).to_have_text("0")

    card.locator("button.like").click()
    expect(card.locator("button.like.liked .like-count")).to_have_text("1")
    assert Like.objects.filter(post=post, user=bob).exists()

    card.locator("button.like.liked").click()
    expect(card.locator("button.like:not(.liked) .like-count")).to_have_text("0")
    assert not Like.objects.filter(post=post, user=bob).exists()


def test_follow_and_see_the_post_in_following(open_session):
    alice, bob = make_user("Alice"), make_user("Bob")
    make_post(alice, "Only my followers see this in Following")
    page = open_session(bob).page
    page.goto("/?tab=following")
    expect(page.locator("[data-testid=timeline]")).not_to_contain_text("Only my followers")

    page.goto(f"/users/{alice.hex_id}")
    page.click("button:has-text('Follow')")
    expect(page.locator("button:has-text('Unfollow')")).to_be_visible()
    expect(page.locator(".profile .counts")).to_contain_text("1 followers")

    page.goto("/?tab=following")
    expect(page.locator("[data-testid=timeline]")).to_contain_text("Only my followers")


def test_block_refuses_the_reply(open_session):
    alice, mallory = make_user("Alice"), make_user("Mallory")
    post = make_post(alice, "Not for Mallory")
    page = open_session(mallory).page
    page.goto(f"/posts/{post.hex_id}")  # opened before the block

    alice_page = open_session(alice).page
    alice_page.goto(f"/users/{mallory.hex_id}")
    alice_page.click("a:has-text('Block')")  # the question first, on a page of its own
    alice_page.click("button:has-text('Block')")
    expect(alice_page.locator("button:has-text('Unblock')")).to_be_visible()

    # The reply Mallory writes on the page she still has open is refused by the rulebook.
    page.fill("textarea[name=content]", "Let me in")
    page.click("button:has-text('Reply')")
    expect(page.locator(".message.error")).to_have_text("blocked by the owner")
    assert not Post.objects.filter(owner=mallory).exists()
    # And the blocker's post is hidden from her now (the one visibility rule).
    assert page.goto(f"/posts/{post.hex_id}").status == 404


def test_ai_user_has_a_badge_and_its_memory_is_closed_to_humans(open_session):
    aiko = make_ai_user(
        "Aiko", tier="advanced", personality="SECRET-PERSONALITY: a fermentation nerd"
    )
    make_post(aiko, "Today I tasted a three-year miso.")
    human = make_user("Alice")
    page = open_session(human).page

    page.goto("/?tab=everyone")
    badge = page.locator("article.post .badge.ai").first
    expect(badge).to_contain_text("AI")
    expect(badge).to_contain_text("advanced")

    page.goto(f"/users/{aiko.hex_id}")
    expect(page.locator(".profile .badge.ai")).to_contain_text("AI · advanced")
    expect(page.locator("body")).not_to_contain_text("SECRET-PERSONALITY")
    expect(page.locator("a:has-text('AI memory')")).to_have_count(0)

    response = page.goto(f"/users/{aiko.hex_id}/memory")
    assert response.status == 403
    expect(page.locator("h1")).to_have_text("Not allowed")

    # The AI user itself sees its personality and its memory.
    services.user_update(aiko, aiko.id, introduction="I write about miso.")
    own = open_session(aiko).page
    own.goto(f"/users/{aiko.hex_id}")
    expect(own.locator(".personality")).to_contain_text("SECRET-PERSONALITY")
    own.click("a:has-text('AI memory')")
    expect(own.locator("h1")).to_contain_text("AI memory")


def test_related_posts_box_arrives_after_the_page(open_session, settings):
    from agents.summaries.service import summary_generate

    settings.STGY_AI_PROVIDER = "offline"
    alice, bob = make_user("Alice"), make_user("Bob")
    target = make_post(alice, "Jupiter and its four moons in the telescope tonight.", tags=["sky"])
    near = make_post(bob, "Saturn's rings in a small telescope, planets at night.", tags=["sky"])
    for post in (target, near):
        assert summary_generate(post.id) == "done"
    page = open_session(alice).page
    page.goto(f"/posts/{target.hex_id}")
    # No ranking was cached, so the page came without the box and the script loads it.
    box = page.locator("aside.related")
    expect(box).to_contain_text("Saturn's rings")
    expect(box.locator(f"a[href='/posts/{near.hex_id}']")).to_have_count(1)
