"""Link cards on our pages: drawn from the cache when the page is known, a placeholder for
the script otherwise; a page request never fetches a remote site; everything escaped."""

from __future__ import annotations

import pytest
from django.test import Client

from sns.web.link_cards import card_targets, without_macros
from tests.factories import make_post
from tests.linksnippets.conftest import Handler

pytestmark = pytest.mark.django_db


def page(user, post) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(f"/posts/{post.hex_id}")
    assert response.status_code == 200
    return response.content.decode()


def test_which_links_get_cards():
    text = ("Intro [a](https://a.example/) and <https://b.example/>\n"
            "%[Caption](https://c.example/x)\n%[](/posts/0000000000000001)\n"
            "%[bad](javascript:alert(1))\n```\n%[code](https://d.example/)\n```\n")
    assert card_targets(text) == [("https://c.example/x", "Caption"),
                                  ("/posts/0000000000000001", "")]
    assert card_targets("![pic](https://e.example/p.png) [page](https://f.example/)") == [
        ("https://f.example/", None)]
    assert card_targets("no links") == []
    assert "%[Caption]" not in without_macros(text) and "%[bad]" in without_macros(text)


def test_an_unknown_page_gets_a_placeholder_and_is_not_fetched(human, site):
    post = make_post(human, f"Look:\n\n%[The <b>caption</b>]({site}/article)\n\nand [this]({site}/twitter)")
    html = page(human, post)
    assert 'data-link-snippet="pending" data-caption="The &lt;b&gt;caption&lt;/b&gt;"' in html
    assert f'href="{site}/article"' in html and "%[" not in html
    assert sum(Handler.counts.values()) == 0  # the page did not wait on the remote site
    assert "stgy-links.js" in html


def test_a_known_page_is_drawn_from_the_cache_escaped(human, site, member):
    assert member.post("/api/link-snippets/resolve", {"url": f"{site}/twitter"}, format="json").json()[
        "status"] == "ready"
    post = make_post(human, f"A plain link: [tweet]({site}/twitter)")
    html = page(human, post)
    assert 'data-link-snippet="ready"' in html
    assert '<span class="stgy-link-snippet-title">Tweet title</span>' in html
    assert 'src="https://images.example.org/t.jpg"' in html and 'referrerpolicy="no-referrer"' in html
    assert Handler.counts["/twitter"] == 1


def test_a_plain_link_whose_page_failed_gets_no_card(human, site, member):
    member.post("/api/link-snippets/resolve", {"url": f"{site}/gone"}, format="json")
    html = page(human, make_post(human, f"Broken: [x]({site}/gone)"))
    assert "stgy-link-snippet" not in html
    hidden = page(human, make_post(human, f"New: [x]({site}/never-asked)"))
    assert 'data-link-snippet="pending" hidden' in hidden


def test_remote_texts_cannot_inject_markup(human, site, member):
    member.post("/api/link-snippets/resolve", {"url": f"{site}/evil"}, format="json")
    html = page(human, make_post(human, f"%[]({site}/evil)"))
    card = html[html.index('<div class="link-cards">'):]
    card = card[:card.index("</div></div>")]
    assert "<script" not in card and "<img src=x" not in card and 'onerror="' not in card
    assert "&lt;img src=x onerror=alert(1)&gt;" in card
