"""A post page's "Related posts" box: ranked once per post for every reader, fitted to
each viewer, and loaded after the page while no ranking is cached."""

from __future__ import annotations

import pytest

from agents.summaries.service import summary_generate
from sns import services
from tests.factories import make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db

SKY = [
    "Tonight the telescope showed Jupiter, its four moons and the cloud bands of the planet.",
    "Jupiter and its moons in a small telescope, planets at night under a clear sky.",
    "Saturn's rings in the telescope tonight, the planet low over the hills at night.",
]


@pytest.fixture(autouse=True)
def offline(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"


def summarised(owner, content: str):
    post = make_post(owner, content, tags=["sky"])
    assert summary_generate(post.id) == "done"
    return post


def _box(body: str) -> str:
    return body[body.index('aria-label="Related posts"') :] if 'aria-label="Related posts"' in body else ""


def test_an_uncached_box_is_loaded_after_the_page_then_served_inline(page_client, human, follower):
    target = summarised(human, SKY[0])
    near = summarised(make_user("Carol"), SKY[1])
    client = page_client(follower)

    first = text_of(client.get(f"/posts/{target.hex_id}"))
    assert f'data-related-src="/posts/{target.hex_id}/related"' in first
    assert _box(first) == ""

    fragment = client.get(f"/posts/{target.hex_id}/related")
    assert fragment.status_code == 200
    assert f"/posts/{near.hex_id}" in _box(text_of(fragment))
    assert f"/posts/{target.hex_id}\"" not in _box(text_of(fragment))

    again = text_of(client.get(f"/posts/{target.hex_id}"))
    assert "data-related-src" not in again
    assert f"/posts/{near.hex_id}" in _box(again)


def test_the_shared_ranking_leaves_out_the_viewers_own_posts_and_blocking_owners(page_client, human):
    carol, dave = make_user("Carol"), make_user("Dave")
    target = summarised(human, SKY[0])
    carols = summarised(carol, SKY[1])
    daves = summarised(dave, SKY[2])
    services.block_add(dave, carol.id)

    as_human = text_of(page_client(human).get(f"/posts/{target.hex_id}/related"))
    assert f"/posts/{carols.hex_id}" in as_human and f"/posts/{daves.hex_id}" in as_human

    as_carol = _box(text_of(page_client(carol).get(f"/posts/{target.hex_id}/related")))
    assert f"/posts/{carols.hex_id}" not in as_carol  # her own
    assert f"/posts/{daves.hex_id}" not in as_carol  # Dave blocks her


def test_a_post_without_a_summary_has_an_empty_box(page_client, human, settings):
    settings.STGY_AI_PROVIDER = "none"
    pending = make_post(human, "Not summarised, no tags.")
    response = page_client(human).get(f"/posts/{pending.hex_id}/related")
    assert response.status_code == 200 and _box(text_of(response)) == ""
    assert 'data-related-src' not in text_of(page_client(human).get(f"/posts/{pending.hex_id}"))


def test_related_box_of_a_missing_post_is_404(page_client, human):
    assert page_client(human).get("/posts/00000000000000FF/related").status_code == 404
