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
