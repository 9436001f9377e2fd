"""sns/internals/: the one package that reaches below Django's and psycopg's public
surface. It was verified on the versions pinned here; a new version fails this test
until someone has read sns/internals/ against it (Django's cursor wrappers, psycopg's
server-binding cursor and its prepare threshold, ModelState and the deferred attributes) and moved the pin. Both
positions of its switch, STGY_FRAMEWORK_INTERNALS, give the same rows and instances."""

from __future__ import annotations

import django
import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sns.internals import internals_on
from sns.internals.model_rows import maker
from sns.models import Post
from sns.selectors import Page
from sns.selectors.post_reads import instances, tuples
from tests.sns.test_post_rows import community  # noqa: F401 (the seeded community)

VERIFIED_DJANGO = (5, 2)
VERIFIED_PSYCOPG = (3, 3)

pytestmark = pytest.mark.django_db


def test_the_versions_are_the_verified_ones():
    assert django.VERSION[:2] == VERIFIED_DJANGO
    assert tuple(int(part) for part in psycopg.__version__.split(".")[:2]) == VERIFIED_PSYCOPG


def _reads(users, posts):
    reader = users[0]
    return [
        tuples.post_rows_list(page=Page(limit=30), focus_user_id=reader.id, viewer=reader, tag="tea"),
        tuples.post_rows_by_followees(user_id=reader.id, page=Page(limit=20), include_self=True, viewer=reader),
        tuples.post_row_get(posts[12].id, focus_user_id=reader.id),
        [vars(p) | {"_state": None} for p in instances.posts_page(reader, Page(limit=20), focus_user_id=reader.id)],
    ]


@pytest.fixture
def switch(settings):
    def turn(on: bool):
        settings.STGY_FRAMEWORK_INTERNALS = on
        internals_on.cache_clear()

    yield turn
    internals_on.cache_clear()


def test_both_positions_of_the_switch_give_the_same_rows(community, switch):
    users, posts = community
    switch(True)
    on = _reads(users, posts)
    switch(False)
    off = _reads(users, posts)
    assert on == off
    assert any(on[0]) and on[1] and on[3]


def test_the_switch_decides_how_instances_are_made(switch):
    switch(True)
    assert maker(Post) is not Post.from_db
    switch(False)
    assert maker(Post) == Post.from_db


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared on PostgreSQL only")
def test_the_switch_decides_whether_statements_are_prepared(community, switch):
    users, _ = community
    switch(False)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    tuples.post_rows_list(page=Page(limit=5), viewer=users[0])
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] == 0
    switch(True)
    with CaptureQueriesContext(connection) as queries:
        tuples.post_rows_list(page=Page(limit=5), viewer=users[0])
    # Logged with its parameters filled in, as Django logs its own statements.
    assert "%s" not in queries[0]["sql"] and str(users[0].id) in queries[0]["sql"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] == 1
