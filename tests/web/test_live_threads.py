"""A post page and a message thread learn of something new from one cache read
(sns/reads/live_marks.py, GET /live/replies/<post>, /live/messages/<user>): a reply anywhere
under the post, or a message between the two, turns `changed` on; a lost mark is read
again from the database; a stranger's or a bad request gets a JSON error."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from sns import services
from sns.services import messages
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _reply(owner, parent, text="a reply"):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.post_create(owner, content=text, tags=[], reply_to=parent.id)


def test_a_reply_anywhere_under_the_post_is_news_to_its_page(page_client):
    maya, kai = make_user("Maya"), make_user("Kai")
    root = make_post(kai, "root")
    client = page_client(maya)
    page = client.get(f"/posts/{root.hex_id}").content.decode()
    assert (
        'data-live-after="0000000000000000"' in page and 'aria-live="polite" data-live-note' in page
    )
    assert client.get(f"/live/replies/{root.hex_id}?after=0").json() == {
        "changed": False,
        "newest": "0000000000000000",
    }
    first = _reply(maya, root)
    deep = _reply(kai, first, "an answer to the answer")
    with CaptureQueriesContext(connection) as queries:
        data = client.get(f"/live/replies/{root.hex_id}?after={first.hex_id}").json()
    assert data == {"changed": True, "newest": deep.hex_id}
    assert not [q for q in queries if "sns_post" in q["sql"]]  # the cache answered
    assert (
        client.get(f"/live/replies/{first.hex_id}?after={deep.hex_id}").json()["changed"] is False
    )
    # The page draws the mark it polls from.
    assert (
        f'data-live-after="{deep.hex_id}"' in client.get(f"/posts/{root.hex_id}").content.decode()
    )
    cache.clear()  # a lost mark is read again from the database
    assert (
        client.get(f"/live/replies/{root.hex_id}?after={first.hex_id}").json()["newest"]
        == deep.hex_id
    )


def test_a_new_message_is_news_to_both_sides_only(page_client):
    maya, kai, eve = make_user("Maya"), make_user("Kai"), make_user("Eve")
    services.follow_add(maya, kai.id)
    services.follow_add(kai, maya.id)
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = messages.message_send(maya, kai.id, content="hello")
    page = page_client(maya).get(f"/messages/{kai.hex_id}").content.decode()
    assert f'data-live-after="{first.hex_id}"' in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        answer = messages.message_send(kai, maya.id, content="hi Maya")
    data = page_client(maya).get(f"/live/messages/{kai.hex_id}?after={first.hex_id}").json()
    assert data == {"changed": True, "newest": answer.hex_id}
    # Eve asks about her own (empty) conversation with Kai, never about theirs.
    assert page_client(eve).get(f"/live/messages/{kai.hex_id}?after=0").json()["changed"] is False
    cache.clear()
    assert (
        page_client(maya).get(f"/live/messages/{kai.hex_id}?after=0").json()["newest"]
        == answer.hex_id
    )


def test_errors_are_json(page_client):
    maya = make_user("Maya")
    post = make_post(maya, "root")
    assert page_client().get(f"/live/replies/{post.hex_id}").status_code == 401
    bad = page_client(maya).get(f"/live/replies/{post.hex_id}?after=zz")
    assert bad.status_code == 400 and bad.json() == {"error": "invalid after"}
    assert page_client(maya).get("/live/messages/nothex").json() == {"error": "invalid user id"}
