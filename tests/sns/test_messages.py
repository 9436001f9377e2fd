"""Direct messages through the API: send, list, read, unread counts, requests,
accept, hide, report; privacy against admins; notifications."""

from __future__ import annotations

import pytest

from sns import services
from sns.models import Message, Report, Notification
from sns.services import messages as dm
from tests.conftest import login_client
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _send(sender, recipient, content="hello"):
    return login_client(sender).post(
        f"/api/messages/conversations/{recipient.hex_id}", {"content": content}, format="json"
    )


def _conversations(user, folder=""):
    query = f"?folder={folder}" if folder else ""
    return login_client(user).get(f"/api/messages/conversations{query}").json()


def _unread(user):
    return login_client(user).get("/api/messages/unread-count").json()


def test_send_read_and_unread_counts(human, follower):
    # Alice follows Bob, so Bob's messages land in her inbox.
    services.follow_add(human, follower.id)
    response = _send(follower, human, "hi **Alice**")
    assert response.status_code == 201
    sent = response.json()
    assert len(sent["id"]) == 16 and sent["senderId"] == follower.hex_id
    assert sent["recipientId"] == human.hex_id and sent["content"] == "hi **Alice**"
    _send(follower, human, "second")

    assert _unread(human) == {"inbox": 2, "requests": 0}
    assert _unread(follower) == {"inbox": 0, "requests": 0}
    [row] = _conversations(human)
    assert row["userId"] == follower.hex_id and row["folder"] == "inbox"
    assert row["countUnread"] == 2 and row["lastMessageSnippet"] == "second"
    assert row["lastMessageSenderId"] == follower.hex_id
    [mine] = _conversations(follower)
    assert mine["userId"] == human.hex_id and mine["countUnread"] == 0

    thread = login_client(human).get(f"/api/messages/conversations/{follower.hex_id}").json()
    assert [m["content"] for m in thread] == ["second", "hi **Alice**"]  # newest first
    assert _unread(human) == {"inbox": 0, "requests": 0}
    assert _conversations(human)[0]["countUnread"] == 0


def test_paging_marks_read_only_what_was_shown(human, follower):
    services.follow_add(human, follower.id)
    for i in range(5):
        _send(follower, human, f"m{i}")
    client = login_client(human)
    older = client.get(f"/api/messages/conversations/{follower.hex_id}?offset=2&limit=2").json()
    assert [m["content"] for m in older] == ["m2", "m1"]
    assert _unread(human)["inbox"] == 2  # m3 and m4 were not shown
    client.get(f"/api/messages/conversations/{follower.hex_id}?limit=1")
    assert _unread(human)["inbox"] == 0


def test_a_stranger_lands_in_requests_until_accepted(human):
    stranger = make_user("Stranger")
    assert _send(stranger, human, "hello there").status_code == 201
    assert _conversations(human) == []
    [row] = _conversations(human, "requests")
    assert row["folder"] == "requests" and row["userId"] == stranger.hex_id
    assert _unread(human) == {"inbox": 0, "requests": 1}
    # The sender sees it as sent, in their inbox.
    assert _conversations(stranger)[0]["folder"] == "inbox"

    client = login_client(human)
    assert client.post(f"/api/messages/conversations/{stranger.hex_id}/accept").json() == {
        "result": "ok"
    }
    assert _conversations(human, "requests") == []
    assert _conversations(human)[0]["userId"] == stranger.hex_id
    again = client.post(f"/api/messages/conversations/{stranger.hex_id}/accept")
    assert again.status_code == 400 and again.json() == {"error": "not a request"}


def test_replying_accepts_a_request(human):
    stranger = make_user("Stranger")
    _send(stranger, human)
    _send(human, stranger, "who are you?")
    assert _conversations(human, "requests") == []
    assert _conversations(human)[0]["userId"] == stranger.hex_id
    _send(stranger, human, "a friend")
    assert _conversations(human)[0]["countUnread"] == 1


def test_deleting_hides_for_me_only_and_a_new_request_comes_back(human):
    stranger = make_user("Stranger")
    _send(stranger, human, "first")
    client = login_client(human)
    assert client.delete(f"/api/messages/conversations/{stranger.hex_id}").json() == {
        "result": "ok"
    }
    assert _conversations(human, "requests") == [] and _unread(human)["requests"] == 0
    assert client.get(f"/api/messages/conversations/{stranger.hex_id}").json() == []
    # The sender still has the conversation.
    assert _conversations(stranger)[0]["lastMessageSnippet"] == "first"
    _send(stranger, human, "again")
    [row] = _conversations(human, "requests")
    assert row["lastMessageSnippet"] == "again"
    thread = client.get(f"/api/messages/conversations/{stranger.hex_id}").json()
    assert [m["content"] for m in thread] == ["again"]
    missing = client.delete(f"/api/messages/conversations/{make_user('Nobody').hex_id}")
    assert missing.status_code == 404 and missing.json() == {"error": "conversation not found"}


def test_reading_a_conversation_with_nobody_yet(human):
    other = make_user("Other")
    client = login_client(human)
    assert client.get(f"/api/messages/conversations/{other.hex_id}").json() == []
    unknown = client.get("/api/messages/conversations/00000000000000AB")
    assert unknown.status_code == 404 and unknown.json() == {"error": "not found"}
    bad = client.get("/api/messages/conversations/xyz")
    assert bad.status_code == 400 and bad.json() == {"error": "invalid userId"}


def test_login_required(api, human):
    for method, path in [
        ("get", "/api/messages/conversations"),
        ("get", f"/api/messages/conversations/{human.hex_id}"),
        ("post", f"/api/messages/conversations/{human.hex_id}"),
        ("get", "/api/messages/unread-count"),
    ]:
        response = getattr(api, method)(path)
        assert response.status_code == 401 and response.json() == {"error": "login required"}


def test_admins_cannot_read_other_peoples_messages(human, follower, admin):
    _send(follower, human, "private words")
    client = login_client(admin)
    assert client.get("/api/messages/conversations").json() == []
    assert client.get("/api/messages/conversations?folder=requests").json() == []
    # An admin reading "their conversation" with Alice sees only their own (none).
    assert client.get(f"/api/messages/conversations/{human.hex_id}").json() == []
    assert client.get(f"/api/messages/conversations/{follower.hex_id}").json() == []
    message = Message.objects.get()
    report = client.post(f"/api/messages/{message.hex_id}/report", {"reason": "x"}, format="json")
    assert report.status_code == 404


def test_report_a_message(human, follower):
    services.follow_add(human, follower.id)
    message_id = _send(follower, human, "rude words").json()["id"]
    client = login_client(human)
    response = client.post(
        f"/api/messages/{message_id}/report", {"reason": "  harassment "}, format="json"
    )
    assert response.status_code == 201
    data = response.json()
    assert data["messageId"] == message_id and data["reason"] == "harassment"
    assert data["status"] == "open" and len(data["id"]) == 16
    again = client.post(f"/api/messages/{message_id}/report", {"reason": "x"}, format="json")
    assert again.status_code == 400 and again.json() == {"error": "already reported"}
    own = login_client(follower).post(
        f"/api/messages/{message_id}/report", {"reason": "x"}, format="json"
    )
    assert own.status_code == 400 and own.json() == {"error": "cannot report your own message"}
    outsider = login_client(make_user("Eve")).post(
        f"/api/messages/{message_id}/report", {"reason": "x"}, format="json"
    )
    assert outsider.status_code == 404 and outsider.json() == {"error": "message not found"}
    blank = login_client(human).post(
        f"/api/messages/{_send(follower, human).json()['id']}/report", {}, format="json"
    )
    assert blank.status_code == 400 and blank.json() == {"error": "reason is required"}
    assert Report.objects.count() == 1


def test_notifications_for_messages_and_requests(events, human, follower):
    stranger = make_user("Stranger")
    services.follow_add(human, follower.id)
    with events():
        dm.message_send(follower, human.id, content="from a friend")
        dm.message_send(follower, human.id, content="twice")
        dm.message_send(stranger, human.id, content="from a stranger")
    rows = {n.slot: n for n in Notification.objects.filter(user=human)}
    assert set(rows) == {"message", "message-request"}
    assert rows["message"].payload["countUsers"] == 1
    assert [r["userId"] for r in rows["message"].payload["records"]] == [follower.hex_id]
    assert rows["message-request"].payload["records"][0]["userId"] == stranger.hex_id
    # No message text in a notification row: admins can list those.
    assert "from a friend" not in str(rows["message"].payload)
    feed = login_client(human).get("/api/notifications/feed").json()
    assert {n["slot"] for n in feed} == {"message", "message-request"}
    assert all("postIds" not in n for n in feed)


def test_the_ai_hook_is_scheduled_on_commit_only_for_messages_to_ai_users(
    human, ai_user, django_capture_on_commit_callbacks
):
    # After commit: the notification, and for an AI recipient the respond hook too.
    with django_capture_on_commit_callbacks() as to_person:
        dm.message_send(ai_user, human.id, content="hello human")
    with django_capture_on_commit_callbacks() as to_ai:
        dm.message_send(human, ai_user.id, content="hello AI")
    assert len(to_ai) == len(to_person) + 1
    hook = [c for c in to_ai if "message_written" in c.__code__.co_names]
    assert len(hook) == 1


def test_deleting_an_account_removes_its_conversations(human, follower):
    dm.message_send(follower, human.id, content="bye")
    services.user_delete(follower, follower.id)
    assert _conversations(human, "requests") == [] and _conversations(human) == []
    assert not Message.objects.exists()


def test_folder_must_be_inbox_or_requests(human):
    response = login_client(human).get("/api/messages/conversations?folder=spam")
    assert response.status_code == 400 and response.json() == {"error": "invalid folder"}


def test_a_frozen_user_still_reads_but_cannot_accept_or_delete(human, admin):
    stranger = make_user("Stranger")
    dm.message_send(stranger, human.id, content="hello")
    services.user_update(admin, human.id, is_frozen=True)
    human.refresh_from_db()
    client = login_client(human)
    assert [
        m["content"] for m in client.get(f"/api/messages/conversations/{stranger.hex_id}").json()
    ] == ["hello"]
    for response in (
        client.post(f"/api/messages/conversations/{stranger.hex_id}/accept"),
        client.delete(f"/api/messages/conversations/{stranger.hex_id}"),
    ):
        assert response.status_code == 403 and response.json() == {"error": "user is frozen"}
    assert _conversations(human, "requests")[0]["userId"] == stranger.hex_id
