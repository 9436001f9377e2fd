"""A post page's kept times and links (sns/web/kept_post_meta.py) write the include's
bytes: for the author, another user, an admin and a reader in another time zone, on a
public post, an edited reply and posts with and without neighbours, cold and warm; and
an edit, a publication and a new neighbour show at once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from sns import services
from sns.web import fragments, kept_post_meta
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
    assert len(kept_post_meta._meta) == 9
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
