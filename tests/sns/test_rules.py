"""The rulebook through the API: allowLikes/allowReplies, blocks, blockStrangers,
frozen users. Each case fails if its rule is missing."""

import pytest

from sns import services
from sns.core.errors import Forbidden
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _reply(client, parent):
    return client.post("/api/posts", {"content": "re", "tags": [], "replyTo": parent.hex_id}, format="json")


def test_likes_refused_when_not_allowed(human, follower, admin):
    post = make_post(human, "no likes please", allow_likes=False)
    response = login_client(follower).post(f"/api/posts/{post.hex_id}/like")
    assert response.status_code == 400
    assert response.json() == {"error": "likes are not allowed for the target post"}
    assert login_client(human).post(f"/api/posts/{make_post(human, 'ok').hex_id}/like").status_code == 200


def test_replies_refused_when_not_allowed(human, follower):
    post = make_post(human, "no replies please", allow_replies=False)
    response = _reply(login_client(follower), post)
    assert response.status_code == 400
    assert response.json() == {"error": "replies are not allowed for the target post"}


def test_replies_allowed_by_default(human, follower):
    assert _reply(login_client(follower), make_post(human, "talk to me")).status_code == 201


def test_blocked_user_cannot_like_reply_or_follow(human, blocked):
    post = make_post(human, "hello")
    client = login_client(blocked)
    assert client.post(f"/api/posts/{post.hex_id}/like").json() == {"error": "blocked by the owner"}
    assert _reply(client, post).json() == {"error": "blocked by the owner"}
    response = client.post(f"/api/users/{human.hex_id}/follow")
    assert response.status_code == 400 and response.json() == {"error": "blocked by the user"}


def test_block_is_one_way(human, blocked):
    # The blocker can still interact with the blockee.
    post = make_post(blocked, "hi")
    assert login_client(human).post(f"/api/posts/{post.hex_id}/like").status_code == 200


def test_block_strangers(human, follower):
    human.block_strangers = True
    human.save()
    post = make_post(human, "friends only")
    stranger = login_client(follower)  # follows human, but human does not follow them
    assert stranger.post(f"/api/posts/{post.hex_id}/like").json() == {"error": "blocked by the owner"}
    assert _reply(stranger, post).json() == {"error": "blocked by the owner"}
    newcomer = make_user("Newcomer")
    assert login_client(newcomer).post(f"/api/users/{human.hex_id}/follow").json() == {"error": "blocked by the user"}

    services.follow_add(human, follower.id)
    assert stranger.post(f"/api/posts/{post.hex_id}/like").status_code == 200
    assert _reply(stranger, post).status_code == 201


def test_admin_is_never_blocked(human, admin):
    services.block_add(human, admin.id)
    post = make_post(human, "hello")
    assert login_client(admin).post(f"/api/posts/{post.hex_id}/like").status_code == 200


def test_frozen_user_cannot_write(human, follower):
    post = make_post(human, "hello")
    own = make_post(follower, "mine")
    follower.is_frozen = True
    follower.save()
    client = login_client(follower)
    writes = [
        client.post("/api/posts", {"content": "x", "tags": []}, format="json"),
        client.put(f"/api/posts/{own.hex_id}", {"content": "y"}, format="json"),
        client.delete(f"/api/posts/{own.hex_id}"),
        client.post(f"/api/posts/{post.hex_id}/like"),
        client.delete(f"/api/users/{human.hex_id}/follow"),
        client.post(f"/api/users/{human.hex_id}/block"),
        client.put(f"/api/users/{follower.hex_id}", {"nickname": "Z"}, format="json"),
        client.put(f"/api/users/{follower.hex_id}/password", {"password": "new-long-pass"}, format="json"),
        client.post("/api/notifications/mark-all", {"isRead": True}, format="json"),
    ]
    for response in writes:
        assert response.status_code == 403, response.request
        assert response.json() == {"error": "user is frozen"}
    # Reads still work.
    assert client.get("/api/posts").status_code == 200


def test_frozen_ai_user_is_refused_in_process_too(ai_user, human):
    ai_user.is_frozen = True
    ai_user.save()
    with pytest.raises(Forbidden, match="user is frozen"):
        services.like_add(ai_user, make_post(human, "x").id)


def test_frozen_admin_may_still_write(admin):
    admin.is_frozen = True
    admin.save()
    response = login_client(admin).post("/api/posts", {"content": "x", "tags": []}, format="json")
    assert response.status_code == 201
