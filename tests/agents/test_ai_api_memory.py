"""An AI user's memory over HTTP: interests, peer and post impressions (docs/api.md §6),
and who may see it."""

from __future__ import annotations

import base64

import pytest
from django.urls import NoReverseMatch, Resolver404, resolve

from agents import memory
from agents.embeddings import embed_features, model_name
from agents.embeddings.inputs import interest_embedding_input
from agents.memory_versions import API
from agents.models import Interest, PeerImpression, PostImpression
from agents.vectors import features_to_b64
from sns.core.ids import id_to_hex
from sns.selectors import Page
from tests.conftest import login_client
from tests.factories import make_ai_user, make_post


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The cast logs in with force_login; a cheap hasher keeps user creation fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


VECTOR = bytes([1, 2, 3, 250]) + bytes(508)


@pytest.fixture
def world(settings, human, ai_user, admin):
    """The AI user with one memory of each kind about the human and their post."""
    settings.STGY_AI_PROVIDER = "none"  # building rows; no summary tasks
    post = make_post(human, "# Bread\n\nI baked a **sourdough** loaf today.")
    memory.interest_save(
        ai_user, interest="Bread", tags=["food"], features=VECTOR, embedding_model="hash-v1", source=API
    )
    memory.peer_impression_save(ai_user, peer_id=human.id, payload='{"impression":"kind"}', source=API)
    memory.post_impression_save(ai_user, post_id=post.id, payload='{"impression":"tasty"}', source=API)
    return {"post": post, "other_ai": make_ai_user("Other")}


def _paths(ai_user, human, post):
    base = f"/api/ai-users/{id_to_hex(ai_user.id)}"
    return base, id_to_hex(human.id), id_to_hex(post.id)


def _requests(ai_user, human, post):
    base, peer, post_hex = _paths(ai_user, human, post)
    return [
        ("get", f"{base}/interests", None),
        ("post", f"{base}/interests", {"interest": "Bread", "tags": ["x"], "features": features_to_b64(VECTOR)}),
        ("get", f"{base}/peer-impressions", None),
        ("post", f"{base}/peer-impressions", {"peerId": peer, "payload": "p"}),
        ("head", f"{base}/peer-impressions/{peer}", None),
        ("get", f"{base}/peer-impressions/{peer}", None),
        ("get", f"{base}/post-impressions", None),
        ("post", f"{base}/post-impressions", {"postId": post_hex, "payload": "p"}),
        ("head", f"{base}/post-impressions/{post_hex}", None),
        ("get", f"{base}/post-impressions/{post_hex}", None),
    ]


@pytest.mark.parametrize(
    "who, status",
    [("anonymous", 401), ("human", 403), ("other_ai", 403), ("self", 200), ("admin", 200)],
)
def test_visibility_matrix(world, api, human, ai_user, admin, who, status):
    actor = {"human": human, "other_ai": world["other_ai"], "self": ai_user, "admin": admin}.get(who)
    client = login_client(actor) if actor else api
    for method, path, body in _requests(ai_user, human, world["post"]):
        call = getattr(client, method)
        response = call(path, body, format="json") if body else call(path)
        assert response.status_code == status, (method, path, response.content)
        if status in (401, 403) and method != "head":
            assert response.json() == {"error": "login required" if status == 401 else "forbidden"}


def _personality_paths():
    """GET /users/{id} once the users API exists; /ai-users/{id} in any case."""
    paths = ["/api/ai-users/{id}"]
    try:
        resolve("/api/users/0000000000000001")
        paths.append("/api/users/{id}")
    except (Resolver404, NoReverseMatch):
        pass
    return paths


@pytest.mark.parametrize("template", _personality_paths())
@pytest.mark.parametrize("who, visible", [("human", False), ("other_ai", False), ("self", True), ("admin", True)])
def test_personality_visibility(world, human, ai_user, admin, template, who, visible):
    actor = {"human": human, "other_ai": world["other_ai"], "self": ai_user, "admin": admin}[who]
    data = login_client(actor).get(template.format(id=id_to_hex(ai_user.id))).json()
    assert data["aiPersonality"] == (ai_user.ai_personality if visible else "")
    assert (data["email"] == ai_user.email) is visible


def test_memory_of_a_missing_user(world, admin):
    client = login_client(admin)
    assert client.get("/api/ai-users/00000000000000FF/interests").status_code == 404
    assert client.get("/api/ai-users/zz/interests").status_code == 400


def test_frozen_self_cannot_write(world, ai_user):
    ai_user.is_frozen = True
    ai_user.save(update_fields=["is_frozen"])
    client = login_client(ai_user)
    path = f"/api/ai-users/{id_to_hex(ai_user.id)}/peer-impressions"
    response = client.post(path, {"peerId": "1", "payload": "x"}, format="json")
    assert (response.status_code, response.json()) == (403, {"error": "user is frozen"})
    assert client.get(path).status_code == 200


# ----------------------------------------------------------------------------- interests


def test_interest_get_shape(world, ai_user):
    data = login_client(ai_user).get(f"/api/ai-users/{id_to_hex(ai_user.id)}/interests").json()
    assert data["userId"] == id_to_hex(ai_user.id)
    assert data["interest"] == "Bread" and data["tags"] == ["food"]
    assert base64.b64decode(data["features"]) == VECTOR
    assert data["updatedAt"].endswith("Z")


def test_interest_not_found(human, admin):
    client = login_client(human)
    response = client.get(f"/api/ai-users/{id_to_hex(human.id)}/interests")
    assert (response.status_code, response.json()) == (404, {"error": "not found"})


def test_interest_post_with_features(ai_user, settings):
    settings.STGY_AI_PROVIDER = "none"  # client-supplied vectors need no AI
    client = login_client(ai_user)
    body = {
        "interest": "  Fermentation  ",
        "tags": [" Kimchi ", "kimchi", "Miso", "x" * 60, "", 5, "a", "b", "c"],
        "features": features_to_b64(VECTOR),
    }
    data = client.post(f"/api/ai-users/{id_to_hex(ai_user.id)}/interests", body, format="json").json()
    assert data["tags"] == sorted(["kimchi", "miso", "x" * 50, "a", "b"])
    assert data["interest"] == "  Fermentation  "
    row = Interest.objects.get(user=ai_user)
    assert bytes(row.features) == VECTOR and row.embedding_model == model_name()
    again = client.post(
        f"/api/ai-users/{id_to_hex(ai_user.id)}/interests",
        {"payload": "Legacy alias", "features": features_to_b64(VECTOR)}, format="json",
    ).json()
    assert again["interest"] == "Legacy alias" and again["tags"] == []  # tags replaced
    assert Interest.objects.count() == 1


def test_interest_post_embeds_on_the_server(ai_user, settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"
    client = login_client(ai_user)
    body = {"interest": " Fermentation ", "tags": ["Kimchi", "Miso"]}
    data = client.post(f"/api/ai-users/{id_to_hex(ai_user.id)}/interests", body, format="json").json()
    expected = embed_features(interest_embedding_input("Fermentation", ["kimchi", "miso"], ""))[0]
    assert base64.b64decode(data["features"]) == expected
    assert Interest.objects.get(user=ai_user).embedding_model == "hash-v1"


@pytest.mark.parametrize(
    "provider, who, body, status, message",
    [
        ("offline", "self", {"tags": ["a"]}, 400, "interest is required"),
        ("offline", "self", {"interest": "   "}, 400, "interest is required"),
        ("none", "self", {"interest": "x"}, 400, "features is required"),
        ("none", "self", {"interest": "x", "features": "  "}, 400, "features is required"),
        (
            "offline", "self", {"interest": "x", "model": "basic"},
            400, "model is not accepted for feature generation",
        ),
        ("offline", "admin", {"interest": "x", "features": 5}, 400, "invalid features"),
        # A 5-byte vector would break every similarity it later took part in.
        ("none", "self", {"interest": "x", "features": "AQIDBAU="}, 400, "invalid features"),
    ],
)
def test_interest_post_rules(ai_user, admin, settings, provider, who, body, status, message):
    settings.STGY_AI_PROVIDER = provider
    client = login_client(ai_user if who == "self" else admin)
    response = client.post(f"/api/ai-users/{id_to_hex(ai_user.id)}/interests", body, format="json")
    assert (response.status_code, response.json()) == (status, {"error": message})


def test_interest_server_embedding_needs_an_ai_caller(human, settings):
    settings.STGY_AI_PROVIDER = "offline"
    response = login_client(human).post(
        f"/api/ai-users/{id_to_hex(human.id)}/interests", {"interest": "x"}, format="json"
    )
    assert (response.status_code, response.json()) == (403, {"error": "no model configured for this user"})


# ----------------------------------------------------------------------------- impressions


def test_peer_impressions(world, ai_user, human, follower):
    client = login_client(ai_user)
    base = f"/api/ai-users/{id_to_hex(ai_user.id)}/peer-impressions"
    saved = client.post(base, {"peerId": id_to_hex(follower.id), "payload": "second"}, format="json").json()
    assert set(saved) == {"userId", "peerId", "updatedAt", "payload"}
    items = client.get(base).json()
    assert [i["peerId"] for i in items] == [id_to_hex(follower.id), id_to_hex(human.id)]
    assert items[1]["peerNickname"] == "Alice"
    assert [i["peerId"] for i in client.get(f"{base}?order=asc").json()][0] == id_to_hex(human.id)
    assert len(client.get(f"{base}?peerId={id_to_hex(human.id)}").json()) == 1
    assert client.get(f"{base}/{id_to_hex(human.id)}").json()["payload"] == '{"impression":"kind"}'
    assert client.head(f"{base}/{id_to_hex(ai_user.id)}").status_code == 404
    assert client.get(f"{base}/{id_to_hex(ai_user.id)}").status_code == 404
    # upsert: the same pair again updates the row
    client.post(base, {"peerId": id_to_hex(human.id), "payload": "changed"}, format="json")
    assert PeerImpression.objects.filter(user=ai_user).count() == 2
    assert client.get(base).json()[0]["payload"] == "changed"


@pytest.mark.parametrize(
    "body, message",
    [
        ({"payload": "x"}, "peerId is required"),
        ({"peerId": "  ", "payload": "x"}, "peerId is required"),
        ({"peerId": "01", "payload": " "}, "payload is required"),
        ({"peerId": "zz", "payload": "x"}, "invalid peerId"),
        ({"peerId": "00000000000000FF", "payload": "x"}, "peer not found"),
    ],
)
def test_peer_impression_rules(ai_user, body, message):
    response = login_client(ai_user).post(
        f"/api/ai-users/{id_to_hex(ai_user.id)}/peer-impressions", body, format="json"
    )
    assert (response.status_code, response.json()) == (400, {"error": message})


def test_post_impressions(world, ai_user, human, settings):
    settings.STGY_AI_PROVIDER = "none"
    client = login_client(ai_user)
    base = f"/api/ai-users/{id_to_hex(ai_user.id)}/post-impressions"
    long_post = make_post(human, "word " * 100)
    saved = client.post(base, {"postId": id_to_hex(long_post.id), "payload": "long"}, format="json").json()
    assert saved["peerId"] == id_to_hex(human.id)  # derived from the post, not sent
    assert set(saved) == {"userId", "peerId", "postId", "updatedAt", "payload"}
    items = client.get(base).json()
    assert [i["postId"] for i in items] == [id_to_hex(long_post.id), id_to_hex(world["post"].id)]
    assert items[1]["postSnippet"] == "Bread I baked a sourdough loaf today."
    assert items[0]["postSnippet"] == "word " * 30 + "..."
    assert items[0]["peerNickname"] == "Alice"
    assert len(client.get(f"{base}?postId={id_to_hex(long_post.id)}").json()) == 1
    assert len(client.get(f"{base}?peerId={id_to_hex(ai_user.id)}").json()) == 0
    assert len(client.get(f"{base}?limit=1&offset=1").json()) == 1
    assert client.head(f"{base}/{id_to_hex(long_post.id)}").status_code == 200
    assert client.get(f"{base}/{id_to_hex(long_post.id)}").json()["payload"] == "long"
    other = make_post(human, "unread")
    assert client.head(f"{base}/{id_to_hex(other.id)}").status_code == 404
    assert client.get(f"{base}/{id_to_hex(other.id)}").status_code == 404


def test_post_impression_rules(ai_user):
    client = login_client(ai_user)
    base = f"/api/ai-users/{id_to_hex(ai_user.id)}/post-impressions"
    for body, message in [
        ({"payload": "x"}, "postId is required"),
        ({"postId": "01"}, "payload is required"),
        ({"postId": "00000000000000FF", "payload": "x"}, "post not found"),
    ]:
        response = client.post(base, body, format="json")
        assert (response.status_code, response.json()) == (400, {"error": message})


def test_memory_writes_are_idempotent(world, ai_user, human):
    post = world["post"]
    for _ in range(2):
        memory.post_impression_save(ai_user, post_id=post.id, payload="same", source=API)
        memory.peer_impression_save(ai_user, peer_id=human.id, payload="same", source=API)
        memory.interest_save(ai_user, interest="i", tags=[], features=VECTOR, embedding_model="hash-v1", source=API)
    assert PostImpression.objects.filter(user=ai_user).count() == 1
    assert PeerImpression.objects.filter(user=ai_user).count() == 1
    assert Interest.objects.filter(user=ai_user).count() == 1
    assert memory.post_impression_exists(ai_user, post_id=post.id)
    assert memory.post_impression_get(ai_user, post_id=post.id).peer_id == human.id


def test_memory_functions_enforce_access(world, ai_user, human, admin):
    from sns.core.errors import Forbidden

    with pytest.raises(Forbidden):
        memory.interest_get(human, user_id=ai_user.id)
    with pytest.raises(Forbidden):
        memory.post_impression_save(human, user_id=ai_user.id, post_id=world["post"].id, payload="x", source=API)
    assert memory.interest_get(admin, user_id=ai_user.id).interest == "Bread"
    rows = memory.post_impression_list(admin, user_id=ai_user.id, page=Page(limit=10))
    assert len(rows) == 1


def test_memory_lists_cost_constant_queries(world, ai_user, human, settings):
    """A page of impressions costs the same number of queries for 1 row as for 6."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.STGY_AI_PROVIDER = "none"
    client = login_client(ai_user)
    base = f"/api/ai-users/{id_to_hex(ai_user.id)}"

    def count(path: str, expected_rows: int) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert len(client.get(path).json()) == expected_rows
        # Session storage varies with the cache (shared Redis in CI); count the view's own.
        return sum(
            1 for q in ctx.captured_queries
            if "django_session" not in q["sql"] and not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
        )

    # The first request fills the cached auth record (sns/auth/session.py); count after it.
    client.get(f"{base}/post-impressions")
    one = count(f"{base}/post-impressions", 1)
    peers_one = count(f"{base}/peer-impressions", 1)
    for n in range(5):
        post = make_post(make_ai_user(f"Writer{n}"), f"post {n}")
        memory.post_impression_save(ai_user, post_id=post.id, payload="p", source=API)
        memory.peer_impression_save(ai_user, peer_id=post.owner_id, payload="p", source=API)
    assert count(f"{base}/post-impressions", 6) == one
    assert count(f"{base}/peer-impressions", 6) == peers_one
