"""The home timeline and the post page run a pinned number of SQL statements, whatever
the page holds (posts, reposts, quotes, replies, ancestors up to the shown depth):
each read is one statement (sns/selectors/post_reads/instances.py), so a read that goes back to
one statement per row, or a new read per view, fails here. PostgreSQL reads the
Following tab's followees inside the posts' statement; SQLite runs it first."""

from __future__ import annotations

import pytest
from django.db import connection

from sns import services
from sns.models import User
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

# The session's auth record (read on every request here: see page_queries), the
# followees' posts, their reposts, the reposted posts, the share facts, the quoted posts,
# the header's two unread counts (its nickname and time zone are in the auth record); on
# SQLite the header's counts are their reads' own statements.
HOME = {"postgresql": 7, "sqlite": 8}
# The auth record, the post with its neighbours, its replies, one per ancestor, the
# share facts, the header's two counts.
POST_PAGE = {"postgresql": 5, "sqlite": 6}


@pytest.fixture
def busy(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        reader, alice, bob = make_user("Reader"), make_user("Alice"), make_user("Bob")
        services.follow_add(reader, alice.id)
        services.follow_add(reader, bob.id)
        posts = [make_post(alice if i % 2 else bob, f"post {i}", tags=["tea"]) for i in range(25)]
        for post in posts[:6]:
            services.repost_add(bob, post.id)
        services.quote_create(alice, posts[3].id, content="a quote")
        services.bookmark_add(reader, posts[4].id)
        services.like_add(reader, posts[5].id)
        root = posts[0]
        for i in range(8):
            make_post(alice, f"reply {i}", reply_to=root.id)
    return reader, root


def test_the_home_page_runs_a_pinned_number_of_statements(busy, page_client, page_queries):
    reader, _ = busy
    queries = page_queries(page_client(reader), "/")
    assert len(queries) == HOME[connection.vendor], "\n".join(q[:150] for q in queries)


def test_the_post_page_runs_a_pinned_number_of_statements(busy, page_client, page_queries):
    reader, root = busy
    client = page_client(reader)
    assert len(page_queries(client, f"/posts/{root.hex_id}")) == POST_PAGE[connection.vendor]
    reply = make_post(reader, "a reply to the root", reply_to=root.id)
    # One more statement: the ancestor the reply's page shows above it.
    assert len(page_queries(client, f"/posts/{reply.hex_id}")) == POST_PAGE[connection.vendor] + 1


def _but_parent_checks(queries: list[str]) -> list[str]:
    """Without the one check of the authors of replies' parents that are not on the page
    (sns/web/cards.py cards_attach), which comes and goes as new posts push a parent off
    the page."""
    check = 'SELECT "sns_user"."id" AS "pk" FROM "sns_user" WHERE ("sns_user"."id" IN ('
    return [q for q in queries if not q.startswith(check)]


def test_a_pages_mentions_are_looked_up_in_one_statement(busy, page_client, page_queries):
    """Whom the cards' @mentions link to is read for the whole page at once: one more
    statement than a page without mentions, however many cards mention someone."""
    reader, root = busy
    bob = root.owner  # posts[0], the root of the replies, is Bob's
    assert bob.nickname == "Bob"
    # Mentions of Alice, not of the reader: a mention of the reader would add its
    # notification to the header's reads.
    alice = User.objects.get(nickname="Alice")
    client = page_client(reader)
    mention_of_alice = f'<a href="/users/{alice.hex_id}" rel="nofollow noopener noreferrer">@'
    without = len(_but_parent_checks(page_queries(client, "/")))
    make_post(bob, "hello @Alice")
    assert len(_but_parent_checks(page_queries(client, "/"))) == without + 1
    for i in range(5):
        make_post(bob, f"@alice and @[Nobody Here] number {i}")
    queries = _but_parent_checks(page_queries(client, "/"))
    assert len(queries) == without + 1, "\n".join(q[:150] for q in queries)
    assert client.get("/").content.decode().count(mention_of_alice) == 6

    in_replies = len(page_queries(client, f"/posts/{root.hex_id}"))
    for i in range(3):
        make_post(alice, f"@Bob reply {i}", reply_to=root.id)
    assert len(page_queries(client, f"/posts/{root.hex_id}")) == in_replies + 1
    mention_of_bob = f'<a href="/users/{bob.hex_id}" rel="nofollow noopener noreferrer">@Bob</a>'
    assert client.get(f"/posts/{root.hex_id}").content.decode().count(mention_of_bob) == 3


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plan cache")
def test_the_pages_prepared_statements_are_planned_once(busy, page_client):
    """A prepared statement is worth it only if PostgreSQL keeps its generic plan: one
    that it plans anew on every execution (a bound LIMIT made the generic plan look
    dear) costs the planning on every view."""
    reader, root = busy
    client = page_client(reader)
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    for _ in range(8):
        for url in ("/", f"/posts/{root.hex_id}", f"/users/{reader.hex_id}", "/api/posts?limit=20"):
            assert client.get(url).status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE generic_plans = 0 AND custom_plans > 5")
        replanned = [row[0][:300] for row in cursor.fetchall()]
    assert not replanned, replanned
