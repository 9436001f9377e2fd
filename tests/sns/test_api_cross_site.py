"""Unsafe API requests must be same-site JSON (sns/api/authentication.py)."""

import pytest

from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

BODY = {"content": "hello", "tags": []}


def test_same_origin_json_request_works(human):
    response = login_client(human).post(
        "/api/posts", BODY, format="json", HTTP_ORIGIN="http://testserver"
    )
    assert response.status_code == 201


def test_same_site_fetch_metadata_works(human):
    response = login_client(human).post(
        "/api/posts", BODY, format="json", HTTP_SEC_FETCH_SITE="same-origin"
    )
    assert response.status_code == 201


def test_foreign_origin_is_refused(human):
    client = login_client(human)
    response = client.post("/api/posts", BODY, format="json", HTTP_ORIGIN="https://evil.example")
    assert response.status_code == 403
    assert response.json() == {"error": "cross-site request refused"}
    assert client.get("/api/posts").json() == []


def test_null_origin_is_refused(human):
    response = login_client(human).post("/api/posts", BODY, format="json", HTTP_ORIGIN="null")
    assert response.status_code == 403


def test_cross_site_fetch_metadata_is_refused(human):
    response = login_client(human).post(
        "/api/posts", BODY, format="json", HTTP_SEC_FETCH_SITE="cross-site"
    )
    assert response.status_code == 403


def test_form_encoded_body_is_refused(human):
    response = login_client(human).post(
        "/api/posts", "content=hello&tags=", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415


def test_cross_site_login_is_refused(api, human):
    response = api.post(
        "/api/auth",
        {"email": human.email, "password": "correct-horse-battery"},
        format="json",
        HTTP_ORIGIN="https://evil.example",
    )
    assert response.status_code == 403
    assert "session_id" not in response.cookies


def test_cross_site_get_is_allowed_but_needs_a_session(api):
    response = api.get("/api/posts", HTTP_SEC_FETCH_SITE="cross-site")
    assert response.status_code == 401
    assert response.json() == {"error": "login required"}


# Every unsafe method must prove it is no cross-site form or no-cors fetch, whatever its
# body: JSON, or an Origin of this site (or an allowed one) when there is no body.
LIKE = "/api/posts/{}/like"


@pytest.fixture
def liked_post(human):
    return make_post(make_user("Poster"), "like me")


def _likes(post) -> int:
    return post.likes.count()


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
@pytest.mark.parametrize("method", ["post", "delete"])
def test_an_empty_non_json_request_without_origin_is_refused_and_changes_nothing(
    human, liked_post, content_type, method
):
    client = login_client(human)
    response = getattr(client, method)(LIKE.format(liked_post.hex_id), HTTP_ORIGIN="", content_type=content_type)
    assert response.status_code == 403
    assert response.json() == {"error": "request refused: send Content-Type: application/json"}
    assert _likes(liked_post) == 0


def test_a_scripts_bodiless_call_without_content_type_or_origin_works(human, liked_post):
    # What `requests.post(url, cookies=...)` sends (the original's user-actions.py): no
    # browser sends a POST without both a content type and an Origin.
    client = login_client(human)
    path = LIKE.format(liked_post.hex_id)
    response = client.generic("POST", path, content_type="", HTTP_ORIGIN="")
    assert (response.status_code, _likes(liked_post)) == (200, 1)
    response = client.generic("DELETE", path, content_type="", HTTP_ORIGIN="")
    assert (response.status_code, _likes(liked_post)) == (200, 0)


def test_a_put_sent_as_text_plain_is_refused(human):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", "", content_type="text/plain", HTTP_ORIGIN=""
    )
    assert response.status_code == 403


def test_the_original_frontends_bodiless_json_calls_work(human, liked_post):
    client = login_client(human)
    path = LIKE.format(liked_post.hex_id)
    response = client.post(path, content_type="application/json", HTTP_ORIGIN="")
    assert (response.status_code, _likes(liked_post)) == (200, 1)
    response = client.delete(path, content_type="application/json", HTTP_ORIGIN="")
    assert (response.status_code, _likes(liked_post)) == (200, 0)


def test_a_same_origin_browser_call_without_a_body_works(human, liked_post):
    response = login_client(human).post(
        LIKE.format(liked_post.hex_id), HTTP_ORIGIN="http://testserver"
    )
    assert (response.status_code, _likes(liked_post)) == (200, 1)


def test_an_allowed_frontend_origin_works_cross_origin(human, liked_post, settings):
    settings.STGY_CORS_ALLOWED_ORIGINS = ["http://localhost:3000"]
    client = login_client(human)
    path = LIKE.format(liked_post.hex_id)
    response = client.post(
        path,
        content_type="application/json",
        HTTP_ORIGIN="http://localhost:3000",
        HTTP_SEC_FETCH_SITE="same-site",
    )
    assert (response.status_code, _likes(liked_post)) == (200, 1)
    assert response["Access-Control-Allow-Origin"] == "http://localhost:3000"
    response = client.delete(
        path, HTTP_ORIGIN="http://localhost:3000"
    )  # bodiless, its Origin allowed
    assert (response.status_code, _likes(liked_post)) == (200, 0)
    response = client.post(path, content_type="text/plain", HTTP_ORIGIN="http://evil.example")
    assert response.status_code == 403 and _likes(liked_post) == 0


def test_without_a_session_there_is_nothing_to_forge_and_login_is_still_asked_for(api, liked_post):
    response = api.post(LIKE.format(liked_post.hex_id), content_type="text/plain", HTTP_ORIGIN="")
    assert response.status_code == 401
