"""Timelines that keep people visible (sns/selectors/authors.py, sns/selectors/mixed.py,
docs/pages.md §5): the merge's pages never repeat or skip a post and hold at most the
configured share of AI cards while a person's post waits; the People / AI / All filter
on the pages (remembered in a cookie), the API and the live count."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from sns import services
from sns.core.ids import id_to_hex, min_id_at
from sns.selectors.authors import interleave
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db

_CARD = re.compile(r'data-post-id="([0-9A-F]+)"')


def _stream(times: list[datetime]) -> list[tuple[int, int]]:
    ids = sorted((min_id_at(t) + n for n, t in enumerate(times)), reverse=True)
    return [(-i, i) for i in ids]


def test_the_merge_pages_hold_every_post_once_and_people_in_view():
    rng = random.Random(3)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for _ in range(30):
        people = _stream(
            [start + timedelta(minutes=rng.randint(0, 600)) for _ in range(rng.randint(0, 30))]
        )
        ai = _stream(
            [start + timedelta(minutes=rng.randint(0, 600)) for _ in range(rng.randint(0, 60))]
        )
        merged = interleave(people, ai, block=10, share=0.3, window=timedelta(days=1), count=1000)
        assert sorted(merged) == sorted(i for _, i in people + ai)  # nothing dropped, nothing twice
        ai_ids, people_ids = {i for _, i in ai}, [i for _, i in people]
        for page in range(0, len(merged), 10):
            shown = merged[page : page + 10]
            waiting = set(people_ids) - set(merged[: page + 10])
            if waiting:  # a person's post is still to come: at most 3 AI cards of 10
                assert sum(i in ai_ids for i in shown) <= 3
        # Each stream keeps its own order, and a shorter read gives the same first places.
        assert [i for i in merged if i in ai_ids] == [i for _, i in ai]
        assert (
            interleave(
                people[:25], ai[:25], block=10, share=0.3, window=timedelta(days=1), count=25
            )
            == merged[:25]
        )


def test_a_person_post_older_than_the_window_is_not_pulled_forward():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    ai = _stream([start + timedelta(days=3, minutes=m) for m in range(6)])
    people = _stream([start])
    merged = interleave(people, ai, block=4, share=0.5, window=timedelta(hours=24), count=10)
    assert merged == [i for _, i in ai] + [people[0][1]]
    merged = interleave(people, ai, block=4, share=0.5, window=timedelta(days=7), count=10)
    assert merged[2] == people[0][1]


@pytest.fixture
def crowd():
    """Twelve posts by people, then twenty-eight newer ones by AI users."""
    maya, ken = make_user("Maya"), make_user("Ken")
    bots = [make_ai_user(f"Bot{i}") for i in range(4)]
    people = [make_post((maya, ken)[i % 2], f"person post {i}") for i in range(12)]
    ai = [make_post(bots[i % 4], f"ai post {i}") for i in range(28)]
    reader = make_user("Reader")
    return reader, people, ai


def _cards(response) -> list[str]:
    assert response.status_code == 200
    return _CARD.findall(response.content.decode())


def test_everyone_pages_interleave_and_keep_every_post(page_client, settings, crowd):
    settings.STGY_TIMELINE_AI_SHARE = 0.5
    reader, people, ai = crowd
    client = page_client(reader)
    ai_hex = {p.hex_id for p in ai}
    seen = []
    for number in range(3):
        cards = _cards(client.get(f"/?tab=everyone&page={number}"))
        seen += cards
        if number == 0:
            assert (
                len(cards) == 20 and sum(c in ai_hex for c in cards) == 10
            )  # 12 people's posts were waiting
            assert cards[0] == ai[-1].hex_id  # the newest post still opens the page
    assert sorted(seen) == sorted(p.hex_id for p in people + ai)  # no post twice, none skipped
    # Without the interleave (share 1) page 1 would have been AI users' alone.
    settings.STGY_TIMELINE_AI_SHARE = 1
    assert all(c in ai_hex for c in _cards(client.get("/?tab=everyone")))


def test_the_filter_is_remembered_and_applies_to_every_tab(page_client, crowd):
    reader, people, ai = crowd
    services.follow_add(reader, people[0].owner_id)
    services.follow_add(reader, ai[0].owner_id)
    client = page_client(reader)
    people_hex, ai_hex = {p.hex_id for p in people}, {p.hex_id for p in ai}
    response = client.get("/?tab=everyone&authors=people")
    assert (
        set(_cards(response)) <= people_hex and response.cookies["stgy_authors"].value == "people"
    )
    assert 'data-authors="people" aria-current="true"' in response.content.decode()
    assert set(_cards(client.get("/?tab=everyone"))) <= people_hex  # remembered
    following = _cards(client.get("/?tab=following"))
    assert following and set(following) <= people_hex
    assert set(_cards(client.get("/?tab=following&authors=ai"))) <= ai_hex
    assert set(_cards(client.get("/?tab=everyone"))) <= ai_hex
    everything = _cards(client.get("/?tab=everyone&authors=all"))
    assert set(everything) & people_hex and set(everything) & ai_hex
    bad = client.get("/?tab=everyone&authors=robots")
    assert bad.status_code == 400 and "invalid authors" in bad.content.decode()


def test_the_api_and_the_live_count_take_the_filter(page_client, crowd):
    reader, people, ai = crowd
    client = page_client(reader)
    listed = client.get("/api/posts?authors=ai&limit=100").json()
    assert {p["id"] for p in listed} == {p.hex_id for p in ai}
    listed = client.get("/api/posts?authors=people&limit=100").json()
    assert {p["id"] for p in listed} == {p.hex_id for p in people}
    assert len(client.get("/api/posts?authors=all&limit=100").json()) == 40
    bad = client.get("/api/posts?authors=bots")
    assert bad.status_code == 400 and bad.json() == {"error": "invalid authors"}
    services.follow_add(reader, people[0].owner_id)
    followed = client.get(f"/api/posts/by-followees?userId={reader.hex_id}&authors=ai").json()
    assert followed == []
    after = id_to_hex(ai[-1].id)
    make_post(people[0].owner, "new person post")
    make_post(ai[0].owner, "new ai post")
    assert client.get(f"/live?tab=everyone&authors=people&after={after}").json()["newPosts"] == 1
    assert client.get(f"/live?tab=everyone&after={after}").json()["newPosts"] == 2
    assert client.get(f"/live?tab=everyone&authors=x&after={after}").status_code == 400


def test_for_you_is_offered_to_a_new_member(page_client):
    newcomer = make_user("Newcomer")
    make_post(make_user("Someone"), "Hello, newcomer")
    client = page_client(newcomer)
    assert 'href="/?tab=foryou"' in client.get("/").content.decode()
    page = client.get("/?tab=foryou").content.decode()
    assert 'data-testid="for-you-empty"' in page and "Hello, newcomer" in page


def test_for_you_interleaves_its_ranking_and_keeps_its_order(settings):
    from sns.selectors import Page
    from sns.selectors.mixed import ranked_page

    settings.STGY_TIMELINE_AI_SHARE = 0.2  # 4 AI cards of 20 while a person's post waits
    bots = [make_ai_user(f"Bot{i}") for i in range(2)]
    ranking = [make_post(bots[i % 2], f"ai {i}") for i in range(10)]
    people = [make_post(make_user(f"P{i}"), f"person {i}") for i in range(5)]
    ranking += people  # the recommender ranked every AI post above every person's
    page = ranked_page(ranking, Page(offset=0, limit=20), block=20)
    assert [p.id for p in page[:9]] == [p.id for p in ranking[:4] + people]
    assert sorted(p.id for p in page) == sorted(p.id for p in ranking)  # nobody dropped
    assert [p.id for p in page if p.owner.is_ai] == [p.id for p in ranking[:10]]  # rank order kept
    assert ranked_page(ranking, Page(offset=0, limit=20), block=20, authors="people") == people
    assert ranked_page(ranking, Page(offset=5, limit=3), block=20) == page[5:8]
