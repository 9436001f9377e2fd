"""The admin's review queue: reported messages with their conversation, only
conversations with a report, read-only, and a "resolve" action."""

from __future__ import annotations

import pytest

from sns.models import Conversation, Report
from sns.services import messages as dm
from tests.factories import make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(human, follower):
    dm.message_send(follower, human.id, content="context before")
    bad = dm.message_send(follower, human.id, content="the <b>bad</b> one")
    report = dm.message_report(human, bad.id, reason="insults")
    quiet_a, quiet_b = make_user("QuietA"), make_user("QuietB")
    dm.message_send(quiet_a, quiet_b.id, content="a private secret")
    return report


def test_review_queue_shows_reports_with_their_conversation(page_client, admin, reported):
    client = page_client(admin)
    listing = text_of(client.get("/admin/sns/report/"))
    assert "insults" in listing and "open" in listing
    detail = text_of(client.get(f"/admin/sns/report/{reported.id}/change/"))
    assert "context before" in detail and "REPORTED" in detail
    assert "&lt;b&gt;bad&lt;/b&gt;" in detail and "<b>bad</b>" not in detail
    assert "a private secret" not in detail


def test_only_reported_conversations_are_listed(page_client, admin, reported):
    client = page_client(admin)
    listing = text_of(client.get("/admin/sns/conversation/"))
    assert "1 conversation" in listing
    quiet = Conversation.objects.exclude(pk=reported.message.conversation_id).get()
    assert client.get(f"/admin/sns/conversation/{quiet.id}/change/").status_code in (302, 404)
    shown = text_of(
        client.get(f"/admin/sns/conversation/{reported.message.conversation_id}/change/")
    )
    assert "context before" in shown
    # No list of messages exists in the admin at all.
    assert client.get("/admin/sns/message/").status_code == 404


def test_resolve_action_and_read_only(page_client, admin, reported):
    client = page_client(admin)
    response = client.post(
        "/admin/sns/report/",
        {"action": "resolve_reports", "_selected_action": [reported.id]},
        follow=True,
    )
    assert "1 report(s) resolved." in text_of(response)
    reported.refresh_from_db()
    assert reported.status == "resolved" and reported.resolved_at is not None
    assert client.get("/admin/sns/report/add/").status_code == 403
    assert Report.objects.count() == 1


def test_people_who_are_not_admins_see_no_queue(page_client, human, reported):
    assert page_client(human).get("/admin/sns/report/").status_code == 302
