"""The pages' HTML is the same with the kept cards (sns/web/fragments.py: the output of
sns/web/cards.py `card_html` kept by key, the per-view parts filled in) as with the
reference, every card drawn whole (STGY_PAGE_FRAGMENTS off): for several readers, with
the kept cards cold and warm, on a community with
mentions, tags, link cards, long posts, quotes, reposts, likes, bookmarks, an AI user,
a block, a mute and an edit. And the caches never show what has changed: an edit, a
like, a block, a mute, a delete, a rename are on the next view."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from django.test import TestCase

from sns import services
from sns.core import ids
from sns.models import User
from sns.services import mutes
from sns.web import fragments
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db

_CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
LONG = "\n".join(f"line {i} of a long post" for i in range(20))


def _normalised(html: str) -> str:
    # A CSRF token is masked anew for every response: the only per-request token.
    return _CSRF.sub(r"\1…\2", html)


class _DaysAgo(ids.IdIssuer):
    """Ids (which carry their creation time) of three days ago, so a post's "… ago"
    cannot tick over between two renderings being compared, as "just now" would."""

    def issue(self) -> int:
        return super().issue() - (int(timedelta(days=3).total_seconds() * 1000) << 20)


@pytest.fixture
def community(monkeypatch):
    monkeypatch.setattr(ids, "_issuer", _DaysAgo(1))
    monkeypatch.setattr(ids, "_issuer_pid", os.getpid())
    with TestCase.captureOnCommitCallbacks(execute=True):
        alice = make_user("Alice", locale="en-US")
        bob = make_user("Bob", timezone="Asia/Tokyo")
        carol = make_ai_user("Carol", tier="balanced")
        dave = make_user("Dave")
        erin = make_user("Erin")
        root = make_user("Root", is_admin=True)
        for follower, followee in ((bob, alice), (bob, carol), (bob, erin), (alice, carol), (root, alice)):
            services.follow_add(follower, followee.id)
        services.block_add(alice, dave.id)
        mutes.mute_add(bob, erin.id)
        first = make_post(alice, "Hello **world** from @Bob & <friends>", tags=["tea", "go_50%"])
        make_post(alice, LONG, tags=["long"], allow_likes=False)
        make_post(alice, "A text too long to be kept as a fragment. " * 60)
        make_post(alice, "A link card\n%[Example site](https://example.com/page)\nand [a link](https://example.org/x)")
        carol_post = make_post(carol, "Carol's _recipe_ for miso", locale="ja")
        reply = make_post(bob, "Bob replies to @alice", reply_to=first.id)
        make_post(carol, "Carol replies to Bob", reply_to=reply.id)
        make_post(dave, "Dave's post the blocker must not see")
        make_post(erin, "Erin's post Bob muted")
        closed = make_post(carol, "No replies here", allow_replies=False)
        services.quote_create(bob, first.id, content="Bob quotes Alice")
        services.repost_add(alice, carol_post.id)
        services.bookmark_add(bob, first.id)
        services.like_add(bob, first.id)
        services.like_add(carol, first.id)
        services.like_add(alice, closed.id)
        services.post_update(alice, first.id, content="Hello **world** from @Bob & <friends> (edited)")
    users = {u.nickname.lower(): u for u in User.objects.all()}
    return users, first, reply, carol_post


def _paths(users, first, reply, carol_post) -> list[str]:
    return [
        "/",
        "/?tab=everyone",
        "/?tag=tea",
        f"/posts/{first.hex_id}",
        f"/posts/{reply.hex_id}",
        f"/posts/{carol_post.hex_id}",
        f"/users/{users['alice'].hex_id}",
        "/bookmarks",
    ]


def _render(client, path: str) -> str:
    response = client.get(path)
    return f"{response.status_code} {response.get('Location', '')}\n" + _normalised(response.content.decode())


@pytest.mark.parametrize("reader", [None, "alice", "bob", "dave", "root"])
def test_kept_cards_give_the_reference_html_cold_and_warm(community, page_client, settings, reader):
    users = community[0]
    client = page_client(users[reader] if reader else None)
    paths = _paths(*community)
    settings.STGY_PAGE_FRAGMENTS = False
    reference = {path: _render(client, path) for path in paths}
    settings.STGY_PAGE_FRAGMENTS = True
    fragments.clear()
    cold = {path: _render(client, path) for path in paths}
    if reader:  # the warm pages below are drawn from kept cards
        assert len(fragments._kept_cards) >= 4
    warm = {path: _render(client, path) for path in paths}
    for path in paths:
        assert cold[path] == reference[path], path
        assert warm[path] == reference[path], path
    if reader:  # the comparison covered cards (the blocked reader sees none of Alice's)
        assert reference["/?tab=everyone"].count('class="card post') >= 4
        assert ("404" if reader == "dave" else "200") == reference[f"/posts/{community[1].hex_id}"][:3]


def _changes_show(client, path: str, settings) -> str:
    """Render `path` with warm kept cards and check it against the reference."""
    settings.STGY_PAGE_FRAGMENTS = True
    fast = _render(client, path)
    settings.STGY_PAGE_FRAGMENTS = False
    assert fast == _render(client, path)
    settings.STGY_PAGE_FRAGMENTS = True
    return fast


def test_an_edit_a_like_a_delete_show_at_once(community, page_client, settings):
    users, first, _reply, _carol = community
    bob = page_client(users["bob"])
    before = _changes_show(bob, "/", settings)
    assert "(edited)" in before and "Fresh words" not in before
    services.post_update(users["alice"], first.id, content="Fresh words from Alice")
    after = _changes_show(bob, "/", settings)
    assert "Fresh words from Alice" in after and "(edited)" not in after

    page = _changes_show(bob, f"/posts/{first.hex_id}", settings)
    assert 'class="like liked" aria-pressed="true"' in page and '<span class="like-count">2</span>' in page
    services.like_remove(users["bob"], first.id)
    page = _changes_show(bob, f"/posts/{first.hex_id}", settings)
    assert 'class="like liked"' not in page and '<span class="like-count">1</span>' in page

    services.post_delete(users["alice"], first.id)
    assert "Fresh words from Alice" not in _changes_show(bob, "/", settings)


def test_a_block_and_a_mute_hide_at_once(community, page_client, settings):
    users, first, _reply, _carol_post = community
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    client = page_client(bob)
    home = _changes_show(client, "/?tab=everyone", settings)
    assert "<em>recipe</em> for miso" in home
    mutes.mute_add(bob, carol.id)
    home = _changes_show(client, "/?tab=everyone", settings)
    assert "<em>recipe</em> for miso" not in home

    alice_client = page_client(alice)
    thread = _changes_show(alice_client, f"/posts/{first.hex_id}", settings)
    assert "Bob replies to" in thread
    services.block_add(alice, bob.id)
    thread = _changes_show(alice_client, f"/posts/{first.hex_id}", settings)
    assert "Bob replies to" not in thread


def test_a_rename_and_a_new_mention_show_at_once(community, page_client, settings):
    users, _first, reply, _carol = community
    client = page_client(users["bob"])
    mention = re.compile(rf'href="/users/{users["alice"].hex_id}"[^>]*>@alice</a>')
    page = _changes_show(client, f"/posts/{reply.hex_id}", settings)
    assert mention.search(page)
    services.user_update(users["alice"], users["alice"].id, nickname="Alicia")
    page = _changes_show(client, f"/posts/{reply.hex_id}", settings)
    # The author line shows the new name; "@alice" names nobody any more and is text.
    assert '<span class="nickname">Alicia</span>' in page
    assert not mention.search(page) and "@alice" in page


def test_a_text_holding_the_kept_cards_markers_is_written_as_it_is(community, page_client, settings):
    """A kept card is a %-format with marked holes (sns/web/fragments.py): a post whose
    text holds a percent sign, a %-format or a hole's marker shows that text, cold and warm."""
    users, first, _reply, _carol = community
    text = "Half off: 50% and %(token)s and %s and \ue000ago\ue001 too"
    services.post_update(users["alice"], first.id, content=text)
    client = page_client(users["bob"])
    fragments.clear()
    for _ in range(2):
        home = _changes_show(client, "/", settings)
        page = _changes_show(client, f"/posts/{first.hex_id}", settings)
        for html in (home, page):
            assert "Half off: 50% and %(token)s and %s and" in html
