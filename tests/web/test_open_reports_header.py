"""Admins learn of reports from their header: the Admin link carries the number of open
reports and leads to the review queue's open reports; members never see it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns.models.reports import Report
from sns.selectors.reports import reports_open_count
from sns.services import reports
from tests.factories import make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def _badge(html: str) -> str | None:
    marker = 'data-testid="open-reports">'
    if marker not in html:
        return None
    return html.split(marker, 1)[1].split("<", 1)[0]


def test_admin_header_counts_open_reports_until_resolved(page_client, human, follower, admin):
    post = make_post(human, "something to report")
    reply = make_post(follower, "a reply to report", reply_to=post.id)
    client = page_client(admin)
    home = text_of(client.get("/"))
    assert _badge(home) is None and 'href="/admin/"' in home

    for reporter in (make_user("One"), make_user("Two")):
        reports.post_report(reporter, post.id, reason="spam")
    reports.post_report(make_user("Three"), reply.id, reason="harassment")
    home = text_of(client.get("/"))
    assert _badge(home) == "3"
    assert 'href="/admin/sns/report/?status__exact=open"' in home
    assert "open reports" in home  # said, not only shown as a number
    assert client.get("/admin/sns/report/?status__exact=open").status_code == 200

    reports.reports_resolve(admin, list(Report.objects.values_list("id", flat=True))[:2])
    assert _badge(text_of(client.get("/"))) == "1"
    reports.reports_resolve(admin, list(Report.objects.values_list("id", flat=True)))
    assert _badge(text_of(client.get("/"))) is None


def test_members_never_see_the_count_and_pay_no_query_for_it(page_client, human, follower):
    reports.post_report(follower, make_post(human, "reported").id, reason="spam")
    assert _badge(text_of(page_client(follower).get("/"))) is None
    with CaptureQueriesContext(connection) as queries:
        assert reports_open_count(follower) == 0
    assert len(queries) == 0
