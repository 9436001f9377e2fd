"""The small breaks of docs/pages.md §7, each held: a parent hidden by a block or a mute
is "not available", never a link to a 404 nor "deleted"; counts say what the reader can
see; a muted user's profile says why no post is listed; Django's own refusals get our
styled pages; the admin link is not a second "Admin"; Agent activity says what the
offline stand-in is."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sns import services
from sns.services import mutes
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _html(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("hide", ["block", "mute"])
def test_a_hidden_parent_is_not_available_not_deleted(page_client, hide):
    maya, kai, lee = make_user("Maya"), make_user("Kai"), make_user("Lee")
    parent = make_post(kai, "the parent")
    reply = make_post(lee, "the reply", reply_to=parent.id)
    gone = make_post(lee, "to a deleted one", reply_to=make_post(lee, "soon gone").id)
    services.post_delete(lee, gone.reply_to)
    if hide == "block":
        services.block_add(kai, maya.id)
    else:
        mutes.mute_add(maya, kai.id)
    client = page_client(maya)
    for path in ("/?tab=everyone", f"/users/{lee.hex_id}"):
        page = _html(client.get(path))
        assert "in reply to a post not available to you" in page
        assert f'href="/posts/{parent.hex_id}"' not in page  # no link to a 404
        assert "in reply to a deleted post" in page  # the one really deleted
    page = _html(client.get(f"/posts/{reply.hex_id}"))
    assert (
        "In reply to a post that is not available to you." in page
        and "has been deleted" not in page
    )
    assert "In reply to a post that has been deleted." in _html(client.get(f"/posts/{gone.hex_id}"))
    assert client.get(f"/posts/{parent.hex_id}").status_code == 404


def test_the_reply_count_is_what_the_reader_sees(page_client):
    maya, kai, lee = make_user("Maya"), make_user("Kai"), make_user("Lee")
    post = make_post(maya, "a question")
    make_post(kai, "an answer", reply_to=post.id)
    mutes.mute_add(maya, kai.id)
    page = _html(page_client(maya).get(f"/posts/{post.hex_id}"))
    assert "data-live-count>0</span>" in page and "No replies yet." in page
    make_post(lee, "another answer", reply_to=post.id)
    assert "data-live-count>1</span>" in _html(page_client(maya).get(f"/posts/{post.hex_id}"))
    assert "data-live-count>2</span>" in _html(page_client(lee).get(f"/posts/{post.hex_id}"))


def test_a_muted_users_profile_says_why_no_post_is_listed(page_client):
    maya, kai = make_user("Maya"), make_user("Kai")
    make_post(kai, "one")
    make_post(kai, "two")
    mutes.mute_add(maya, kai.id)
    page = _html(page_client(maya).get(f"/users/{kai.hex_id}"))
    assert "You muted Kai, so their posts are hidden from you. Unmute to see them." in page
    assert "No posts yet." not in page
    quiet = make_user("Quiet")
    assert "No posts yet." in _html(page_client(maya).get(f"/users/{quiet.hex_id}"))


def test_a_failed_csrf_check_is_our_page(page_client):
    maya = make_user("Maya")
    response = page_client(maya, csrf=True).post("/compose", {"content": "hi"})
    assert response.status_code == 403
    page = _html(response)
    assert (
        "Please try again" in page
        and 'class="site-header"' in page
        and "CSRF verification failed" not in page
    )


def test_get_on_a_post_only_address_is_our_405(page_client):
    maya = make_user("Maya")
    post = make_post(maya, "x")
    response = page_client(maya).get(f"/posts/{post.hex_id}/like")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "Not available this way" in _html(response) and 'class="site-header"' in _html(response)
    # The API keeps its JSON.
    api = page_client(maya).put("/api/posts/count")
    assert api.status_code == 405 and api.json()["error"]


def test_an_unknown_address_under_debug_is_our_404(page_client, settings):
    settings.DEBUG = True
    response = page_client(make_user("Maya")).get("/no/such/page")
    assert response.status_code == 404
    assert "There is no page at this address." in _html(
        response
    ) and "Page not found at" not in _html(response)
    assert page_client().get("/api/no-such-route").status_code == 404


def test_the_admin_link_is_not_a_second_admin(page_client):
    admin = make_user("Admin", is_admin=True)
    page = _html(page_client(admin).get("/"))
    assert page.count(">Admin<") == 1  # the nickname link; the admin site's is "Manage"
    assert 'class="nav-admin" title="Site administration">Manage</a>' in page


def test_agent_activity_says_what_the_offline_stand_in_is(page_client, settings):
    admin = make_user("Root", is_admin=True)
    settings.STGY_AI_PROVIDER = "offline"
    status = _llm_status(page_client(admin))
    assert (
        "the offline stand-in" in status
        and "tokens today" not in status.lower()
        and " → " not in status
    )
    settings.STGY_AI_PROVIDER = "openai"
    status = _llm_status(page_client(admin))
    assert "Today (UTC):" in status and "less than the day's total" in status


def _llm_status(client) -> str:
    page = _html(client.get(reverse("agents:activity")))
    start = page.index('data-testid="llm-status"')
    return page[start : page.index("</section>", start)]
