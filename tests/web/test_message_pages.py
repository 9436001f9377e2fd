"""Message pages: inbox tabs with unread counts, a conversation with its compose box,
requests accepted or deleted, reporting, the header count, the profile's button."""

from __future__ import annotations

import re

import pytest

from sns import services
from sns.models import ConversationMember, Message, Report
from sns.services import messages as dm
from tests.factories import make_user
from tests.web.conftest import messages_of, text_of

pytestmark = pytest.mark.django_db


def test_inbox_tabs_and_unread_counts(page_client, human, follower):
    services.follow_add(human, follower.id)
    dm.message_send(follower, human.id, content="hello **Alice**")
    dm.message_send(follower, human.id, content="are you there?")
    stranger = make_user("Stranger")
    dm.message_send(stranger, human.id, content="buy my stuff")
    client = page_client(human)

    body = text_of(client.get("/messages"))
    assert 'data-testid="inbox-unread">2<' in body and 'data-testid="requests-unread">1<' in body
    assert "Bob" in body and "are you there?" in body and "Stranger" not in body
    requests = text_of(client.get("/messages?tab=requests"))
    assert "Stranger" in requests and "buy my stuff" in requests and "Bob" not in requests
    assert "Accept" in requests and "Delete" in requests


def test_header_shows_unread_inbox_messages(page_client, human, follower):
    services.follow_add(human, follower.id)
    client = page_client(human)
    assert 'data-testid="unread-messages"' not in text_of(client.get("/"))
    dm.message_send(follower, human.id, content="one")
    dm.message_send(follower, human.id, content="two")
    assert 'data-testid="unread-messages">2<' in text_of(client.get("/"))
    client.get(f"/messages/{follower.hex_id}")
    assert 'data-testid="unread-messages"' not in text_of(client.get("/"))


def test_conversation_renders_markdown_sanitised_and_marks_read(page_client, human, follower):
    services.follow_add(human, follower.id)
    dm.message_send(follower, human.id, content="**bold** <script>alert(1)</script>")
    dm.message_send(human, follower.id, content="my answer")
    body = text_of(page_client(human).get(f"/messages/{follower.hex_id}"))
    assert "<strong>bold</strong>" in body and "<script>alert" not in body
    # Oldest first on the page, the compose box with its limit.
    assert body.index("bold") < body.index("my answer")
    assert 'maxlength="10000"' in body and "Up to 10,000 characters." in body
    assert re.search(r'<label for="id_content">Message to Bob</label>', body)
    member = ConversationMember.objects.get(user=human)
    assert member.last_read_id == Message.objects.order_by("-id").first().id


def test_compose_sends_and_needs_csrf(page_client, human, follower):
    strict = page_client(follower, csrf=True)
    page = text_of(strict.get(f"/messages/{human.hex_id}"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert strict.post(f"/messages/{human.hex_id}", {"content": "hi"}).status_code == 403
    assert not Message.objects.exists()
    response = strict.post(
        f"/messages/{human.hex_id}", {"content": "hi there", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302 and response["Location"] == f"/messages/{human.hex_id}"
    assert Message.objects.get().content == "hi there"
    for path in (
        f"/messages/{human.hex_id}/accept",
        f"/messages/{human.hex_id}/delete",
        f"/messages/{human.hex_id}/report/{Message.objects.get().hex_id}",
        f"/users/{human.hex_id}/stop-ai",
        "/settings/ai-boundaries",
        f"/settings/ai-stops/{human.hex_id}/undo",
    ):
        assert strict.post(path, {"reason": "x"}).status_code == 403, path


def test_refused_send_is_flashed_and_the_text_kept(page_client, human, blocked):
    client = page_client(blocked)
    response = client.post(
        f"/messages/{human.hex_id}",
        {"content": "let me in"},
        follow=True,
        HTTP_REFERER=f"/messages/{human.hex_id}",
    )
    assert "blocked by the user" in messages_of(response)
    assert "let me in" in text_of(response)
    assert not Message.objects.exists()


def test_accept_and_delete_a_request(page_client, human):
    stranger = make_user("Stranger")
    dm.message_send(stranger, human.id, content="hello")
    client = page_client(human)
    conversation = text_of(client.get(f"/messages/{stranger.hex_id}"))
    assert "is not someone you follow" in conversation
    client.post(f"/messages/{stranger.hex_id}/accept")
    assert "Stranger" in text_of(client.get("/messages"))
    assert "is not someone you follow" not in text_of(client.get(f"/messages/{stranger.hex_id}"))

    other = make_user("Other")
    dm.message_send(other, human.id, content="spam")
    response = client.post(f"/messages/{other.hex_id}/delete")
    assert response["Location"] == "/messages"
    assert "Other" not in text_of(client.get("/messages?tab=requests"))
    assert "spam" not in text_of(client.get(f"/messages/{other.hex_id}"))


def test_report_from_the_conversation(page_client, human, follower):
    message = dm.message_send(follower, human.id, content="nasty")
    client = page_client(human)
    body = text_of(client.get(f"/messages/{follower.hex_id}"))
    assert f"/messages/{follower.hex_id}/report/{message.hex_id}" in body
    assert '<label for="reason-' in body
    response = client.post(
        f"/messages/{follower.hex_id}/report/{message.hex_id}", {"reason": "abuse"}, follow=True
    )
    assert any("reported" in m for m in messages_of(response))
    assert Report.objects.get().reason == "abuse"


def test_profile_has_a_message_button(page_client, human, follower):
    body = text_of(page_client(follower).get(f"/users/{human.hex_id}"))
    assert f'href="/messages/{human.hex_id}">Message<' in body
    own = text_of(page_client(human).get(f"/users/{human.hex_id}"))
    assert f'href="/messages/{human.hex_id}"' not in own


def test_message_pages_need_login_and_valid_ids(page_client, human):
    assert page_client().get("/messages")["Location"].startswith("/login")
    client = page_client(human)
    assert client.get("/messages/nothex").status_code == 400
    assert client.get("/messages/00000000000000AB").status_code == 404
    assert client.get(f"/messages/{human.hex_id}").status_code == 400


def test_message_notifications_link_to_the_inbox(
    page_client, human, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        dm.message_send(make_user("Stranger"), human.id, content="hi")
    body = text_of(page_client(human).get("/notifications"))
    assert "sent you a message request" in body and 'href="/messages?tab=requests"' in body


def test_inbox_and_conversation_query_counts_do_not_grow(
    page_client, page_queries, human, settings
):
    settings.STGY_HOURLY_MESSAGES_COUNT_LIMIT = 1000
    peer = make_user("Peer")
    services.follow_add(human, peer.id)
    dm.message_send(peer, human.id, content="first")
    client = page_client(human)
    paths = ["/messages", "/messages?tab=requests", f"/messages/{peer.hex_id}"]
    few = [len(page_queries(client, p)) for p in paths]
    for i in range(10):
        dm.message_send(peer, human.id, content=f"more {i}")
        dm.message_send(make_user(f"friend{i}"), human.id, content="hi")
        services.follow_add(human, make_user(f"followed{i}").id)
    many = [len(page_queries(client, p)) for p in paths]
    assert many == few
