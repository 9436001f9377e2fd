"""The one input boundary: query numbers and ids in range, no NUL in a query, text
the database can store, column lengths checked before the database sees them."""

from __future__ import annotations

import pytest

from sns import services
from sns.core.errors import InvalidInput
from sns.models import Post
from tests.accounts.mailbox import sign_up_through_the_code
from tests.conftest import PASSWORD, login_client
from tests.factories import make_ai_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("offset=9223372036854775808", "invalid offset"),
        ("offset=" + "9" * 30, "invalid offset"),
        ("offset=-1", "invalid offset"),
        ("limit=1_000", "invalid limit"),
        ("offset=%D9%A1", "invalid offset"),
        ("tag=a%00b", "invalid tag"),
        ("ownedBy=10000000000000000", "invalid ownedBy"),
        ("a%00=1", "invalid query"),
    ],
)
def test_a_query_parameter_out_of_range_or_with_nul_is_400(human, query, message):
    response = login_client(human).get(f"/api/posts?{query}")
    assert response.status_code == 400
    assert response.json() == {"error": message}


def test_the_largest_offset_is_accepted(human):
    response = login_client(human).get("/api/posts?offset=9223372036854775807")
    assert (response.status_code, response.json()) == (200, [])


def test_a_search_with_nul_is_400_and_the_page_shows_the_error(human):
    assert login_client(human).get("/api/posts/search?query=a%00").json() == {"error": "invalid query"}
    response = login_client(human).get("/search?q=a%00")
    assert response.status_code == 400
    assert "invalid q" in response.content.decode()


def test_a_body_nested_too_deeply_is_400_and_a_shallow_one_is_not(human):
    client = login_client(human)
    deep = '{"content": "x", "tags": [], "locale": ' + "[" * 40 + "]" * 40 + "}"
    response = client.post("/api/posts", deep, content_type="application/json")
    assert response.json() == {"error": "body is nested too deeply"}
    brackets_in_text = '{"content": "' + "[" * 100 + '", "tags": []}'
    assert (
        client.post("/api/posts", brackets_in_text, content_type="application/json").status_code
        == 201
    )


def test_the_body_limit_is_a_setting(human, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    client = login_client(human)
    response = client.post(
        "/api/posts", {"content": "x" * 200, "tags": []}, content_type="application/json"
    )
    assert (response.status_code, response.json()) == (413, {"error": "request body is too large"})
    response = client.post("/compose", {"content": "x" * 200})
    assert response.status_code == 413
    assert Post.objects.count() == 0


def test_an_avatar_longer_than_its_column_is_400_not_a_database_error(human):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", {"avatar": "a" * 101}, content_type="application/json"
    )
    assert response.json() == {"error": "avatar is too long"}


def test_a_number_sent_as_a_nickname_is_refused(human):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", {"nickname": 2**63}, content_type="application/json"
    )
    assert response.json() == {"error": "nickname must be a string"}


def test_the_services_refuse_what_the_database_cannot_store_for_every_caller(human):
    """AI agents and pages call the same services as the API."""
    ai = make_ai_user("Aiko")
    for text, field in (("a\x00b", "content"), ("a\ud800b", "content")):
        with pytest.raises(InvalidInput, match=f"^{field} contains invalid characters$"):
            services.post_create(ai, content=text, tags=[])
    with pytest.raises(InvalidInput, match="^tags contains invalid characters$"):
        services.post_create(ai, content="ok", tags=["a\x00"])
    with pytest.raises(InvalidInput, match="^nickname contains invalid characters$"):
        services.user_update(human, human.id, nickname="x\ud800")
    with pytest.raises(InvalidInput, match="^password contains invalid characters$"):
        services.user_set_password(
            human, human.id, "long-password-\ud800", current_password=PASSWORD
        )
    assert Post.objects.count() == 0


def test_control_characters_leave_post_content_but_newlines_tabs_and_rtl_text_stay(human):
    post = services.post_create(human, content="a\x07b\tc\nשלום\u202bx", tags=[])
    assert post.content == "ab\tc\nשלום\u202bx"


def test_a_nickname_of_only_invisible_characters_is_required(human):
    with pytest.raises(InvalidInput, match="^nickname is required$"):
        services.user_update(human, human.id, nickname="\u202e\u2066\x01")


def test_a_json_surrogate_escape_is_refused_naming_the_field(human):
    client = login_client(human)
    response = client.post(
        "/api/posts", '{"content": "ok", "tags": ["\\ud800"]}', content_type="application/json"
    )
    assert response.json() == {"error": "tags contains invalid characters"}
    paired = client.post(
        "/api/posts", '{"content": "\\ud83d\\ude00", "tags": []}', content_type="application/json"
    )
    assert paired.json()["content"] == "\U0001f600"


def test_signup_strips_bidi_from_the_nickname():
    user = sign_up_through_the_code(
        email="eve@example.com", nickname="\u202eEve\u202c", password="x-long-password"
    )
    assert user.nickname == "Eve"


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:00"])
@pytest.mark.parametrize("path", ["/api/notifications/feed", "/api/ai-posts"])
def test_a_datetime_past_the_ends_of_utc_is_400(human, path, moment):
    """Both parse, but have no UTC equivalent: converting them was a 500."""
    response = login_client(human).get(path, {"newerThan": moment})
    assert (response.status_code, response.json()) == (400, {"error": "invalid newerThan"})


def test_too_many_query_parameters_or_form_fields_get_the_usual_error_answers(human):
    client = login_client(human)
    many = "&".join(f"p{i}=1" for i in range(1100))
    response = client.get(f"/api/posts?{many}")
    assert (response.status_code, response.json()) == (400, {"error": "too many query parameters"})
    response = client.get(f"/?{many}")
    assert response.status_code == 400
    assert "too many query parameters" in response.content.decode()
    response = client.post("/compose", many, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "too many form fields" in response.content.decode()
