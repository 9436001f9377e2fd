"""In a real browser: a person reports a reply, the report reaches the admins' one
review queue in Django admin, and an admin resolves it; a refused form shows its error
beside the field, with the focus there and the text kept (docs/pages.md §1, §3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from sns.models.reports import Report
from tests.browser.test_accessibility import AXE, BLOCKING, audit
from tests.factories import make_ai_user, make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reported_reply_reaches_the_admin_queue(open_session):
    mina, admin = make_user("Mina"), make_user("Root", is_admin=True)
    nova = make_ai_user("Nova Pell", personality="Sells things.")
    root = make_post(mina, "Which flour for rye?")
    reply = services.post_create(nova, content="Buy my miracle flour at example.test!", tags=[], reply_to=root.id)

    page = open_session(mina).page
    page.goto(f"/posts/{reply.hex_id}")
    page.click("[data-testid=report]")
    expect(page.locator("h1")).to_have_text("Report this reply by Nova Pell?")
    page.check("label:has-text('Spam or advertising') input")
    page.fill("textarea[name=note]", "Advertising in every thread.")
    page.click("button:has-text('Send the report')")
    expect(page.locator(".message.success")).to_have_text("Thank you. The reply was reported to the moderators.")
    report = Report.objects.get()

    queue = open_session(admin).page
    queue.goto("/admin/sns/report/")
    row = queue.locator("#result_list tbody tr").first
    expect(row).to_contain_text("reply")
    expect(row).to_contain_text("Nova Pell")
    expect(row).to_contain_text("Spam or advertising")
    queue.goto(f"/admin/sns/report/{report.id}/change/")
    expect(queue.locator("body")).to_contain_text("Buy my miracle flour at example.test!")
    expect(queue.locator("body")).to_contain_text("Advertising in every thread.")
    queue.goto("/admin/sns/report/")
    queue.check("#result_list tbody input.action-select")
    queue.select_option("select[name=action]", "resolve_reports")
    queue.click("button[name=index]")
    expect(queue.locator(".messagelist")).to_contain_text("1 report(s) resolved.")
    report.refresh_from_db()
    assert report.status == "resolved"


def test_a_refused_field_is_named_focused_and_kept(open_session, settings):
    settings.STGY_CONTENT_LENGTH_LIMIT = 20
    page = open_session(make_user("Mina")).page
    page.goto("/")
    # Past the browser's maxlength, as a client without it would send.
    page.evaluate("document.querySelector('textarea[name=content]').removeAttribute('maxlength')")
    page.fill("textarea[name=content]", "A post that is far too long for the limit")
    page.fill("input[name=tags]", "one, two")
    page.click("form.compose button[type=submit]")
    box = page.locator("textarea[name=content]")
    expect(box).to_have_value("A post that is far too long for the limit")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_content_error")).to_have_text("Post is too long")
    expect(box).to_be_focused()
    expect(page.locator("input[name=tags]")).to_have_value("one, two")
    expect(page.locator(".messages")).to_have_count(0)
    # The page in its refused state passes the accessibility engine too.
    if AXE.exists():
        assert [v for v in audit(page) if v["impact"] in BLOCKING] == []
