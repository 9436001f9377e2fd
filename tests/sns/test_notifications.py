"""Notifications: folding per recipient/slot/day, AI actors, mark, mark-all, feed 304."""

import zoneinfo

import pytest
from django.utils import timezone

from sns import services
from sns.models import Notification
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(django_capture_on_commit_callbacks):
    """Notifications are written after the action commits; run those callbacks."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _feed(user, query=""):
    return login_client(user).get(f"/api/notifications/feed{query}")


def test_follow_notification(events, human):
    fan = make_user("Fan")
    with events():
        services.follow_add(fan, human.id)
    [row] = _feed(human).json()
    assert row["slot"] == "follow" and row["isRead"] is False
    assert row["countUsers"] == 1 and "countPosts" not in row
    assert [(r["userId"], r["userNickname"]) for r in row["records"]] == [(fan.hex_id, "Fan")]
    assert isinstance(row["records"][0]["ts"], int)
    assert "userIds" not in row and "postIds" not in row


def test_likes_fold_into_one_row_newest_first_at_most_ten(events, human, settings):
    post = make_post(human, "popular")
    fans = [make_user(f"fan{i}") for i in range(12)]
    with events():
        for fan in fans:
            services.like_add(fan, post.id)
    [row] = Notification.objects.filter(user=human)
    assert row.slot == f"like:{post.hex_id}"
    data = _feed(human).json()[0]
    assert data["countUsers"] == 12 and data["countPosts"] == 1
    assert len(data["records"]) == 10
    assert [r["userId"] for r in data["records"]] == [f.hex_id for f in reversed(fans)][:10]
    assert data["records"][0]["postId"] == post.hex_id and data["records"][0]["postSnippet"] == "popular"


def test_term_is_the_recipients_calendar_day(events, settings):
    recipient = make_user("Kiri", timezone="Pacific/Kiritimati")
    with events():
        services.follow_add(make_user("Fan"), recipient.id)
    expected = timezone.now().astimezone(zoneinfo.ZoneInfo("Pacific/Kiritimati")).strftime("%Y-%m-%d")
    assert Notification.objects.get(user=recipient).term == expected


def test_reply_notification_records_the_reply(events, human, follower):
    parent = make_post(human, "parent")
    with events():
        reply = services.post_create(follower, content="answer", tags=[], reply_to=parent.id)
    [row] = _feed(human).json()
    assert row["slot"] == f"reply:{parent.hex_id}"
    assert row["records"][0]["postId"] == reply.hex_id


def test_mentions_notify_only_followers_of_the_author(events, human, follower):
    stranger = make_user("Stranger")
    content = f"hi [@Alice](/users/{human.hex_id}) and [@S](/users/{stranger.hex_id}) [not a mention](/users/{human.hex_id})"
    with events():
        post = services.post_create(follower, content=content, tags=[])
    assert not Notification.objects.filter(user=human).exists()  # human does not follow the author
    assert not Notification.objects.filter(user=stranger).exists()

    services.follow_add(human, follower.id)
    with events():
        post = services.post_create(follower, content=content, tags=[])
    [row] = Notification.objects.filter(user=human)
    assert row.slot == f"mention:{post.hex_id}"


def test_self_interactions_do_not_notify(events, human):
    post = make_post(human, "mine")
    with events():
        services.like_add(human, post.id)
        services.post_create(human, content="self reply", tags=[], reply_to=post.id)
    assert not Notification.objects.exists()


def test_events_on_deleted_posts_do_not_notify(events, human, follower):
    post = make_post(human, "short-lived")
    with events():
        services.like_add(follower, post.id)
        services.post_delete(human, post.id)
    assert not Notification.objects.exists()


def test_ai_actors_notify_humans_unless_turned_off(events, human, settings):
    aiko = make_ai_user("Aiko2")
    post = make_post(human, "for the AI")
    with events():
        services.like_add(aiko, post.id)
    assert Notification.objects.filter(user=human, slot=f"like:{post.hex_id}").exists()

    settings.STGY_NOTIFY_FROM_AI_USERS = False
    other = make_post(human, "unnoticed")
    with events():
        services.like_add(aiko, other.id)
        services.follow_add(aiko, human.id)
    assert not Notification.objects.filter(user=human, slot__in=[f"like:{other.hex_id}", "follow"]).exists()


def test_new_event_re_marks_read_row_unread(events, human, follower):
    post = make_post(human, "p")
    with events():
        services.like_add(follower, post.id)
    row = Notification.objects.get(user=human)
    first_update = row.updated_at
    services.notification_mark_all(human, is_read=True)
    with events():
        services.like_add(make_user("Late"), post.id)
    row.refresh_from_db()
    assert row.is_read is False and row.updated_at > first_update
    assert row.payload["countUsers"] == 2


# ----------------------------------------------------------------------------- API


def test_mark_and_mark_all(events, human, follower):
    post = make_post(human, "p")
    with events():
        services.like_add(follower, post.id)
        services.follow_add(make_user("Fan"), human.id)
    client = login_client(human)
    response = client.post("/api/notifications/mark", {"slot": "follow", "term": _term(human), "isRead": True}, format="json")
    assert response.status_code == 204 and response.content == b""
    states = {r["slot"]: r["isRead"] for r in _feed(human).json()}
    assert states == {"follow": True, f"like:{post.hex_id}": False}

    assert client.post("/api/notifications/mark-all", {"isRead": True}, format="json").status_code == 204
    assert all(r["isRead"] for r in _feed(human).json())
    assert client.post("/api/notifications/mark-all", {"isRead": False}, format="json").status_code == 204
    assert not any(r["isRead"] for r in _feed(human).json())


def _term(user):
    return timezone.now().astimezone(zoneinfo.ZoneInfo(user.timezone)).strftime("%Y-%m-%d")


def test_mark_validation(human):
    client = login_client(human)
    response = client.post("/api/notifications/mark", {"slot": "follow"}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "slot, term and isRead are required"}
    response = client.post("/api/notifications/mark-all", {"isRead": "yes"}, format="json")
    assert response.status_code == 400 and response.json() == {"error": "isRead is required"}


def test_mark_only_touches_own_rows(events, human, follower):
    with events():
        services.follow_add(make_user("Fan"), human.id)
    login_client(follower).post("/api/notifications/mark-all", {"isRead": True}, format="json")
    assert Notification.objects.get(user=human).is_read is False


def test_feed_304_with_newer_than(events, human, follower):
    assert _feed(human).json() == []
    with events():
        services.follow_add(make_user("Fan"), human.id)
    row = _feed(human).json()[0]
    response = _feed(human, f"?newerThan={row['updatedAt']}")
    assert response.status_code == 304 and response.content == b""
    assert _feed(human, "?newerThan=2000-01-01T00:00:00Z").status_code == 200

    with events():
        services.like_add(follower, make_post(human, "p").id)
    response = _feed(human, f"?newerThan={row['updatedAt']}")
    assert response.status_code == 200 and len(response.json()) == 2

    # Only unread rows count as news.
    services.notification_mark_all(human, is_read=True)
    assert _feed(human, "?newerThan=2000-01-01T00:00:00Z").status_code == 304


def test_feed_invalid_newer_than(human):
    response = _feed(human, "?newerThan=yesterday")
    assert response.status_code == 400 and response.json() == {"error": "invalid newerThan"}


def test_feed_merges_shown_unread_and_read(events, human, settings):
    settings.STGY_NOTIFICATION_SHOWN_RECORDS = 2
    posts = [make_post(human, f"p{i}") for i in range(6)]
    fan = make_user("Fan")
    with events():
        for post in posts[:3]:
            services.like_add(fan, post.id)
    services.notification_mark_all(human, is_read=True)
    with events():
        for post in posts[3:]:
            services.like_add(fan, post.id)
    rows = _feed(human).json()
    assert [r["isRead"] for r in rows] == [False, False, True, True]
    assert [r["slot"] for r in rows] == [f"like:{p.hex_id}" for p in (posts[5], posts[4], posts[2], posts[1])]


def test_feed_needs_login(api):
    assert api.get("/api/notifications/feed").status_code == 401


def test_a_batch_of_likes_and_follows_notifies_as_single_ones_would(
    events, human, follower, django_capture_on_commit_callbacks
):
    """likes_add and follows_add record their events together (two statements for the
    lot when each is the first of its row), with the same rows single calls make:
    a new row per like slot, an existing row folded into, a deleted post skipped."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    fan = make_user("Fan")
    first, second, gone = make_post(human, "first"), make_post(follower, "second"), make_post(human, "gone")
    with events():
        services.like_add(make_user("Earliest"), first.id)  # the row for `first` exists
    with events():
        services.likes_add(fan, [first.id, second.id, gone.id])
        services.post_delete(human, gone.id)
    first_row = _feed(human).json()
    [like_first] = [r for r in first_row if r["slot"] == f"like:{first.hex_id}"]
    assert [r["userNickname"] for r in like_first["records"]] == ["Fan", "Earliest"]
    assert like_first["countUsers"] == 2
    [like_second] = Notification.objects.filter(user=follower, slot=f"like:{second.hex_id}")
    assert like_second.payload["records"][0]["postSnippet"] == "second"
    assert not Notification.objects.filter(slot=f"like:{gone.hex_id}").exists()

    with django_capture_on_commit_callbacks() as callbacks:
        services.follows_add(fan, [human.id, follower.id])
    with CaptureQueriesContext(connection) as queries:
        for callback in callbacks:
            callback()
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    if connection.vendor == "postgresql":
        assert len(statements) == 2, statements
    for recipient in (human, follower):
        row = Notification.objects.get(user=recipient, slot="follow")
        assert row.payload["records"][0]["userNickname"] == "Fan" and row.payload["countUsers"] == 1


def test_gathered_notifications_are_recorded_together_when_the_block_ends(
    human, follower, django_capture_on_commit_callbacks
):
    """Inside notifications_gathered the actions' events wait for the block's end and
    are then recorded as one batch per actor (two statements on PostgreSQL): a like, a
    repost, a reply and a follow of one actor give the rows single calls give; an
    action that rolled back notifies nobody."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    fan = make_user("Fan")
    post = make_post(human, "shared")
    with services.notifications_gathered():
        with django_capture_on_commit_callbacks(execute=True):  # the actions commit
            services.like_add(fan, post.id)
            services.repost_add(fan, post.id)
            reply = services.post_create(fan, content="so true", tags=[], reply_to=post.id)
            services.follow_add(fan, follower.id)
            with pytest.raises(RuntimeError), transaction.atomic():
                services.follow_add(fan, human.id)
                raise RuntimeError("rolled back")
        assert not Notification.objects.exists()  # nothing before the block ends
    slots = dict(Notification.objects.values_list("slot", "user_id"))
    assert slots == {
        f"like:{post.hex_id}": human.id, f"repost:{post.hex_id}": human.id,
        f"reply:{post.hex_id}": human.id, "follow": follower.id,
    }
    reply_row = Notification.objects.get(slot=f"reply:{post.hex_id}")
    assert reply_row.payload["records"][0]["postId"] == reply.hex_id
    assert reply_row.payload["records"][0]["userNickname"] == "Fan"

    second = make_post(follower, "second")
    with CaptureQueriesContext(connection) as queries:
        with services.notifications_gathered():
            with django_capture_on_commit_callbacks(execute=True):
                services.like_add(fan, second.id)
                services.repost_add(fan, second.id)
            actions = len(queries.captured_queries)
    notifying = queries.captured_queries[actions:]  # at the block's end
    if connection.vendor == "postgresql":
        assert len(notifying) == 2, [q["sql"] for q in notifying]
    slots = [f"like:{second.hex_id}", f"repost:{second.hex_id}"]
    assert Notification.objects.filter(user=follower, slot__in=slots).count() == 2


def test_an_action_committed_after_its_gathering_block_ended_still_notifies(
    human, django_capture_on_commit_callbacks
):
    """A gathering block inside a transaction ends before its actions commit: their
    notifications are then recorded as they commit, not lost."""
    fan = make_user("Fan")
    post = make_post(human, "late")
    with django_capture_on_commit_callbacks(execute=True):  # the outer transaction's commit
        with services.notifications_gathered():
            services.like_add(fan, post.id)
        assert not Notification.objects.exists()
    assert Notification.objects.filter(user=human, slot=f"like:{post.hex_id}").count() == 1
