"""The header's counts read in one statement (sns/selectors/header_counts.py) are those
of the three reads they stand for, after every kind of write that changes one of them:
a notification arriving, read, or hidden by a block; a message sent, read, sent as a
request or accepted; a report filed and resolved. Nothing is kept between reads, so
each change shows on the next page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns import selectors, services
from sns.models.reports import Report
from sns.selectors.header_counts import HeaderCounts, header_counts
from sns.selectors.messages import messages_unread_counts
from sns.selectors.reports import reports_open_count
from sns.services import messages as dm
from sns.services import reports
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _reference(viewer) -> HeaderCounts:
    return HeaderCounts(
        selectors.notifications_unread_count(viewer),
        messages_unread_counts(viewer.id)["inbox"],
        reports_open_count(viewer),
    )


def _assert(viewer, unread: int, unread_dm: int, reports_open: int = 0) -> None:
    expected = HeaderCounts(unread, unread_dm, reports_open)
    assert _reference(viewer) == expected
    with CaptureQueriesContext(connection) as queries:
        assert header_counts(viewer) == expected
    if connection.vendor == "postgresql" and not unread:
        # With notifications to check for hidden events, one more (notifications.py).
        assert len(queries) == 1


def test_notifications_counted_as_they_arrive_are_hidden_and_are_read(human, django_capture_on_commit_callbacks):
    post = make_post(human, "a post")
    fan, replier = make_user("Fan"), make_user("Replier")
    _assert(human, 0, 0)
    with django_capture_on_commit_callbacks(execute=True):
        services.follow_add(fan, human.id)
    _assert(human, 1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        services.post_create(replier, content="a reply", tags=[], reply_to=post.id)
        services.like_add(fan, post.id)
    _assert(human, 3, 0)
    services.block_add(human, replier.id)
    _assert(human, 2, 0)
    services.notification_mark_all(human, is_read=True)
    _assert(human, 0, 0)


def test_inbox_messages_counted_as_sent_read_and_accepted(human, settings):
    settings.STGY_HOURLY_MESSAGES_COUNT_LIMIT = 1000
    friend, stranger = make_user("Friend"), make_user("Stranger")
    dm.message_send(human, friend.id, content="hi")  # Alice wrote first: Friend is in her inbox
    _assert(human, 0, 0)
    first = dm.message_send(friend, human.id, content="hello")
    dm.message_send(friend, human.id, content="again")
    _assert(human, 0, 2)
    request = dm.message_send(stranger, human.id, content="psst")  # a request, not the inbox
    _assert(human, 0, 2)
    assert messages_unread_counts(human.id)["requests"] == 1
    dm.conversation_mark_read(human, friend.id, first.id)
    _assert(human, 0, 1)
    dm.conversation_accept(human, stranger.id)
    _assert(human, 0, 2)
    dm.conversation_mark_read(human, stranger.id, request.id)
    _assert(human, 0, 1)


def test_open_reports_counted_for_admins_only(human, admin):
    post = make_post(human, "reported")
    _assert(admin, 0, 0, 0)
    for reporter in (make_user("One"), make_user("Two")):
        reports.post_report(reporter, post.id, reason="spam")
    _assert(admin, 0, 0, 2)
    _assert(human, 0, 0, 0)
    reports.reports_resolve(admin, list(Report.objects.values_list("id", flat=True))[:1])
    _assert(admin, 0, 0, 1)
