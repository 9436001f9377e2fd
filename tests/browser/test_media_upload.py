"""Images in a real Chromium (docs/media.md): pick or drop a file in the compose box,
the presigned flow runs (static/stgy-upload.js), and the posted post shows the image;
an avatar chosen on the settings page shows on the profile."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from sns.models import Post, User
from sns.models.media import MediaImage
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _media_dir(settings, tmp_path):
    settings.STGY_STORAGE_DRIVER = "local"
    settings.STGY_MEDIA_DIR = tmp_path / "media"
    settings.STGY_STORAGE_PUBLIC_URL_PREFIX = "/storage/{bucket}/"


def _png(size=(120, 80), color=(30, 160, 90)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()


def _posted_image(page, alt: str):
    card = page.locator("article.post").first
    image = card.locator(f".post-body img[alt='{alt}']")
    expect(image).to_have_attribute("loading", "lazy")
    # Loaded from the store, not a broken icon.
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    return image


def test_pick_a_file_in_the_compose_box_and_post_it(open_session):
    alice = make_user("Alice")
    page = open_session(alice).page
    zone = page.locator("[data-testid=image-upload]")
    expect(zone).to_be_visible()
    zone.locator("input[type=file]").set_input_files(
        {"name": "garden.png", "mimeType": "image/png", "buffer": _png()}
    )
    expect(zone.locator("[data-upload-status]")).to_have_text("Uploaded garden.png")
    textarea = page.locator("textarea[name=content]")
    expect(textarea).to_have_value(__import__("re").compile(r"!\[garden\]\(/images/[0-9A-F]{16}/masters/"))
    textarea.press("End")
    textarea.type("My garden today.")
    page.click("button:has-text('Post')")
    page.wait_for_url("**/")
    image = _posted_image(page, "garden")
    expect(image).to_have_attribute("width", "120")
    expect(image).to_have_attribute("height", "80")
    post = Post.objects.get(owner=alice)
    assert "](/images/" in post.content and MediaImage.objects.filter(owner=alice).count() == 1


def test_drop_a_file_on_the_compose_box(open_session):
    alice = make_user("Alice")
    page = open_session(alice).page
    payload = base64.b64encode(_png((60, 90), (200, 10, 10))).decode()
    transfer = page.evaluate_handle(
        """data => {
          const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], "red door.png", { type: "image/png" }));
          return transfer;
        }""",
        payload,
    )
    page.dispatch_event("textarea[name=content]", "drop", {"dataTransfer": transfer})
    expect(page.locator("[data-testid=image-upload] [data-upload-status]")).to_have_text("Uploaded red door.png")
    page.click("button:has-text('Post')")
    page.wait_for_url("**/")
    image = _posted_image(page, "red door")
    expect(image).to_have_attribute("height", "90")


def test_a_refused_file_says_why_and_inserts_nothing(open_session):
    alice = make_user("Alice")
    page = open_session(alice).page
    zone = page.locator("[data-testid=image-upload]")
    zone.locator("input[type=file]").set_input_files(
        {"name": "notes.png", "mimeType": "image/png", "buffer": b"just text, not a picture"}
    )
    expect(zone.locator("[data-upload-status]")).to_have_text("notes.png: invalid image data")
    expect(page.locator("textarea[name=content]")).to_have_value("")


def test_avatar_from_the_settings_page_shows_on_cards_and_profile(open_session):
    alice = make_user("Alice")
    page = open_session(alice).page
    page.goto("/settings")
    section = page.locator("[data-testid=avatar-settings]")
    expect(section.locator("span.avatar")).to_have_text("A")  # the initial until one is set
    section.locator("input[type=file]").set_input_files(
        {"name": "me.png", "mimeType": "image/png", "buffer": _png((300, 300))}
    )
    expect(section.locator("img.avatar")).to_be_visible()
    assert User.objects.get(pk=alice.pk).avatar == f"stgy-profiles/{alice.hex_id}/masters/avatar.png"
    page.goto(f"/users/{alice.hex_id}")
    avatar = page.locator("[data-testid=profile] img.avatar")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=avatar.element_handle())
    page.goto("/settings")
    page.click("[data-avatar-remove]")
    expect(page.locator("[data-testid=avatar-settings] span.avatar")).to_have_text("A")
    assert User.objects.get(pk=alice.pk).avatar is None
