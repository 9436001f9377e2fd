"""KWIC excerpts (sns/search/kwic.py) and GET /posts/kwic, /posts/kwic-pub,
/users/kwic: the original's data shape, Japanese, folding, limits and visibility."""

from datetime import timedelta

import pytest
from django.utils import timezone

from sns.geo.service import query_hash
from sns.search.kwic import kwic_data, post_kwic
from tests.conftest import login_client
from tests.factories import make_post, make_user


def _texts(nodes):
    return [(n["type"], n["text"]) for n in nodes]


def test_the_shape_and_a_japanese_highlight():
    data = post_kwic("# 東京の話\n\n今日は東京タワーに行きました。", ["東京"])
    assert data["version"] == 1
    assert _texts(data["title"]) == [("highlight", "東京"), ("text", "の話")]
    [segment] = data["segments"]
    assert segment["type"] == "segment" and segment["isStart"] and segment["isEnd"]
    assert (segment["startPosition"], segment["endPosition"]) == (0, 15)
    assert _texts(segment["children"]) == [
        ("text", "今日は"),
        ("highlight", "東京"),
        ("text", "タワーに行きました。"),
    ]
    assert segment["children"][1]["keywordIndex"] == 0


def test_without_a_heading_there_is_no_title_and_a_level_two_heading_is_one():
    assert post_kwic("plain words", ["words"])["title"] is None
    assert _texts(post_kwic("## Sub\n\ntext", ["sub"])["title"]) == [("highlight", "Sub")]


def test_context_is_counted_in_pseudo_tokens_and_excerpts_are_cut():
    body = "a" * 100 + " needle " + "b" * 100
    [segment] = kwic_data(None, body, ["needle"])["segments"]
    assert not segment["isStart"] and not segment["isEnd"]
    assert segment["endPosition"] - segment["startPosition"] == 40 + len("needle") + 40
    # A CJK character weighs two: half as many characters of context.
    [cjk] = kwic_data(None, "あ" * 100 + "猫" + "い" * 100, ["猫"])["segments"]
    assert cjk["endPosition"] - cjk["startPosition"] == 20 + 1 + 20


def test_folding_word_boundaries_and_the_segment_quota():
    data = kwic_data(None, "Café CAFE cafeteria ＣＡＦＥ", ["cafe"])
    highlighted = [n["text"] for s in data["segments"] for n in s["children"] if n["type"] == "highlight"]
    assert highlighted == ["Café", "CAFE", "ＣＡＦＥ"]  # not inside "cafeteria"
    far_apart = " ".join(["x" * 90 + " w"] * 10)
    assert len(kwic_data(None, far_apart, ["w"])["segments"]) == 4
    two = kwic_data(None, far_apart + " " + "y" * 90 + " v", ["w", "v"])
    assert len(two["segments"]) == 3  # "v" anchors its one excerpt, "w" at most two


@pytest.mark.django_db
def test_posts_kwic_in_request_order_with_visibility(human, follower, blocked):
    one = make_post(human, "Kimchi and rice")
    two = make_post(follower, "More kimchi")
    client = login_client(follower)
    response = client.get("/api/posts/kwic", {"id": [two.hex_id, one.hex_id, one.hex_id, "00000000000000ff"], "keyword": "kimchi"})
    assert response.status_code == 200
    rows = response.json()
    assert [r["id"] for r in rows] == [two.hex_id, one.hex_id]
    assert rows[1]["kwic"]["segments"][0]["children"][0] == {"type": "highlight", "text": "Kimchi", "keywordIndex": 0}
    # Mallory is blocked by Alice: Alice's post yields no excerpt for her.
    rows = login_client(blocked).get("/api/posts/kwic", {"id": [one.hex_id, two.hex_id], "keyword": "kimchi"}).json()
    assert [r["id"] for r in rows] == [two.hex_id]


@pytest.mark.django_db
def test_kwic_pub_needs_no_login_and_shows_only_published_posts(api, human):
    shown = make_post(human, "Published soup", published_at=timezone.now() - timedelta(minutes=1))
    later = make_post(human, "Future soup", published_at=timezone.now() + timedelta(days=1))
    draft = make_post(human, "Draft soup")
    query = f"id={shown.hex_id}&id={later.hex_id}&id={draft.hex_id}&keyword=soup"
    response = api.get(f"/api/posts/kwic-pub?{query}", HTTP_X_STGY_QUERYHASH=query_hash(query))
    assert response.status_code == 200
    assert [r["id"] for r in response.json()] == [shown.hex_id]


@pytest.mark.django_db
@pytest.mark.parametrize("header", [None, "0" * 40])
def test_kwic_pub_wants_the_query_hash_of_every_caller(human, header):
    post = make_post(human, "Soup", published_at=timezone.now() - timedelta(minutes=1))
    extra = {} if header is None else {"HTTP_X_STGY_QUERYHASH": header}
    response = login_client(human).get(f"/api/posts/kwic-pub?id={post.hex_id}&keyword=soup", **extra)
    assert (response.status_code, response.json()) == (403, {"error": "invalid queryhash"})


@pytest.mark.django_db
def test_users_kwic_highlights_nickname_and_introduction(human):
    user = make_user("Ramen Lover", introduction="**Ramen** every day in 東京")
    rows = login_client(human).get("/api/users/kwic", {"id": user.hex_id, "keyword": ["ramen", "東京"]}).json()
    [row] = rows
    assert _texts(row["kwic"]["title"]) == [("highlight", "Ramen"), ("text", " Lover")]
    children = row["kwic"]["segments"][0]["children"]
    assert ("highlight", "東京") in _texts(children) and ("highlight", "Ramen") in _texts(children)


@pytest.mark.django_db
def test_kwic_needs_login_except_kwic_pub(api, human):
    post = make_post(human, "x")
    assert api.get("/api/posts/kwic", {"id": post.hex_id, "keyword": "x"}).status_code == 401
    assert api.get("/api/users/kwic", {"id": human.hex_id, "keyword": "x"}).status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/posts/kwic", "/api/posts/kwic-pub", "/api/users/kwic"])
@pytest.mark.parametrize(
    "params, message",
    [
        ({"keyword": "x"}, "id is required"),
        ({"id": ["1"] * 101, "keyword": "x"}, "too many ids"),
        ({"id": "1"}, "keyword is required"),
        ({"id": "1", "keyword": ["x"] * 33}, "too many keywords"),
        ({"id": "zz", "keyword": "x"}, "invalid id"),
        ({"id": "1", "keyword": "  "}, "invalid keyword"),
        ({"id": "1", "keyword": "猫" * 129}, "keyword is too long"),
    ],
)
def test_kwic_bad_input(human, path, params, message):
    from urllib.parse import urlencode

    query = urlencode(params, doseq=True)
    response = login_client(human).get(f"{path}?{query}", HTTP_X_STGY_QUERYHASH=query_hash(query))
    assert (response.status_code, response.json()) == (400, {"error": message})


@pytest.mark.django_db
def test_a_keyword_of_the_longest_length_is_accepted(human):
    post = make_post(human, "猫" * 10)
    response = login_client(human).get("/api/posts/kwic", {"id": post.hex_id, "keyword": "猫" * 128})
    assert response.status_code == 200
