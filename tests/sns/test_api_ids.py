"""16-hex-digit ids: round trip through the API, malformed ids are 400 (never 500)."""

import pytest

from sns.core.errors import InvalidInput
from sns.core.ids import id_to_hex, new_id, parse_id
from tests.conftest import login_client
from tests.factories import make_post

pytestmark = pytest.mark.django_db


def test_hex_round_trip():
    value = new_id()
    text = id_to_hex(value)
    assert len(text) == 16 and text == text.upper()
    assert parse_id(text) == value
    assert parse_id(text.lower()) == value
    assert parse_id("0x" + text) == value
    assert parse_id("FF") == 255
    assert id_to_hex(255) == "00000000000000FF"
    # Values >= 2^63 are stored negative and printed back unsigned.
    assert id_to_hex(parse_id("FFFFFFFFFFFFFFFF")) == "FFFFFFFFFFFFFFFF"


@pytest.mark.parametrize("bad", ["", "xyz", "12345678901234567", "-1", "0x", "12 34"])
def test_parse_id_rejects(bad):
    with pytest.raises(InvalidInput, match="invalid id"):
        parse_id(bad)


def test_api_round_trips_ids(human):
    client = login_client(human)
    post = make_post(human, "hello")
    body = client.get(f"/api/posts/{post.hex_id.lower()}").json()
    assert body["id"] == post.hex_id
    assert body["ownedBy"] == human.hex_id
    assert client.get(f"/api/users/0x{human.hex_id}").json()["id"] == human.hex_id


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/posts/nothex"),
        ("get", "/api/posts/nothex/lite"),
        ("put", "/api/posts/nothex"),
        ("delete", "/api/posts/nothex"),
        ("post", "/api/posts/nothex/like"),
        ("delete", "/api/posts/nothex/like"),
        ("get", "/api/posts/nothex/likers"),
        ("get", "/api/users/nothex"),
        ("get", "/api/users/nothex/lite"),
        ("put", "/api/users/nothex"),
        ("delete", "/api/users/nothex"),
        ("put", "/api/users/nothex/password"),
        ("post", "/api/users/nothex/follow"),
        ("delete", "/api/users/nothex/follow"),
        ("get", "/api/users/nothex/followees"),
        ("get", "/api/users/nothex/followers"),
        ("post", "/api/users/nothex/block"),
        ("delete", "/api/users/nothex/block"),
        ("get", "/api/users/nothex/blockees"),
        ("get", "/api/users/11112222333344445555"),
    ],
)
def test_malformed_path_id_is_400(human, method, path):
    response = getattr(login_client(human), method)(path, {}, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": "invalid id"}


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/api/posts?focusUserId=zz", "invalid focusUserId"),
        ("/api/posts?ownedBy=zz", "invalid ownedBy"),
        ("/api/posts?replyTo=zz", "invalid replyTo"),
        ("/api/posts?after=zz", "invalid after"),
        ("/api/posts/by-followees?userId=zz", "invalid userId"),
        ("/api/posts/by-followees", "userId is required"),
        ("/api/posts/liked?userId=zz", "invalid userId"),
        ("/api/users?focusUserId=zz", "invalid focusUserId"),
    ],
)
def test_malformed_query_id_is_400(human, path, message):
    response = login_client(human).get(path)
    assert response.status_code == 400
    assert response.json() == {"error": message}


def test_malformed_body_id_is_400(human):
    response = login_client(human).post("/api/posts", {"content": "x", "tags": [], "replyTo": "zz"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": "invalid replyTo"}


def test_unknown_ids_are_404(human):
    client = login_client(human)
    assert client.get("/api/posts/00000000000000FF").json() == {"error": "not found"}
    assert client.get("/api/users/00000000000000FF").status_code == 404
