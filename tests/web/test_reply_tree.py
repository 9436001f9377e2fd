"""A post page shows the whole conversation under it (sns/selectors/reply_tree.py): replies to
replies, nested, a few levels deep, the first five of each in order, the rest behind a
"show more" link; the query count does not grow with the thread."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from sns import services
from sns.selectors import Page
from sns.selectors.reply_tree import DEPTH, PER_PARENT, reply_tree
from tests.factories import make_post, make_user
from tests.sns.reference_reads import posts_list

pytestmark = pytest.mark.django_db


def reply(author, parent, text):
    return services.post_create(author, content=text, tags=[], reply_to=parent.id)


@pytest.fixture
def thread():
    mina, kai = make_user("Mina"), make_user("Kai")
    root = make_post(mina, "Root of the thread")
    first = reply(kai, root, "Level one")
    second = reply(mina, first, "Level two")
    third = reply(kai, second, "Level three")
    fourth = reply(mina, third, "Level four")
    fifth = reply(kai, fourth, "Level five")
    return mina, root, [first, second, third, fourth, fifth]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_nests_replies_down_to_the_depth(thread):
    mina, root, levels = thread
    body = client_of(mina).get(f"/posts/{root.hex_id}").content.decode()
    for post in levels[:DEPTH]:
        assert f'id="post-{post.hex_id}"' in body
    assert f'id="post-{levels[DEPTH].hex_id}"' not in body
    # The deepest shown reply links to where its own replies are.
    assert f'href="/posts/{levels[DEPTH - 1].hex_id}#replies">1 reply to Mina →' in body
    assert body.count('<ol class="reply-tree') == DEPTH


def test_first_replies_of_each_parent_in_order_and_the_rest_counted():
    mina, kai = make_user("Mina"), make_user("Kai")
    root = make_post(mina, "Root")
    first = reply(kai, root, "Level one")
    answers = [reply(mina, first, f"Answer {i}") for i in range(PER_PARENT + 2)]
    [node] = reply_tree(posts_list(page=Page(offset=0, limit=10), reply_to=root.id, focus_user_id=mina.id), viewer=mina)
    assert [c.post.id for c in node.children] == [a.id for a in answers[:PER_PARENT]]
    assert node.more == 2
    body = client_of(mina).get(f"/posts/{root.hex_id}").content.decode()
    assert "Show 2 more replies →" in body


def test_queries_do_not_grow_with_the_thread():
    mina, kai = make_user("Mina"), make_user("Kai")

    def queries_for(width: int) -> int:
        root = make_post(mina, f"Root {width}")
        for i in range(width):
            child = reply(kai, root, f"Reply {i}")
            grandchild = reply(mina, child, f"Answer {i}")
            reply(kai, grandchild, f"And back {i}")
        client = client_of(mina)
        client.get(f"/posts/{root.hex_id}")  # warm caches (sessions, agreement)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/posts/{root.hex_id}").status_code == 200
        return len(queries.captured_queries)

    assert queries_for(2) == queries_for(8)


def test_deeper_levels_are_folded(thread):
    mina, root, levels = thread
    body = client_of(mina).get(f"/posts/{root.hex_id}").content.decode()
    assert re.search(r"<details class=\"deeper\"><summary>1 reply to Mina</summary>", body)
