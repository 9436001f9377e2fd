"""Reporting a post or a reply on the pages, and the one review queue in Django admin
(docs/pages.md §3)."""

from __future__ import annotations

import pytest

from sns import services
from sns.models.reports import Report
from sns.services import messages as dm
from sns.services import reports
from tests.factories import make_post
from tests.web.conftest import messages_of, text_of
from tests.web.field_check import field_error, field_value

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(follower):
    return make_post(follower, "a post with <b>markup</b> in it")


def test_the_report_link_is_on_someone_elses_post_only(page_client, human, post):
    assert f'href="/posts/{post.hex_id}/report"' in text_of(page_client(human).get(f"/posts/{post.hex_id}"))
    assert "/report" not in text_of(page_client(post.owner).get(f"/posts/{post.hex_id}"))


def test_report_page_confirms_then_reports(page_client, human, post):
    client = page_client(human)
    url = f"/posts/{post.hex_id}/report"
    page = text_of(client.get(url))
    assert "Report this post by Bob?" in page and "Spam or advertising" in page
    assert not Report.objects.exists()  # opening the page reports nothing
    response = client.post(url, {"reason": "harassment", "note": "see the thread"}, follow=True)
    assert response.request["PATH_INFO"] == f"/posts/{post.hex_id}"
    assert messages_of(response) == ["Thank you. The post was reported to the moderators."]
    report = Report.objects.get()
    assert (report.reporter_id, report.reason, report.note) == (human.id, "harassment", "see the thread")


def test_a_reply_is_reported_as_a_reply(page_client, human, post):
    reply = services.post_create(post.owner, content="the reply", tags=[], reply_to=post.id)
    client = page_client(human)
    assert "Report reply" in text_of(client.get(f"/posts/{reply.hex_id}"))
    response = client.post(f"/posts/{reply.hex_id}/report", {"reason": "spam"}, follow=True)
    assert "The reply was reported" in messages_of(response)[0]
    assert Report.objects.get().kind == "reply"


def test_refusals_are_beside_their_field_and_keep_the_note(page_client, human, post, settings):
    client = page_client(human)
    url = f"/posts/{post.hex_id}/report"
    # No reason chosen: the form's own check, at once.
    response = client.post(url, {"note": "kept note"})
    assert field_error(response, "reason") == "This field is required."
    assert field_value(response, "note") == "kept note"
    settings.STGY_REPORT_NOTE_LENGTH_LIMIT = 3
    response = client.post(url, {"reason": "spam", "note": "too long"}, follow=True)
    assert field_error(response, "note") == "Anything the moderators should know (optional) is too long"
    assert field_value(response, "note") == "too long"
    settings.STGY_REPORT_NOTE_LENGTH_LIMIT = 1000
    client.post(url, {"reason": "spam"})
    response = client.post(url, {"reason": "spam"}, follow=True)
    assert "already reported" in messages_of(response)
    assert Report.objects.count() == 1


def test_own_post_cannot_be_reported(page_client, post):
    response = page_client(post.owner).get(f"/posts/{post.hex_id}/report")
    assert response.status_code == 400 and "cannot report your own post" in text_of(response)


def test_one_queue_holds_posts_replies_and_messages(page_client, human, follower, admin, post):
    reply = services.post_create(follower, content="reply text", tags=[], reply_to=post.id)
    post_report = reports.post_report(human, post.id, reason="spam", note="ads everywhere")
    reports.post_report(human, reply.id, reason="violence")
    message = dm.message_send(follower, human.id, content="a message")
    dm.message_report(human, message.id, reason="insults")
    client = page_client(admin)
    listing = text_of(client.get("/admin/sns/report/"))
    assert "3 reports" in listing
    for text in ("Spam or advertising", "Violence or threats", "insults", "reply", "message"):
        assert text in listing
    assert text_of(client.get("/admin/sns/report/?kind__exact=post")).count("Spam or advertising") >= 1
    detail = text_of(client.get(f"/admin/sns/report/{post_report.id}/change/"))
    # The facts, escaped, with a link to the post while it exists.
    assert "ads everywhere" in detail and "&lt;b&gt;markup&lt;/b&gt;" in detail
    assert f'href="/posts/{post.hex_id}"' in detail
    services.post_delete(follower, post.id)
    detail = text_of(client.get(f"/admin/sns/report/{post_report.id}/change/"))
    assert "has been deleted since" in detail and "&lt;b&gt;markup&lt;/b&gt;" in detail
    response = client.post(
        "/admin/sns/report/",
        {"action": "resolve_reports", "_selected_action": list(Report.objects.values_list("id", flat=True))},
        follow=True,
    )
    assert "3 report(s) resolved." in text_of(response)
    assert client.get(f"/admin/sns/report/{post_report.id}/change/").status_code == 200
    # Read-only: no add, no change through the form.
    assert client.get("/admin/sns/report/add/").status_code == 403


def test_cards_of_others_carry_a_report_link(page_client, human, follower, post):
    reply = services.post_create(human, content="my own reply", tags=[], reply_to=post.id)
    other_reply = services.post_create(follower, content="their reply", tags=[], reply_to=post.id)
    body = text_of(page_client(human).get(f"/posts/{post.hex_id}"))
    assert f'href="/posts/{other_reply.hex_id}/report"' in body
    assert f'href="/posts/{reply.hex_id}/report"' not in body
    timeline = text_of(page_client(human).get("/?tab=everyone"))
    assert f'href="/posts/{post.hex_id}/report"' in timeline
