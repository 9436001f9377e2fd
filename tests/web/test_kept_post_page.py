"""A post page's kept parts (sns/web/kept_parts.py) write the includes' bytes. The
times and links: for the author, another user, an admin and a reader in another time
zone, on a public post, an edited reply and posts with and without neighbours, cold and
warm; an edit, a publication and a new neighbour show at once. The reply box: with
each response's own CSRF token, on a post closed to replies, and a form prefilled with
refused input is not the kept fresh one."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from sns import services
from sns.web import fragments, kept_parts
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')


def _page(client, post) -> str:
    return _TOKEN.sub(r"\1\2", client.get(f"/posts/{post.hex_id}").content.decode())


def _meta(html: str) -> str:
    start = html.index('<div class="post-meta">')
    return html[start:html.index("</nav>", start)]


def _same_as_the_include(client, post, settings) -> str:
    settings.STGY_PAGE_FRAGMENTS = False
    reference = _page(client, post)
    settings.STGY_PAGE_FRAGMENTS = True
    kept = _page(client, post)
    assert kept == reference
    return _meta(kept)


def test_same_bytes_as_the_include_for_each_viewer(page_client, settings):
    alice = make_user("Alice")
    readers = [alice, make_user("Bob", timezone="Asia/Tokyo"), make_user("Root", is_admin=True)]
    public = make_post(alice, "Public words", published_at=timezone.now() - timedelta(minutes=5))
    middle = make_post(alice, "Middle")
    reply = make_post(readers[1], "A reply", reply_to=middle.id)
    services.post_update(readers[1], reply.id, content="A reply (edited)")
    fragments.clear()
    for _ in range(2):  # cold, then warm
        for reader in readers:
            for post in (public, middle, reply):
                _same_as_the_include(page_client(reader), post, settings)
    assert len(kept_parts._meta) == 9
    bob_sees = _same_as_the_include(page_client(readers[1]), reply, settings)
    assert "edited" in bob_sees and "Edit</a>" in bob_sees and "Report" not in bob_sees


def test_an_edit_a_publication_and_a_new_neighbour_show_at_once(page_client, settings):
    alice, bob = make_user("Alice"), make_user("Bob")
    post = make_post(alice, "First")
    client = page_client(bob)
    meta = _same_as_the_include(client, post, settings)
    assert "edited" not in meta and "Public page" not in meta and "Newer post" not in meta
    services.post_update(alice, post.id, content="First (edited)")
    assert "edited" in _same_as_the_include(client, post, settings)
    services.post_update(alice, post.id, published_at=timezone.now() - timedelta(minutes=1))
    assert "Public page" in _same_as_the_include(client, post, settings)
    newer = make_post(alice, "Second")
    assert f"/posts/{newer.hex_id}" in _same_as_the_include(client, post, settings)


_TOKENS = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def _reply_box(html: str) -> str:
    start = html.index("</h2>", html.index('<section class="replies"'))
    return html[start:html.index("</form>", start)] if "reply-form" in html[start:] else html[start:start + 200]


def test_the_reply_box_is_the_includes_with_this_responses_token(page_client, settings):
    alice, bob = make_user("Alice"), make_user("Bob")
    open_post, closed = make_post(alice, "Open"), make_post(alice, "Closed", allow_replies=False)
    client = page_client(bob)
    fragments.clear()
    for _ in range(2):  # cold, then warm
        for post in (open_post, closed):
            _same_as_the_include(client, post, settings)
    assert len(kept_parts._reply_box) == 2
    html = client.get(f"/posts/{open_post.hex_id}").content.decode()
    box_tokens = _TOKENS.findall(_reply_box(html))
    assert len(box_tokens) == 1 and box_tokens[0] in _TOKENS.findall(html[:html.index('<section class="replies"')])
    assert "\ue000" not in html
    assert "turned replies off" in _reply_box(_page(client, closed))


def test_refused_input_is_not_the_kept_reply_box(page_client, settings):
    settings.STGY_PAGE_FRAGMENTS = True
    alice = make_user("Alice")
    post = make_post(alice, "Open")
    client = page_client(alice)
    fresh = _reply_box(_page(client, post))
    session = client.session
    session["web:kept-input"] = {"path": f"/posts/{post.hex_id}", "action": f"/posts/{post.hex_id}/reply",
                                 "data": {"content": "typed <text>"}, "errors": {"content": "Too long."}}
    session.save()
    prefilled = _reply_box(_page(client, post))
    assert "typed &lt;text&gt;" in prefilled and "Too long." in prefilled
    assert _reply_box(_page(client, post)) == fresh
