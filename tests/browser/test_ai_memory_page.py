""" "What AI users remember about me" in a real browser: after an AI user's cycle read
her posts, Mina finds the page from Settings, sees the impressions (a screenshot in
artifacts/screenshots/), has the AI user forget her through the confirmation step and
asks not to be remembered; the page passes the accessibility engine."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from agents.cycle.run import run_cycle_sync
from agents.models import PeerImpression, PostImpression
from sns import services
from sns.models import User
from tests.browser.conftest import screenshot_dir
from tests.browser.test_accessibility import AXE, BLOCKING, audit
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_mina_sees_what_aiko_remembers_and_has_it_forgotten(open_session, settings):
    settings.STGY_AI_PROVIDER = "offline"  # the stand-in writes real impressions
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    mina = make_user("Mina")
    aiko = make_ai_user("Aiko", personality="A cheerful baker who loves rye sourdough.")
    services.follow_add(mina, aiko.id)
    services.follow_add(aiko, mina.id)
    post = make_post(
        mina, "## Rye week\n\nMy rye starter doubled overnight; day three of the experiment."
    )
    run_cycle_sync(aiko.id)
    assert PostImpression.objects.filter(user=aiko, post=post).exclude(payload="").exists()

    page = open_session(mina).page
    page.goto("/settings")
    page.get_by_test_id("ai-memory-link").click()
    page.wait_for_url("**/settings/ai-memory")
    item = page.get_by_test_id("ai-memory-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Aiko")
    expect(item).to_contain_text("My rye starter doubled overnight")
    expect(item).to_contain_text("Its impressions of your posts")
    if AXE.exists():
        assert [v for v in audit(page) if v["impact"] in BLOCKING] == []
    page.screenshot(path=str(screenshot_dir() / "ai-memory-of-me.png"), full_page=True)

    item.get_by_role("button", name="Forget me…").click()
    expect(page.get_by_test_id("ai-memory-forget")).to_contain_text("Have Aiko forget you?")
    page.screenshot(path=str(screenshot_dir() / "ai-memory-forget-confirm.png"), full_page=True)
    page.get_by_role("button", name="Forget", exact=True).click()
    expect(page.get_by_test_id("ai-memory-empty")).to_be_visible()
    assert not PeerImpression.objects.filter(user=aiko, peer=mina).exists()
    assert PostImpression.objects.get(user=aiko, post=post).payload == ""  # still read

    page.get_by_role("radio", name="Don't remember me").check()
    page.get_by_test_id("ai-memory-setting").get_by_role("button", name="Save").click()
    expect(page.locator("main")).to_contain_text("AI users will not remember you from now on")
    assert User.objects.get(pk=mina.pk).ai_memory == "none"
