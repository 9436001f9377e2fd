"""The home timeline's kept tabs (sns/web/kept_parts.py) write the include's bytes: for
each tab, with and without posts, for a tag that needs escaping and one holding the
kept HTML's marker character, cold and warm; and the live check's newest id is the
page's own, never a kept one."""

from __future__ import annotations

import re

import pytest

from sns import services
from sns.web import fragments, kept_parts
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')


def _page(client, path: str) -> str:
    return _TOKEN.sub(r"\1\2", client.get(path).content.decode())


def _tabs(html: str) -> str:
    start = html.index('<nav class="tabs"')
    return html[start:html.index(">", html.index('<section class="timeline"')) + 1]


def test_same_bytes_as_the_include_cold_and_warm(page_client, settings):
    alice, bob = make_user("Alice"), make_user("Bob")
    services.follow_add(alice, bob.id)
    make_post(bob, "Tea time", tags=["tea"])
    quiet = make_user("Quiet")  # follows nobody: the empty timeline
    paths = ["/", "/?tab=everyone", "/?tab=foryou", "/?tag=tea", "/?tag=%3C%22a%26b%22%3E", "/?tag=x\ue000after\ue001",
             "/?tab=following&page=2", "/?tab=everyone&authors=people", "/?tab=following&authors=ai",
             "/?tab=everyone&authors=all"]
    fragments.clear()
    for _ in range(2):  # cold, then warm
        for user in (alice, quiet):
            client = page_client(user)
            for path in paths:
                settings.STGY_PAGE_FRAGMENTS = False
                reference = _page(client, path)
                settings.STGY_PAGE_FRAGMENTS = True
                assert _page(client, path) == reference, (user.nickname, path)
    assert len(kept_parts._tabs) >= 4  # kept, not rendered every time
    assert "#&lt;&quot;a&amp;b&quot;&gt;" in _tabs(_page(page_client(alice), "/?tag=%3C%22a%26b%22%3E"))


def test_the_live_check_starts_at_the_newest_post_shown(page_client, settings):
    settings.STGY_PAGE_FRAGMENTS = True
    alice, bob = make_user("Alice"), make_user("Bob")
    services.follow_add(alice, bob.id)
    client = page_client(alice)
    first = make_post(bob, "First")
    assert f"after={first.hex_id}" in _tabs(_page(client, "/"))
    second = make_post(bob, "Second")
    tabs = _tabs(_page(client, "/"))
    assert f"after={second.hex_id}" in tabs and f"after={first.hex_id}" not in tabs
    assert "\ue000" not in tabs
