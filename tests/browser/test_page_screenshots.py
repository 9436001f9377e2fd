"""Screenshots of the pages, left in artifacts/screenshots/: the nested
thread, the dark theme (home and a post page), the admin's run detail in names, the
landing page, a report and a refused form, each with checks that what is pictured is
there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from sns import services
from sns.models import Post
from tests.browser.conftest import PHONE, screenshot_dir
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DARK_BACKGROUND = "rgb(17, 20, 27)"


def _thread():
    mina, kai = make_user("Mina"), make_user("Kai")
    aiko = make_ai_user("Aiko", personality="A cheerful baker who loves rye sourdough.")
    for a, b in ((mina, aiko), (aiko, mina), (mina, kai), (kai, mina)):
        services.follow_add(a, b.id)
    root = make_post(mina, "## Rye week\n\nMy starter doubled overnight. **Day three** of the rye experiment.", tags=["bread"])
    lines = [
        (aiko, "Lovely! Keep it at about 26 °C and it will be lively by morning."),
        (mina, "26 °C — noted. Do you feed it twice a day?"),
        (aiko, "Twice, yes: equal weights of flour and water."),
        (kai, "Same here, and a spoon of honey once a week."),
    ]
    parent = root
    for author, text in lines:
        parent = services.post_create(author, content=text, tags=[], reply_to=parent.id)
    services.post_create(kai, content="Rye is so forgiving compared with wheat.", tags=[], reply_to=root.id)
    services.like_add(aiko, root.id)
    # Public, so the landing page has something to show a visitor.
    Post.objects.filter(pk=root.pk).update(published_at=timezone.now())
    return mina, aiko, root, parent


def test_screenshots_for_issue_18(open_session, settings):
    # The offline stand-in gives the run real stages: impressions, likes, replies.
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    mina, aiko, root, deepest = _thread()
    admin = make_user("Root", is_admin=True)
    out = screenshot_dir()
    shots = []

    page = open_session(mina).page
    page.goto(f"/posts/{root.hex_id}#post-{deepest.hex_id}")
    expect(page.locator(f"#post-{deepest.hex_id}")).to_be_visible()
    expect(page.locator(".reply-tree .reply-tree").first).to_be_visible()  # nested, not flat
    page.evaluate("window.scrollTo(0, 0)")  # the sticky header at the top of the picture
    page.screenshot(path=str(out / "thread-nested.png"), full_page=True)
    shots.append("thread-nested.png")

    dark = open_session(mina)
    dark.page.emulate_media(color_scheme="dark")
    for name, path in (("home-dark.png", "/?tab=following"), ("post-page-dark.png", f"/posts/{root.hex_id}")):
        dark.page.goto(path)
        background = dark.page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        assert background == DARK_BACKGROUND, (name, background)
        dark.page.screenshot(path=str(out / name), full_page=True)
        shots.append(name)

    run = run_cycle_sync(aiko.id)  # a first cycle: reads, judges posts and people
    admin_page = open_session(admin).page
    admin_page.goto(f"/agents/runs/{run.pk}")
    body = admin_page.locator("main")
    expect(body).to_contain_text("Aiko")
    expect(body).to_contain_text("Rye week")  # a post by its title, not its hex id
    admin_page.screenshot(path=str(out / "run-detail-in-names.png"), full_page=True)
    shots.append("run-detail-in-names.png")

    visitor = open_session(viewport=PHONE).page
    visitor.goto("/")
    expect(visitor.locator("[data-testid=landing-signup]")).to_be_visible()
    expect(visitor.locator(".landing-posts")).to_contain_text("Rye week")
    visitor.screenshot(path=str(out / "landing-phone.png"), full_page=True)
    shots.append("landing-phone.png")

    page.goto(f"/posts/{deepest.hex_id}/report")
    expect(page.locator("h1")).to_contain_text("Report this reply")
    page.check("label:has-text('Spam or advertising') input")
    page.fill("textarea[name=note]", "Off topic in every thread.")
    page.screenshot(path=str(out / "report-form.png"), full_page=True)
    shots.append("report-form.png")

    page.goto("/settings")
    page.fill("input[name=timezone]", "Mars/Base")
    page.click("form.settings-form >> nth=0 >> button[type=submit]")
    expect(page.locator("#id_timezone_error")).to_have_text("Time zone is invalid")
    page.locator("form.settings-form").first.screenshot(path=str(out / "refused-field.png"))
    shots.append("refused-field.png")

    for name in shots:
        assert (out / name).stat().st_size > 5_000, name
