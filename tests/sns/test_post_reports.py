"""Reports of posts and replies: the rulebook (sns/services/reports.py) and its API
route POST /posts/{postId}/report (docs/pages.md §3)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from sns import services
from sns.core.errors import Conflict, Forbidden, InvalidInput, NotFound, Throttled
from sns.models import Post
from sns.models.reports import Report, ReportKind, ReportStatus
from sns.services import reports
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(follower):
    return make_post(follower, "something to report")


def test_a_report_keeps_the_facts(human, follower, post):
    report = reports.post_report(human, post.id, reason="spam", note="  buy now links \r\n")
    assert (report.kind, report.reason, report.note, report.status) == (
        ReportKind.POST,
        "spam",
        "buy now links",
        ReportStatus.OPEN,
    )
    assert (report.post_id, report.post_owner_id, report.post_content) == (
        post.id,
        follower.id,
        "something to report",
    )
    reply = services.post_create(follower, content="a reply", tags=[], reply_to=post.id)
    assert reports.post_report(human, reply.id, reason="other").kind == ReportKind.REPLY


def test_the_facts_survive_the_post(human, follower, post):
    report = reports.post_report(human, post.id, reason="harassment")
    services.post_delete(follower, post.id)
    report.refresh_from_db()
    assert report.post_id is None and report.post_content == "something to report"
    assert report.post_owner_id == follower.id


def test_refusals(human, post):
    with pytest.raises(InvalidInput, match="cannot report your own post"):
        reports.post_report(post.owner, post.id, reason="spam")
    with pytest.raises(InvalidInput, match="reason must be one of spam, "):
        reports.post_report(human, post.id, reason="boring")
    with pytest.raises(InvalidInput, match="note must be a string"):
        reports.post_report(human, post.id, reason="spam", note=["x"])
    with pytest.raises(InvalidInput, match="note contains"):
        reports.post_report(human, post.id, reason="spam", note="a\x00b")
    with pytest.raises(NotFound):
        reports.post_report(human, post.id + 1, reason="spam")
    frozen = make_user("Ice", is_frozen=True)
    with pytest.raises(Forbidden, match="user is frozen"):
        reports.post_report(frozen, post.id, reason="spam")
    assert not Report.objects.exists()


def test_note_length_limit(human, post, settings):
    settings.STGY_REPORT_NOTE_LENGTH_LIMIT = 5
    with pytest.raises(InvalidInput, match="note is too long"):
        reports.post_report(human, post.id, reason="spam", note="123456")
    assert reports.post_report(human, post.id, reason="spam", note="12345").note == "12345"


def test_one_open_report_per_reporter_and_post(human, follower, post, admin):
    first = reports.post_report(human, post.id, reason="spam")
    with pytest.raises(Conflict, match="already reported"):
        reports.post_report(human, post.id, reason="violence")
    # The database holds the rule too, for two requests racing past the check.
    with pytest.raises(IntegrityError), transaction.atomic():
        Report.objects.create(
            kind="post", post=post, reporter=human, reason="spam", created_at=first.created_at
        )
    # Someone else may report it; after a resolution, the same person again.
    reports.post_report(make_user("Carol"), post.id, reason="spam")
    assert reports.reports_resolve(admin, [first.id]) == 1
    assert reports.reports_resolve(admin, [first.id]) == 0
    assert reports.post_report(human, post.id, reason="violence").status == "open"


def test_only_admins_resolve(human, post):
    report = reports.post_report(human, post.id, reason="spam")
    with pytest.raises(Forbidden):
        reports.reports_resolve(human, [report.id])


def test_reports_are_rate_limited(human, follower, settings):
    settings.STGY_HOURLY_REPORTS_COUNT_LIMIT = 2
    posts = [make_post(follower, f"post {i}") for i in range(3)]
    reports.post_report(human, posts[0].id, reason="spam")
    reports.post_report(human, posts[1].id, reason="spam")
    with pytest.raises(Throttled, match="too often reports"):
        reports.post_report(human, posts[2].id, reason="spam")
    assert Report.objects.count() == 2


def test_a_report_target_is_one_thing(human, post):
    from sns.services import messages as dm

    message = dm.message_send(post.owner, human.id, content="hi")
    with pytest.raises(IntegrityError), transaction.atomic():
        Report.objects.create(
            kind="post", post=post, message=message, reporter=human, reason="x", created_at=message.created_at
        )


# ----------------------------------------------------------------------------- API


@pytest.mark.parametrize("prefix", ["/api", "/backend"])
def test_api_reports_a_post(human, post, prefix):
    client = login_client(human)
    response = client.post(
        f"{prefix}/posts/{post.hex_id}/report", {"reason": "spam", "note": "ads"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["postId"] == post.hex_id and body["kind"] == "post"
    assert (body["reason"], body["note"], body["status"]) == ("spam", "ads", "open")
    again = client.post(f"{prefix}/posts/{post.hex_id}/report", {"reason": "spam"}, format="json")
    assert again.status_code == 400 and again.json() == {"error": "already reported"}


def test_api_refusals(api, human, post):
    url = f"/api/posts/{post.hex_id}/report"
    assert api.post(url, {"reason": "spam"}, format="json").status_code == 401
    client = login_client(human)
    bad = client.post(url, {"reason": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"].startswith("reason must be one of")
    assert client.post(url, {}, format="json").status_code == 400
    assert client.post("/api/posts/zz/report", {"reason": "spam"}, format="json").status_code == 400
    missing = client.post(f"/api/posts/{post.id + 1:016X}/report", {"reason": "spam"}, format="json")
    assert missing.status_code == 404
    own = login_client(post.owner).post(url, {"reason": "spam"}, format="json")
    assert own.status_code == 400 and own.json() == {"error": "cannot report your own post"}
    assert not Report.objects.exists() and Post.objects.count() == 1


def test_api_route_is_in_the_schema(api):
    schema = api.get("/api/openapi.yml").content.decode()
    assert "/posts/{postId}/report" in schema or "/posts/{post_id}/report" in schema
