"""The post page's conversation reads (sns/selectors/post_reads/threads.py) give, in one
recursive statement on PostgreSQL, the posts the per-level reads give: the replies below
a page's replies, a few levels deep and the first few of each parent, and the ancestors
above a post — for readers a block, blockStrangers, a frozen owner, a mute and a muted
word hide things from."""

from __future__ import annotations

import pytest
from django.db import connection

from sns.models import Post
from sns.selectors.post_reads import instances as post_models
from sns.selectors.post_reads import threads as thread_models
from sns.selectors.posts import post_queryset
from sns.services import mutes
from tests.factories import make_post, make_user
from tests.sns import reference_reads
from tests.sns.test_post_models import _everything
from tests.sns.test_post_rows import community  # noqa: F401 (the seeded community)

# On SQLite the builder reads level by level (written SQL too): compared all the same.
pytestmark = pytest.mark.django_db


def _readers(users):
    return users[:8]


def _sibling_sets(users, ids):
    """(reader, parents) as a page gives them: the roots, and each post's replies."""
    for reader in _readers(users):
        mine = post_queryset(reader.id).filter(pk__in=ids).order_by("id")
        yield reader, list(mine.filter(reply_to__isnull=True))
        for parent in Post.objects.filter(pk__in=ids, reply_count__gt=0):
            yield reader, list(mine.filter(reply_to=parent.id))


def test_the_replies_below_are_the_per_level_reads(community):
    users, posts = community
    cut = deep = False
    ids = [p.id for p in posts]
    for reader, parents in _sibling_sets(users, ids):
        for levels, per_parent in ((3, 5), (3, 1), (1, 2), (6, 2)):
            reference = reference_reads.descendants_by_level(
                reader, parents, levels=levels, per_parent=per_parent, focus_user_id=reader.id
            )
            lean = thread_models.reply_descendants(
                reader, parents, levels=levels, per_parent=per_parent, focus_user_id=reader.id
            )
            assert [_everything(p) for p in lean] == [_everything(p) for p in reference]
            shown = {p.id for p in reference}
            cut |= any(p.reply_count > per_parent for p in parents if p.id not in shown)
            deep |= any(p.reply_to in shown for p in reference)
    assert cut, "some parent has more replies than are taken"
    assert deep, "some reply taken is below another taken"


def test_the_replies_hidden_from_a_reader_take_no_place(community):
    users, posts = community
    posts = list(Post.objects.filter(pk__in=[p.id for p in posts]))  # their reply counts now
    everyone = thread_models.reply_descendants(None, posts, levels=1, per_parent=100, focus_user_id=users[0].id)
    reference = reference_reads.descendants_by_level(None, posts, levels=1, per_parent=100, focus_user_id=users[0].id)
    assert [_everything(p) for p in everyone] == [_everything(p) for p in reference]
    theirs = thread_models.reply_descendants(users[0], posts, levels=1, per_parent=100, focus_user_id=users[0].id)
    assert {p.id for p in theirs} < {p.id for p in everyone}


def test_the_ancestors_are_reply_chain_s(community):
    users, posts = community
    longest = 0
    replies = Post.objects.filter(pk__in=[p.id for p in posts], reply_to__isnull=False).order_by("id")
    for reader in (*_readers(users), None):
        for post in replies:
            for limit in (20, 1, 2):
                reference = post_models.reply_chain(post, limit=limit, viewer=reader)
                lean = thread_models.ancestors(post, limit=limit, viewer=reader)
                assert [_everything(p) for p in lean] == [_everything(p) for p in reference]
                longest = max(longest, len(reference))
    assert longest >= 2, "the community has chains to walk"


def test_a_long_chain_stops_at_the_limit_and_at_a_hidden_parent():
    mina, kai, rex = make_user("Mina"), make_user("Kai"), make_user("Rex")
    chain = [make_post(mina, "root")]
    for i in range(7):
        chain.append(make_post(rex if i == 2 else kai, f"level {i}", reply_to=chain[-1].id))
    mutes.mute_add(mina, rex.id)
    last = chain[-1]
    for reader in (mina, kai, None):
        for limit in (20, 3):
            reference = post_models.reply_chain(last, limit=limit, viewer=reader)
            assert [p.id for p in thread_models.ancestors(last, limit=limit, viewer=reader)] == [p.id for p in reference]
    assert [p.id for p in thread_models.ancestors(last, limit=20, viewer=kai)] == [p.id for p in chain[:-1]]
    assert [p.id for p in thread_models.ancestors(last, limit=3, viewer=kai)] == [p.id for p in chain[-4:-1]]
    # Rex's post (the fourth) is hidden from Mina: her chain stops below it.
    assert [p.id for p in thread_models.ancestors(last, limit=20, viewer=mina)] == [p.id for p in chain[4:-1]]


def test_a_root_post_has_no_ancestors_and_reads_nothing(community, django_assert_num_queries):
    users, posts = community
    root = next(p for p in posts if p.reply_to is None)
    with django_assert_num_queries(0):
        assert thread_models.ancestors(root, limit=20, viewer=users[0]) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared on PostgreSQL only")
def test_the_thread_statements_are_planned_once(community):
    """As the pages' other prepared reads (tests/web/test_page_query_counts.py): a
    statement PostgreSQL plans anew on every execution costs its planning every view."""
    users, posts = community
    reader = users[2]
    roots = list(post_queryset(reader.id).filter(pk__in=[p.id for p in posts], reply_to__isnull=True))
    deepest = Post.objects.filter(pk__in=[p.id for p in posts], reply_to__isnull=False).order_by("-id").first()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    for _ in range(8):
        assert thread_models.reply_descendants(reader, roots, levels=3, per_parent=5, focus_user_id=reader.id)
        assert thread_models.ancestors(deepest, limit=20, viewer=reader)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE generic_plans = 0 AND custom_plans > 5")
        replanned = [row[0][-300:] for row in cursor.fetchall()]
    assert not replanned, replanned
