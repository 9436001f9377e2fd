"""The kept site header and footer (sns/web/kept_parts.py) write the templates' bytes:
for an anonymous reader, a member and an admin of two languages one after the other,
cold and warm, with a nickname and a page path that need escaping, each response's own
CSRF token and themes; and a count that changes shows on the next view."""

from __future__ import annotations

import re

import pytest

from sns.services import reports
from sns.web import fragments, kept_parts
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')
PATHS = ["/", '/?tab=everyone&q=<"a&b">', "/login"]


def _chrome(html: str) -> str:
    header, footer = html.index('<header class="site-header">'), html.index('<footer class="site-footer">')
    return html[header:html.index("</header>", header)] + html[footer:html.index("</footer>", footer)]


def _views(client, path, settings) -> tuple[str, str]:
    settings.STGY_PAGE_FRAGMENTS = False
    reference = client.get(path).content.decode()
    settings.STGY_PAGE_FRAGMENTS = True
    return reference, client.get(path).content.decode()


def test_same_bytes_as_the_templates_cold_and_warm(page_client, settings):
    member = make_user("Amy&<Co>", locale="en-US")
    admin = make_user("Root", locale="ja", is_admin=True)
    author = make_user("Bob")
    post = make_post(member, "a post to report and reply to")
    make_post(author, "@Amy&<Co> hello", reply_to=post.id)
    reports.post_report(author, post.id, reason="spam")
    clients = {"anonymous": page_client(), "member": page_client(member), "admin": page_client(admin)}
    clients["admin-dark"] = page_client(admin)
    clients["admin-dark"].cookies["stgy_theme"] = "dark"
    fragments.clear()
    for _ in range(2):  # cold, then warm
        for name, client in clients.items():
            for path in PATHS:
                reference, kept = _views(client, path, settings)
                assert _TOKEN.sub("", kept) == _TOKEN.sub("", reference), (name, path)
                if not kept:  # /login redirects a signed-in reader
                    continue
                assert len(set(_TOKEN.findall(_chrome(kept)))) == 1  # the logout and theme forms share it
                assert "\ue000" not in kept
    assert len(kept_parts._header) and len(kept_parts._footer)  # kept, not rendered every time
    assert 'title="Amy&amp;&lt;Co&gt;">Amy&amp;&lt;Co&gt;</a>' in kept_view(clients["member"], settings)
    assert 'data-testid="open-reports">1<' in kept_view(clients["admin"], settings)
    assert '<option value="dark" selected>' in kept_view(clients["admin-dark"], settings)


def kept_view(client, settings, path="/") -> str:
    return _views(client, path, settings)[1]


def test_a_changed_count_is_on_the_next_view(page_client, settings):
    settings.STGY_PAGE_FRAGMENTS = True
    admin, member = make_user("Root", is_admin=True), make_user("Amy")
    client = page_client(admin)
    assert 'data-testid="open-reports"' not in kept_view(client, settings)
    post = make_post(member, "reported")
    for reporter in (make_user("One"), make_user("Two")):
        reports.post_report(reporter, post.id, reason="spam")
    assert 'data-testid="open-reports">2<' in kept_view(client, settings)
    reports.post_report(make_user("Three"), post.id, reason="spam")
    assert 'data-testid="open-reports">3<' in kept_view(client, settings)


def _head(html: str) -> str:
    return html[html.index("<head>"):html.index("</head>")]


def test_the_kept_head_assets_follow_the_static_url_and_the_map_settings(page_client, settings):
    client = page_client(make_user("Amy"))
    settings.STGY_PAGE_FRAGMENTS = True
    fragments.clear()
    first = _head(client.get("/").content.decode())
    assert '<link rel="stylesheet" href="/static/stgy.css">' in first
    assert len(kept_parts._assets) == 1  # kept, not rendered each view
    assert _head(client.get("/").content.decode()) == first

    settings.STATIC_URL = "/assets/"
    settings.STGY_MAP_TILE_URL = "https://tiles.example/{z}/{x}/{y}.png"
    reference, kept = (_head(page) for page in _views(client, "/", settings))
    assert kept == reference
    assert '<link rel="stylesheet" href="/assets/stgy.css">' in kept and "/static/" not in kept
    assert '"leafletJs": "/assets/leaflet/leaflet.js"' in kept
    assert '"tileUrl": "https://tiles.example/{z}/{x}/{y}.png"' in kept


def test_a_nickname_holding_a_holes_marker_is_written_as_it_is(page_client, settings):
    """The holes are filled in one pass (sns/web/kept.py `KeptInclude`): a value that
    holds another hole's marker is not filled again."""
    member = make_user("Amy\ue000csrf_token\ue001\ue000page_path\ue001")
    client = page_client(member)
    fragments.clear()
    for _ in range(2):  # cold, then warm
        reference, kept = _views(client, "/", settings)
        assert _TOKEN.sub("", kept) == _TOKEN.sub("", reference)
        assert "Amy\ue000csrf_token\ue001\ue000page_path\ue001</a>" in _chrome(kept)
