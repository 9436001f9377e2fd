"""The search page (templates/search.html): hits newest first with KWIC excerpts,
keywords in <mark>, user text escaped, the API's visibility and its errors."""

import re

import pytest

from tests.factories import make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def _hits(body):
    return re.findall(r'class="card post search-hit" id="post-([0-9A-F]{16})"', body)


def test_hits_show_highlighted_excerpts(page_client, human, follower):
    old = make_post(human, "# 東京日記\n\n今日は東京タワーに登った。Tokyo is huge.")
    new = make_post(human, "Tokyo again, 東京 again")
    body = text_of(page_client(follower).get("/search?q=東京"))
    assert _hits(body) == [new.hex_id, old.hex_id]
    assert '<h3 class="kwic-title"><mark>東京</mark>日記</h3>' in body
    assert "今日は<mark>東京</mark>タワーに登った。" in body
    assert f'href="/posts/{old.hex_id}"' in body


def test_user_text_in_excerpts_is_escaped(page_client, human, follower):
    make_post(human, 'needle <img src=x onerror=alert(1)> "quoted" needle')
    body = text_of(page_client(follower).get("/search?q=needle"))
    assert "<img src=x" not in body
    assert "&lt;img src=x onerror=alert(1)&gt;" in body
    assert body.count("<mark>needle</mark>") == 2


def test_phrases_exclusions_and_visibility(page_client, human, follower, blocked):
    keep = make_post(human, "green tea latte")
    make_post(human, "green tea with milk")
    client = page_client(follower)
    assert _hits(text_of(client.get('/search?q="tea latte"'))) == [keep.hex_id]
    assert _hits(text_of(client.get("/search?q=green -milk"))) == [keep.hex_id]
    body = text_of(page_client(blocked).get("/search?q=green"))
    assert _hits(body) == [] and "No posts match" in body


def test_people_by_nickname_prefix_still_show(page_client, human):
    make_user("Matcha Fan")
    assert "Matcha Fan" in text_of(page_client(human).get("/search?q=matcha"))


def test_a_query_of_operators_only_is_a_400_page(page_client, human):
    response = page_client(human).get("/search?q=-foo")
    assert response.status_code == 400
    assert "search term is required" in text_of(response)
    response = page_client(human).get("/search?q=" + "x" * 10000)
    assert response.status_code == 400 and "query is too long" in text_of(response)


def test_a_hit_without_a_whole_word_match_shows_its_snippet(page_client, human, follower):
    post = make_post(human, "Foxes are clever animals")
    body = text_of(page_client(follower).get("/search?q=fox"))
    assert _hits(body) == [post.hex_id]
    assert "<mark>" not in body.split("search-results")[1]
    assert "Foxes are clever animals" in body
