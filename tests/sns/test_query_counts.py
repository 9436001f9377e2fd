"""Timelines cost a constant number of queries, whatever the number of rows."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns import services
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _count(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def _grow(human, follower, events, n):
    """`n` posts by distinct followed authors, each liked and replied to, each author
    following `human` back, and `n` notification rows for `human`."""
    with events(execute=True):
        for i in range(n):
            author = make_user(f"author{i}")
            services.follow_add(follower, author.id)
            services.follow_add(author, human.id)
            post = make_post(author, f"post {i}", tags=["t1", "t2"])
            make_post(human, f"reply {i}", reply_to=post.id)
            services.like_add(human, post.id)
            services.like_add(author, make_post(human, f"own {i}").id)


@pytest.mark.parametrize(
    "path",
    [
        "/api/posts?focusUserId={human}",
        "/api/posts/by-followees?userId={follower}&focusUserId={follower}&includeSelf=true",
        "/api/posts/liked?userId={human}&focusUserId={human}",
        "/api/users?focusUserId={human}",
        "/api/users?order=social&focusUserId={human}",
        "/api/users/{human}/followers?focusUserId={follower}",
        "/api/notifications/feed",
    ],
)
def test_query_count_is_constant(human, follower, django_capture_on_commit_callbacks, django_assert_num_queries, path):
    path = path.format(human=human.hex_id, follower=follower.hex_id)
    client = login_client(human)
    _grow(human, follower, django_capture_on_commit_callbacks, 3)
    client.get(path)  # warm up: the first request of a session may do one-off work
    small = _count(client, path)
    _grow(human, follower, django_capture_on_commit_callbacks, 17)
    with django_assert_num_queries(small):
        response = client.get(path)
    assert len(response.json()) >= 20


# The rulebook's writes, notification included (run on commit, as in production):
# the target and every check in one query, the row and its counters in two — one on
# PostgreSQL, the counters' UPDATE a CTE of the INSERT (plus a savepoint pair here,
# BEGIN/COMMIT in production), the notification's checks in one and its new row in
# one more. A reply also writes its tags, two counters and its summary row (on
# PostgreSQL its row, tags, counters and summary row are one statement:
# sns/services/post_insert.py, the summary row through sns/extensions.py `post_rows`).
# (PostgreSQL inserts a new notification row outright; SQLite reads it locked first,
# and its savepoints and locks count as statements.) After a reply commits, one read of
# its ancestors gives the open thread pages their mark (sns/reads/live_marks.py).
LIKE_QUERIES = {"postgresql": 6, "sqlite": 10}
FOLLOW_QUERIES = {"postgresql": 6, "sqlite": 10}
REPLY_QUERIES = {"postgresql": 7, "sqlite": 14}


def _notified_queries(events, action) -> int:
    with CaptureQueriesContext(connection) as queries, events(execute=True):
        action()
    return len(queries)


def test_like_follow_and_reply_cost_a_fixed_number_of_queries(human, follower, django_capture_on_commit_callbacks):
    events = django_capture_on_commit_callbacks
    post = make_post(human, "hello")
    assert _notified_queries(events, lambda: services.like_add(follower, post.id)) <= LIKE_QUERIES[connection.vendor]
    newcomer = make_user("Newcomer")
    assert _notified_queries(events, lambda: services.follow_add(newcomer, human.id)) <= FOLLOW_QUERIES[connection.vendor]
    reply = lambda: services.post_create(follower, content="re", tags=["a"], reply_to=post.id)  # noqa: E731
    assert _notified_queries(events, reply) <= REPLY_QUERIES[connection.vendor]
