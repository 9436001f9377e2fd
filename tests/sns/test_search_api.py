"""GET /posts/search and /users/search (docs/api.md, "Search"): the original's params,
`{tokens, phrases, result}`, the query syntax, paging, visibility and bad input. Runs on
PostgreSQL (pg_trgm) and on SQLite (FTS5 trigram) alike."""

import pytest

from sns import services
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post, make_user

pytestmark = pytest.mark.django_db


def _search(client, query, **params):
    response = client.get("/api/posts/search", {"query": query, **params})
    assert response.status_code == 200, response.content
    return response.json()


def _ids(body):
    return [row["id"] for row in body["result"]]


def test_the_answer_has_tokens_phrases_and_posts_newest_first(human, follower):
    old = make_post(human, "Fermented cabbage is kimchi")
    new = make_post(human, "More KIMCHI today")
    make_post(human, "Nothing to see")
    body = _search(login_client(follower), "Kimchi")
    assert set(body) == {"tokens", "phrases", "result"}
    assert body["tokens"] == ["kimchi"] and body["phrases"] == ["Kimchi"]
    assert _ids(body) == [new.hex_id, old.hex_id]
    row = body["result"][0]
    assert row["ownerNickname"] == "Alice" and "snippet" in row
    assert row["isLikedByFocusUser"] is False  # the searcher is the focus user


def test_every_word_must_occur_and_a_phrase_is_matched_whole(human, follower):
    hit = make_post(human, "The quick brown fox jumps")
    make_post(human, "A brown dog and a quick fox")
    client = login_client(follower)
    assert len(_ids(_search(client, "quick fox"))) == 2
    body = _search(client, '"brown fox" quick')
    assert _ids(body) == [hit.hex_id]
    assert body["phrases"] == ["brown fox", "quick"]
    assert body["tokens"] == ["brown", "fox", "quick"]


def test_a_minus_term_excludes(human, follower):
    keep = make_post(human, "Ramen with miso")
    make_post(human, "Ramen with shoyu")
    make_post(human, "Ramen, a big bowl of it")
    client = login_client(follower)
    assert _ids(_search(client, "ramen -shoyu -bowl")) == [keep.hex_id]
    assert _ids(_search(client, 'ramen -"big bowl" -shoyu')) == [keep.hex_id]


def test_japanese_long_and_two_character_terms(human, follower):
    tower = make_post(human, "今日は東京タワーに行きました。")
    kyoto = make_post(human, "京都の寺はとても静かでした")
    client = login_client(follower)
    assert _ids(_search(client, "東京タワー")) == [tower.hex_id]
    # Two kanji have no trigram: the bounded substring scan still finds them.
    assert _ids(_search(client, "東京")) == [tower.hex_id]
    assert _ids(_search(client, "京")) == [kyoto.hex_id, tower.hex_id]
    assert _ids(_search(client, "京 -東京")) == [kyoto.hex_id]
    assert _ids(_search(client, "寺 静か")) == [kyoto.hex_id]


def test_short_terms_scan_only_the_newest_posts(human, follower, settings):
    old = make_post(human, "AI one")
    new = make_post(human, "AI two")
    settings.STGY_SEARCH_SHORT_TERM_SCAN = 1
    client = login_client(follower)
    assert _ids(_search(client, "AI")) == [new.hex_id]
    # A term of three characters or more uses the index and is not bounded.
    assert _ids(_search(client, "AI one")) == [old.hex_id]


def test_like_wildcards_are_literal(human, follower):
    hit = make_post(human, "Save 50% today_only")
    make_post(human, "Save 500 today")
    client = login_client(follower)
    assert _ids(_search(client, "50%")) == [hit.hex_id]
    assert _ids(_search(client, "y_o")) == [hit.hex_id]


def test_ai_users_posts_are_found_like_anyones(follower):
    aiko = make_ai_user("Aiko")
    post = make_post(aiko, "Sourdough starter notes")
    assert _ids(_search(login_client(follower), "sourdough")) == [post.hex_id]


def test_owner_and_status_filters(human, follower):
    from datetime import timedelta

    from django.utils import timezone

    mine = make_post(follower, "Tea time")
    theirs = make_post(human, "Tea ceremony")
    published = make_post(human, "Tea published", published_at=timezone.now() - timedelta(hours=1))
    make_post(human, "Tea later", published_at=timezone.now() + timedelta(days=1))
    client = login_client(follower)
    assert _ids(_search(client, "tea owner:me")) == [mine.hex_id]
    assert _ids(_search(client, f"tea owner:{human.hex_id} status:published")) == [published.hex_id]
    assert _ids(_search(client, "tea", ownedBy=human.hex_id))[-1] == theirs.hex_id
    assert _ids(_search(client, f"tea owner:{human.hex_id}", ownedBy=human.hex_id.lower()))[-1] == theirs.hex_id
    # A quoted owner: is a phrase, not a filter.
    assert _ids(_search(client, '"owner:me"')) == []


def test_paging_and_the_search_limit(human, follower, settings):
    posts = [make_post(human, f"Soup number {i}") for i in range(5)]
    client = login_client(follower)
    newest_first = [p.hex_id for p in reversed(posts)]
    assert _ids(_search(client, "soup", limit=2)) == newest_first[:2]
    assert _ids(_search(client, "soup", offset=2, limit=2)) == newest_first[2:4]
    assert len(_ids(_search(client, "soup"))) == 5  # default limit 21
    response = client.get("/api/posts/search", {"query": "soup", "offset": 1000, "limit": 2})
    assert (response.status_code, response.json()) == (400, {"error": "Search limit exceeded"})
    assert client.get("/api/posts/search", {"query": "soup", "offset": 999, "limit": 2}).status_code == 200


def test_blocked_and_block_strangers_posts_never_appear(human, follower, blocked, admin):
    open_post = make_post(human, "Garden party notes")
    client = login_client(blocked)  # human blocks Mallory
    assert _ids(_search(client, "garden")) == []
    shy = make_user("Shy", block_strangers=True)
    shy_post = make_post(shy, "Garden secrets")
    stranger = login_client(make_user("Stranger"))
    assert _ids(_search(stranger, "garden")) == [open_post.hex_id]
    services.follow_add(shy, follower.id)  # Shy follows Bob back: Bob may see them
    assert _ids(_search(login_client(follower), "garden")) == [shy_post.hex_id, open_post.hex_id]
    assert _ids(_search(login_client(shy), "garden")) == [shy_post.hex_id, open_post.hex_id]
    assert _ids(_search(login_client(admin), "garden")) == [shy_post.hex_id, open_post.hex_id]


@pytest.mark.parametrize(
    "params, message",
    [
        ({}, "query is required"),
        ({"query": "   "}, "query is required"),
        ({"query": "-foo"}, "search term is required"),
        ({"query": '"" - --'}, "search term is required"),
        ({"query": "owner:me"}, "search term is required"),
        ({"query": "status:published"}, "search term is required"),
        ({"query": "x owner:"}, "owner filter requires a user ID"),
        ({"query": "x status:draft"}, "invalid status filter"),
        ({"query": "x owner:zz"}, "invalid owner filter"),
        ({"query": "x owner:1 owner:2"}, "conflicting owner filters"),
        ({"query": "x owner:1", "ownedBy": "2"}, "conflicting owner filters"),
        ({"query": "x", "ownedBy": "nothex"}, "invalid ownedBy"),
        ({"query": "x", "limit": "many"}, "invalid limit"),
        ({"query": "x", "offset": "-1"}, "invalid offset"),
        ({"query": "x" * 10000}, "query is too long"),
        ({"query": "a\x00b"}, "invalid query"),
    ],
)
def test_bad_input_is_400_with_a_message(human, params, message):
    response = login_client(human).get("/api/posts/search", params)
    assert (response.status_code, response.json()) == (400, {"error": message})


def test_search_needs_login(api):
    assert api.get("/api/posts/search", {"query": "x"}).status_code == 401
    assert api.get("/api/users/search", {"query": "x"}).status_code == 401


def test_more_terms_than_the_limit_are_ignored(human, follower, settings):
    settings.STGY_SEARCH_MAX_TERMS = 2
    post = make_post(human, "alpha beta")
    body = _search(login_client(follower), "alpha beta gamma")
    assert _ids(body) == [post.hex_id] and body["phrases"] == ["alpha", "beta"]


def test_users_search_matches_nickname_and_introduction(human, follower):
    chef = make_user("ChefMina", introduction="I cook 京料理 and ramen.")
    ai = make_ai_user("Ramenbot")
    client = login_client(human)
    response = client.get("/api/users/search", {"query": "ramen"})
    assert response.status_code == 200
    body = response.json()
    assert body["tokens"] == ["ramen"]
    assert [u["id"] for u in body["result"]] == [ai.hex_id, chef.hex_id]
    assert "snippet" not in body["result"][0]  # UserLite
    assert [u["id"] for u in client.get("/api/users/search", {"query": "京料理"}).json()["result"]] == [chef.hex_id]
    assert [u["id"] for u in client.get("/api/users/search", {"query": "ramen -bot"}).json()["result"]] == [chef.hex_id]
    assert client.get("/api/users/search", {"query": "ramen", "limit": 1, "offset": 1}).json()["result"][0]["id"] == chef.hex_id


@pytest.mark.parametrize(
    "params, message",
    [
        ({}, "query is required"),
        ({"query": "-x"}, "search term is required"),
        ({"query": "x", "offset": "1001"}, "Search limit exceeded"),
        ({"query": "x" * 10000}, "query is too long"),
    ],
)
def test_users_search_bad_input(human, params, message):
    response = login_client(human).get("/api/users/search", params)
    assert (response.status_code, response.json()) == (400, {"error": message})
