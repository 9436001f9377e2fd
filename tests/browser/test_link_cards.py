"""Link cards in a real Chromium: a post's card is a placeholder in the page's HTML and
static/stgy-links.js fills it in from POST /api/link-snippets/resolve (under the page's
CSP: no inline script); a second visit gets the card from the server's cache. Leaves
artifacts/screenshots/post-image-avatar-link-card.png: a post with an uploaded image, the
author's uploaded avatar and a link card."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import expect

from tests.browser.conftest import screenshot_dir
from tests.conftest import login_client
from tests.factories import make_post, make_user
from tests.linksnippets.conftest import Handler, site  # noqa: F401 - a fixture
from tests.media.conftest import _media_dir  # noqa: F401 - an autouse fixture: the local store
from tests.media.flow import full_flow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _picture(size, colors) -> bytes:
    image = Image.new("RGB", size, colors[0])
    draw = ImageDraw.Draw(image)
    w, h = size
    draw.ellipse((w * 0.15, h * 0.2, w * 0.55, h * 0.85), fill=colors[1])
    draw.rectangle((w * 0.6, h * 0.35, w * 0.9, h * 0.8), fill=colors[2])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_a_post_with_an_image_an_avatar_and_a_link_card(open_session, site):  # noqa: F811
    alice = make_user("Alice")
    client = login_client(alice)
    avatar = full_flow(client, alice, _picture((256, 256), ["#f4b400", "#ffffff", "#db4437"]),
                       "me.png", kind="avatar")
    assert avatar.status_code == 200, avatar.content
    image = full_flow(client, alice, _picture((640, 400), ["#3b82f6", "#fde68a", "#065f46"]),
                      "garden.png")
    assert image.status_code == 200, image.content
    post = make_post(alice, "## Garden notes\n\nThe beans are up.\n\n"
                     f"![My garden](/images/{image.json()['key']})\n\n"
                     f"%[]({site}/article)")

    page = open_session(alice).page
    page.goto(f"/posts/{post.hex_id}")
    card = page.locator(f"article#post-{post.hex_id} .stgy-link-snippet").first
    expect(card).to_have_attribute("data-link-snippet", "ready")
    expect(card.locator(".stgy-link-snippet-title")).to_have_text("The & Open Graph title")
    expect(card.locator(".stgy-link-snippet-site-name")).to_have_text("Example Site")
    expect(card.locator(".stgy-link-snippet-description")).to_have_text("OG description")
    body_image = page.locator(".post-body img[alt='My garden']")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=body_image.element_handle())
    avatar_image = page.locator(f"article#post-{post.hex_id} img.avatar").first
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=avatar_image.element_handle())
    page.locator(f"article#post-{post.hex_id}").screenshot(
        path=str(screenshot_dir() / "post-image-avatar-link-card.png"))
    assert Handler.counts["/article"] == 1

    # The next visit is drawn by the server from the cache; nothing is fetched again.
    page.reload()
    expect(page.locator(f"article#post-{post.hex_id} [data-link-snippet=ready]")).to_have_count(1)
    assert Handler.counts["/article"] == 1


def test_a_plain_link_gets_a_card_only_when_its_page_has_one(open_session, site):  # noqa: F811
    alice = make_user("Alice")
    good = make_post(alice, f"Worth reading: [this]({site}/twitter)")
    broken = make_post(alice, f"Gone: [that]({site}/gone)")
    page = open_session(alice).page
    page.goto("/")
    expect(page.locator(f"#post-{good.hex_id} [data-link-snippet=ready] .stgy-link-snippet-title")
           ).to_have_text("Tweet title")
    expect(page.locator(f"#post-{broken.hex_id} .link-cards")).to_have_count(0)
    assert Handler.counts["/gone"] == 1


def test_a_card_still_being_fetched_is_asked_for_again(open_session, site, settings):  # noqa: F811
    """The fetch is a task (here on the server's background threads): the first answer
    is `pending`, and static/stgy-links.js asks again until the card is there."""
    settings.STGY_EAGER_TASKS_INLINE = False
    settings.STGY_LINK_SNIPPET_WAIT_MS = 100  # the page takes a second
    alice = make_user("Alice")
    post = make_post(alice, f"%[]({site}/late)")
    page = open_session(alice).page
    page.goto(f"/posts/{post.hex_id}")
    card = page.locator(f"article#post-{post.hex_id} .stgy-link-snippet").first
    expect(card).to_have_attribute("data-link-snippet", "ready", timeout=15_000)
    expect(card.locator(".stgy-link-snippet-title")).to_have_text("The & Open Graph title")
    assert Handler.counts["/late"] == 1
