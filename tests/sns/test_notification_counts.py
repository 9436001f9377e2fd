"""The unread notification count agrees with the list: it counts the unread rows the
notifications page shows, after the events the viewer may no longer see are taken out
(blocked, muted, frozen or deleted actors; deleted or hidden posts)."""

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns import selectors, services
from sns.models import Notification, User
from sns.services import mutes
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _listed(viewer) -> list[Notification]:
    return selectors.notifications_feed(viewer, shown=settings.STGY_NOTIFICATION_SHOWN_RECORDS) or []


def _unread_listed(viewer) -> int:
    return sum(1 for row in _listed(viewer) if not row.is_read)


def _assert_agree(viewer, expected: int) -> None:
    assert selectors.notifications_unread_count(viewer) == _unread_listed(viewer) == expected
    assert login_client(viewer).get("/live").json()["unreadNotifications"] == expected


@pytest.fixture
def noisy(events, human):
    """Alice, notified by Nova (a follow), Mallory (a reply), Fred (a like) and Dan
    (a mention): four unread rows, one actor each."""
    post = make_post(human, "a post")
    cast = {name: make_user(name) for name in ("Nova", "Mallory", "Fred", "Dan")}
    for user in cast.values():
        services.follow_add(human, user.id)  # so @Alice mentions may notify her
    with events():
        services.follow_add(cast["Nova"], human.id)
        reply = services.post_create(cast["Mallory"], content="a reply", tags=[], reply_to=post.id)
        services.like_add(cast["Fred"], post.id)
        services.post_create(cast["Dan"], content="hello @Alice", tags=[])
    rows = {row.slot.split(":")[0]: row for row in Notification.objects.filter(user=human)}
    return cast, post, reply, rows


def test_count_drops_rows_of_blocked_muted_frozen_and_deleted_actors(human, admin, noisy):
    cast, _, _, rows = noisy
    start = len(rows)
    _assert_agree(human, start)
    services.block_add(human, cast["Mallory"].id)
    _assert_agree(human, start - 1)
    mutes.mute_add(human, cast["Nova"].id)
    _assert_agree(human, start - 2)
    services.user_update(admin, cast["Fred"].id, is_frozen=True)
    _assert_agree(human, start - 3)
    User.objects.filter(pk=cast["Dan"].id).delete()
    _assert_agree(human, 0)


def test_count_drops_rows_about_deleted_posts(human, noisy):
    cast, post, reply, rows = noisy
    start = len(rows)
    services.post_delete(cast["Mallory"], reply.id)  # the reply event's post
    _assert_agree(human, start - 1)
    services.post_delete(human, post.id)  # the liked post
    _assert_agree(human, start - 2)
    assert not any(row.slot.startswith(("reply", "like")) for row in _listed(human))


def test_a_row_keeps_the_events_still_visible(events, human):
    post = make_post(human, "liked twice")
    fan, other = make_user("Fan"), make_user("Other")
    with events():
        services.like_add(fan, post.id)
        services.like_add(other, post.id)
    services.block_add(human, fan.id)
    [row] = _listed(human)
    assert [r["userId"] for r in row.payload["records"]] == [other.hex_id]
    assert row.payload["countUsers"] == 1 and row.payload["countPosts"] == 1
    _assert_agree(human, 1)


def test_read_rows_are_not_counted_and_the_count_is_bounded_as_the_list_is(events, human, settings):
    settings.STGY_NOTIFICATION_SHOWN_RECORDS = 2
    fan = make_user("Fan")
    posts = [make_post(human, f"p{i}") for i in range(4)]
    with events():
        for post in posts:
            services.like_add(fan, post.id)
    assert selectors.notifications_unread_count(human) == 2 == _unread_listed(human)
    services.notification_mark_all(human, is_read=True)
    assert selectors.notifications_unread_count(human) == 0


def test_count_costs_one_query_when_nothing_is_unread_and_two_otherwise(events, human):
    with CaptureQueriesContext(connection) as queries:
        assert selectors.notifications_unread_count(human) == 0
    assert len(queries) == 1
    fan = make_user("Fan")
    with events():
        services.like_add(fan, make_post(human, "one").id)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.notifications_unread_count(human) == 1
    assert len(queries) == 2
    with events():
        for i in range(20):
            services.like_add(make_user(f"fan{i}"), make_post(human, f"p{i}").id)
        services.follow_add(fan, human.id)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.notifications_unread_count(human) == 22
    assert len(queries) == 2
