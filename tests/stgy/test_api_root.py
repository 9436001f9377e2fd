"""The API at the root of the hosts in STGY_API_ROOT_HOSTS, for the original's scripts
(edit-users, edit-posts, edit-agreement, user-actions), which address it at
`http://localhost:3100/...`: the calls they make answer there as under /api/, and no
other host loses a page to it (stgy/api_root.py)."""

from __future__ import annotations

import pytest

from sns.models import Post
from tests.clients import APIClient
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

SCRIPTS_HOST = "localhost:3100"


@pytest.fixture
def root_host(settings):
    settings.STGY_API_ROOT_HOSTS = [SCRIPTS_HOST]


def _script_client() -> APIClient:
    # A script sends no Origin; it sends JSON (requests' `json=`), and its Host.
    return APIClient(HTTP_HOST=SCRIPTS_HOST, HTTP_ORIGIN="")


def test_the_scripts_calls_answer_at_the_root(root_host):
    admin = make_user("Admin", is_admin=True)
    client = _script_client()
    response = client.post("/auth", {"email": admin.email, "password": PASSWORD}, format="json")
    assert response.status_code == 200 and "session_id" in response.cookies
    # edit-posts.py: create, then update, a post given with its id.
    response = client.post(
        "/posts", {"id": "00000000000A0001", "content": "from a script", "tags": []}, format="json"
    )
    assert response.status_code == 201, response.content
    response = client.put(
        "/posts/00000000000A0001", {"content": "edited by a script", "tags": []}, format="json"
    )
    assert response.status_code == 200, response.content
    assert Post.objects.get(id=int("A0001", 16)).content == "edited by a script"
    # edit-users.py: read and update a user.
    person = make_user("Mina")
    assert client.get(f"/users/{person.hex_id}").json()["nickname"] == "Mina"
    response = client.put(
        f"/users/{person.hex_id}", {"introduction": "set by an admin"}, format="json"
    )
    assert response.status_code == 200, response.content
    # user-actions.py: a like as it sends it (no body, no content type, no Origin); the
    # same API under /api/ on that host too.
    response = client.generic("POST", "/posts/00000000000A0001/like", content_type="", HTTP_ORIGIN="")
    assert response.status_code == 200, response.content
    assert client.get("/api/posts/00000000000A0001").json()["countLikes"] == 1


def test_that_host_serves_no_pages_and_others_keep_theirs(root_host, human):
    client = _script_client()
    response = client.get("/")
    assert (response.status_code, response.json()) == (404, {"error": "not found"})
    page_client = APIClient()
    page_client.force_login(human)
    response = page_client.get(f"/users/{human.hex_id}")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


def test_without_the_setting_the_root_is_the_sites(human):
    client = _script_client()
    client.force_login(human)
    response = client.get(f"/users/{human.hex_id}")
    assert response["Content-Type"].startswith("text/html")
