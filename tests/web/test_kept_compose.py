"""The home page's kept compose box (sns/web/kept_parts.py) writes the include's bytes:
for viewers of different languages one after the other, cold and warm, with a `next`
path that needs escaping, each response's own CSRF token; and a form prefilled with
refused input is not the kept fresh one."""

from __future__ import annotations

import re

import pytest
from django.template import engines

from sns.web import fragments, kept_parts
from sns.web.forms import PostForm
from tests.factories import make_user

pytestmark = pytest.mark.django_db

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def _compose(html: str) -> str:
    start = html.index('<form method="post" action="/compose"')
    return html[start:html.index("</datalist>", start)]


def test_same_bytes_as_the_include_for_each_viewer(page_client, settings):
    alice, bob = make_user("Alice", locale="en-US"), make_user("Bob", locale="ja")
    clients = {u: page_client(u) for u in (alice, bob)}
    paths = ["/", '/?tab=everyone&q=<"a&b">']
    fragments.clear()
    for _ in range(2):  # cold, then warm
        for user, client in clients.items():
            for path in paths:
                settings.STGY_PAGE_FRAGMENTS = False
                reference = client.get(path).content.decode()
                settings.STGY_PAGE_FRAGMENTS = True
                kept = client.get(path).content.decode()
                tokens = set(_TOKEN.findall(kept))
                assert len(tokens) == 1 and len(_TOKEN.findall(kept)) == 3  # compose, logout, theme
                assert _TOKEN.sub("", kept) == _TOKEN.sub("", reference)
                box = _compose(kept)
                assert f"/api/media/{user.hex_id}/images" in box and f'value="{user.locale}"' in box
                assert "\ue000" not in kept
    assert len(kept_parts._compose)  # the box was kept, not rendered every time
    assert '<input type="hidden" name="next" value="/?tab=everyone&amp;q=%3C%22a&amp;b%22%3E">' in kept


def test_refused_input_is_not_the_kept_box(page_client, settings):
    settings.STGY_PAGE_FRAGMENTS = True
    alice = make_user("Alice")
    client = page_client(alice)
    fresh = _compose(client.get("/").content.decode())
    session = client.session
    session["web:kept-input"] = {"path": "/", "action": "/compose", "data": {"content": "typed <text>"},
                                 "errors": {"content": "Too long."}}
    session.save()
    prefilled = _compose(client.get("/").content.decode())
    assert "typed &lt;text&gt;" in prefilled and "Too long." in prefilled
    assert _TOKEN.sub("", _compose(client.get("/").content.decode())) == _TOKEN.sub("", fresh)


def test_kept_per_locale_choices_not_per_list(settings, rf):
    """The box is kept for the choices the datalist shows: a list changed in place is a
    new box, an equal list the same one."""
    settings.STGY_PAGE_FRAGMENTS = True
    alice = make_user("Alice")
    request = rf.get("/")
    request.user = alice
    template = engines["django"].from_string('{% load stgy_web %}{% compose_box "/" %}')

    def box(choices) -> str:
        return template.render({"form": PostForm(initial={"locale": alice.locale}), "locale_choices": choices}, request)

    kept_parts.clear()
    choices = [("en-US", "English (US)")]
    assert '<option value="en-US">English (US)</option>' in box(choices)
    choices.append(("eo", "Esperanto"))
    changed = box(choices)
    assert '<option value="eo">Esperanto</option>' in changed
    assert _TOKEN.sub("", box(list(choices))) == _TOKEN.sub("", changed) and len(kept_parts._compose) == 2
