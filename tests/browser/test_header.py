"""The header stays one line at desktop width for an admin, whose nav carries more
links (agent activity, admin with its open-reports count), and wraps without spilling
sideways on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from sns import services
from sns.services import messages, reports
from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import make_post, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Nicknames as long as people pick them: the "me" link is the nav's widest item.
NICK = "Alexandra Whitfield"


def _header(page) -> dict:
    return page.evaluate(
        """() => {
            const bar = document.querySelector('.site-header .bar');
            const links = [...bar.querySelectorAll('.brand, .nav > a, .nav > form, .nav > details')];
            // Items whose vertical centres lie within 10 px of each other share a line.
            const centres = links.map(el => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; });
            centres.sort((a, b) => a - b);
            const rows = centres.filter((c, i) => i === 0 || c - centres[i - 1] > 10).length;
            return {height: document.querySelector('.site-header').getBoundingClientRect().height,
                    rows, overflow: document.documentElement.scrollWidth - window.innerWidth};
        }"""
    )


def test_admin_header_is_one_line_at_desktop_width_and_fits_a_phone(open_session):
    person = make_user(NICK)
    admin = make_user(NICK, is_admin=True)
    reported = make_post(person, "something to report")
    reports.post_report(make_user("Reporter"), reported.id, reason="spam")
    fan = make_user("Fan")
    for user in (person, admin):  # both headers carry an unread count on both badges
        services.follow_add(user, fan.id)  # so Fan's message lands in the inbox
        services.like_add(fan, make_post(user, "liked").id)
        messages.message_send(fan, user.id, content="hello")

    desktop = {}
    for who, user in (("person", person), ("admin", admin)):
        page = open_session(user, viewport=DESKTOP).page
        page.goto("/")
        desktop[who] = _header(page)
        assert page.get_by_test_id("unread-count").inner_text() == "2"  # the like, the message
        assert page.get_by_test_id("unread-messages").inner_text() == "1"
        if who == "admin":
            assert page.get_by_test_id("open-reports").inner_text() == "1"
    assert desktop["person"]["rows"] == desktop["admin"]["rows"] == 1, desktop
    assert desktop["admin"]["height"] == desktop["person"]["height"], desktop

    # Narrower screens wrap the nav under the brand; nothing spills sideways, and every
    # link, the last one too, is still there to use.
    for viewport in ({"width": 1024, "height": 800}, PHONE):
        page = open_session(admin, viewport=viewport).page
        page.goto("/")
        assert _header(page)["overflow"] <= 0, viewport
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/login")


def test_the_header_counts_follow_the_poll_without_a_reload(open_session, settings):
    settings.STGY_LIVE_POLL_SECONDS = 0.5
    admin, person = make_user("Admin", is_admin=True), make_user("Person")
    services.follow_add(admin, person.id)  # so Person's message lands in the inbox
    page = open_session(admin).page
    page.goto("/")
    expect(page.get_by_test_id("open-reports")).to_have_count(0)
    expect(page.get_by_test_id("unread-messages")).to_have_count(0)

    report = reports.post_report(make_user("Reporter"), make_post(person, "reported").id, reason="spam")
    messages.message_send(person, admin.id, content="hello")
    expect(page.get_by_test_id("open-reports")).to_have_text("1")
    expect(page.locator(".nav-admin")).to_have_text("Manage 1 open reports")
    expect(page.get_by_test_id("unread-messages")).to_have_text("1")

    reports.reports_resolve(admin, [report.id])
    expect(page.get_by_test_id("open-reports")).to_have_count(0)
    expect(page.locator(".nav-admin")).to_have_text("Manage")
