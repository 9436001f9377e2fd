"""GET /posts/by-followees (docs/api.md §3 algorithm), /posts/liked (search: test_search_*.py)."""

import pytest

from sns import services
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()]


@pytest.fixture
def timeline(human):
    """`human` follows a, b and c; posts are written in the order
    b1, a1, a2, a3, b2, c1, so the newest latest posts are c's, then b's, then a's."""
    a, b, c, stranger = (make_user(n) for n in ("A", "B", "C", "Stranger"))
    for user in (a, b, c):
        services.follow_add(human, user.id)
    posts = {}
    for name, owner in [("b1", b), ("a1", a), ("a2", a), ("a3", a), ("b2", b), ("c1", c)]:
        posts[name] = make_post(owner, name).hex_id
    posts["x1"] = make_post(stranger, "not followed").hex_id
    posts["own"] = make_post(human, "my own").hex_id
    return posts


def _feed(human, query):
    return _ids(login_client(human).get(f"/api/posts/by-followees?userId={human.hex_id}&{query}"))


def test_by_followees_takes_limit_authors_with_newest_latest_post(human, timeline):
    p = timeline
    # c and b have the newest latest posts; a is left out even though its posts are newer than b1.
    assert _feed(human, "limit=2") == [p["c1"], p["b2"]]
    # offset pages within that union (c1, b2, b1); it does not widen the set of authors.
    assert _feed(human, "limit=2&offset=1") == [p["b2"], p["b1"]]
    assert _feed(human, "limit=2&order=asc") == [p["b1"], p["b2"]]
    assert _feed(human, "limit=3") == [p["c1"], p["b2"], p["a3"]]


@pytest.mark.parametrize("extra", ["", "&includeReplies=true&limitPerUser=5", "&order=asc"])
def test_by_followees_at_the_largest_offset_is_an_empty_page(human, timeline, extra):
    # offset + limit reached SQL as one BIGINT and overflowed it: a 500 before.
    assert _feed(human, f"offset={(1 << 63) - 1}&limit=100{extra}") == []


def test_by_followees_limit_per_user_and_include_self(human, timeline):
    p = timeline
    assert _feed(human, "limit=3&limitPerUser=1") == [p["c1"], p["b2"], p["a3"]]
    assert _feed(human, "limitPerUser=2") == [p["c1"], p["b2"], p["a3"], p["a2"], p["b1"]]
    assert p["own"] not in _feed(human, "")
    assert _feed(human, "limit=1&includeSelf=true") == [p["own"]]


def test_by_followees_without_replies(human, follower):
    services.follow_add(human, follower.id)
    root = make_post(human, "root")
    reply = make_post(follower, "reply", reply_to=root.id)
    feed = _ids(login_client(human).get(f"/api/posts/by-followees?userId={human.hex_id}"))
    assert feed == [reply.hex_id]
    feed = _ids(login_client(human).get(f"/api/posts/by-followees?userId={human.hex_id}&includeReplies=false"))
    assert feed == []


def test_by_followees_for_any_user(human, follower, timeline):
    # Anyone logged in may read anyone's followee timeline.
    assert len(_ids(login_client(follower).get(f"/api/posts/by-followees?userId={human.hex_id}"))) == 6


def test_liked_by_like_time(human, follower):
    old = make_post(human, "old")
    new = make_post(human, "new")
    reply = make_post(human, "reply", reply_to=old.id)
    for post in (new, old, reply):
        services.like_add(follower, post.id)
    client = login_client(human)
    base = f"/api/posts/liked?userId={follower.hex_id}"
    assert _ids(client.get(base)) == [reply.hex_id, old.hex_id, new.hex_id]
    assert _ids(client.get(base + "&order=asc")) == [new.hex_id, old.hex_id, reply.hex_id]
    assert _ids(client.get(base + "&includeReplies=false")) == [old.hex_id, new.hex_id]
    assert _ids(client.get(base + f"&after={old.hex_id}")) == [new.hex_id]
    rows = client.get(base + f"&focusUserId={follower.hex_id}").json()
    assert all(row["isLikedByFocusUser"] for row in rows)
