"""The post page: ancestors, replies, reply form, like/unlike, edit and delete."""

from __future__ import annotations

import pytest

from sns import services
from sns.models import Like, Post
from tests.factories import make_post, make_user
from tests.web.conftest import text_of

pytestmark = pytest.mark.django_db


def test_post_page_shows_ancestors_the_post_and_its_replies(page_client, human, follower):
    root = make_post(human, "the root")
    middle = make_post(follower, "the middle", reply_to=root.id)
    make_post(human, "a reply to the middle", reply_to=middle.id)
    make_post(make_user("Carol"), "another reply", reply_to=middle.id)
    body = text_of(page_client(human).get(f"/posts/{middle.hex_id}"))
    ancestors = body[body.index("thread-ancestors") : body.index("thread-focus")]
    focus = body[body.index("thread-focus") : body.index('id="replies"')]
    replies = body[body.index('id="replies"') :]
    assert "the root" in ancestors
    assert "the middle" in focus
    assert replies.index("a reply to the middle") < replies.index("another reply")  # oldest first
    assert 'name="content"' in replies and f"/posts/{middle.hex_id}/reply" in replies


def test_reply_is_created_and_lands_on_the_thread(page_client, human, follower):
    root = make_post(human, "root")
    response = page_client(follower).post(f"/posts/{root.hex_id}/reply", {"content": "hi *there*"})
    reply = Post.objects.get(owner=follower)
    assert reply.reply_to == root.id
    assert response["Location"] == f"/posts/{root.hex_id}#post-{reply.hex_id}"


def test_reply_refused_when_blocked(page_client, human, blocked):
    root = make_post(human, "root")
    client = page_client(blocked)
    response = client.post(
        f"/posts/{root.hex_id}/reply",
        {"content": "let me in", "next": f"/posts/{root.hex_id}"},
        follow=True,
    )
    body = text_of(response)
    assert "blocked by the owner" in body
    assert not Post.objects.filter(owner=blocked).exists()
    # The page it came from is hidden from them now (docs/differences.md item 26).
    assert response.status_code == 404


def test_replies_closed_hides_the_form(page_client, human, follower):
    root = make_post(human, "quiet", allow_replies=False)
    body = text_of(page_client(follower).get(f"/posts/{root.hex_id}"))
    assert "turned replies off" in body
    assert f"/posts/{root.hex_id}/reply" not in body
    # Posting anyway is refused by the service.
    response = page_client(follower).post(
        f"/posts/{root.hex_id}/reply", {"content": "x"}, follow=True
    )
    assert "replies are not allowed" in text_of(response)


def test_like_and_unlike(page_client, human, follower):
    post = make_post(human, "likeable")
    client = page_client(follower)
    back = f"/?tab=everyone#post-{post.hex_id}"
    response = client.post(f"/posts/{post.hex_id}/like", {"next": back})
    assert response["Location"] == back
    assert Like.objects.filter(post=post, user=follower).exists()
    body = text_of(client.get(f"/posts/{post.hex_id}"))
    assert f"/posts/{post.hex_id}/unlike" in body and '<span class="like-count">1</span>' in body

    client.post(f"/posts/{post.hex_id}/unlike", {"next": back})
    assert not Like.objects.filter(post=post, user=follower).exists()
    post.refresh_from_db()
    assert post.like_count == 0


def test_double_like_shows_the_conflict(page_client, human, follower):
    post = make_post(human, "x")
    services.like_add(follower, post.id)
    response = page_client(follower).post(f"/posts/{post.hex_id}/like", follow=True)
    assert "already liked" in text_of(response)


def test_likes_turned_off_show_no_button(page_client, human, follower):
    post = make_post(human, "no likes", allow_likes=False)
    body = text_of(page_client(follower).get(f"/posts/{post.hex_id}"))
    assert f"/posts/{post.hex_id}/like" not in body and "Likes are turned off" in body


def test_owner_edits_and_deletes(page_client, human):
    post = make_post(human, "first draft", tags=["a"])
    client = page_client(human)
    body = text_of(client.get(f"/posts/{post.hex_id}"))
    assert f"/posts/{post.hex_id}/edit" in body and f"/posts/{post.hex_id}/delete" in body

    edit = text_of(client.get(f"/posts/{post.hex_id}/edit"))
    assert "first draft</textarea>" in edit and 'value="a"' in edit
    response = client.post(
        f"/posts/{post.hex_id}/edit",
        {"content": "second draft", "tags": "b, c", "locale": "", "allow_likes": "on"},
    )
    assert response["Location"] == f"/posts/{post.hex_id}"
    post.refresh_from_db()
    assert post.content == "second draft" and post.updated_at is not None
    assert not post.allow_replies
    assert sorted(post.tags.values_list("name", flat=True)) == ["b", "c"]

    assert "Delete this post?" in text_of(client.get(f"/posts/{post.hex_id}/delete"))
    response = client.post(f"/posts/{post.hex_id}/delete")
    assert response["Location"] == "/"
    assert not Post.objects.filter(pk=post.id).exists()


def test_deleting_a_reply_returns_to_its_parent(page_client, human, follower):
    root = make_post(human, "root")
    reply = make_post(follower, "oops", reply_to=root.id)
    response = page_client(follower).post(f"/posts/{reply.hex_id}/delete")
    assert response["Location"] == f"/posts/{root.hex_id}"
    root.refresh_from_db()
    assert root.reply_count == 0


def test_others_cannot_edit_or_delete(page_client, human, follower):
    post = make_post(human, "mine")
    client = page_client(follower)
    assert f"/posts/{post.hex_id}/edit" not in text_of(client.get(f"/posts/{post.hex_id}"))
    assert client.get(f"/posts/{post.hex_id}/edit").status_code == 403
    assert client.get(f"/posts/{post.hex_id}/delete").status_code == 403
    client.post(f"/posts/{post.hex_id}/edit", {"content": "hijacked", "tags": ""})
    client.post(f"/posts/{post.hex_id}/delete")
    post.refresh_from_db()
    assert post.content == "mine"


def test_admin_may_edit_any_post(page_client, human, admin):
    post = make_post(human, "mine")
    assert page_client(admin).get(f"/posts/{post.hex_id}/edit").status_code == 200


def test_bad_and_missing_ids(page_client, human):
    client = page_client(human)
    assert client.get("/posts/not-an-id").status_code == 400
    missing = client.get("/posts/00000000000000AB")
    assert missing.status_code == 404 and "Not found" in text_of(missing)
    assert client.get("/users/zzz").status_code == 400


def test_reply_to_a_deleted_parent_says_so(page_client, human, follower):
    root = make_post(human, "root")
    reply = make_post(follower, "orphan", reply_to=root.id)
    services.post_delete(human, root.id)
    body = text_of(page_client(follower).get(f"/posts/{reply.hex_id}"))
    assert "has been deleted" in body


def test_post_page_query_count_does_not_grow_with_replies(
    page_client, page_queries, human, follower
):
    root = make_post(human, "root", tags=["x"])
    make_post(follower, "r0", reply_to=root.id)
    client = page_client(human)
    few = page_queries(client, f"/posts/{root.hex_id}")
    for i in range(10):
        make_post(follower, f"r{i + 1}", reply_to=root.id, tags=["y"])
    many = page_queries(client, f"/posts/{root.hex_id}")
    assert len(many) == len(few)


@pytest.mark.parametrize("action", ["", "like", "unlike", "reply", "edit", "delete", "related", "report"])
def test_post_url_filter_gives_the_same_path_as_the_url_patterns(action):
    from django.urls import reverse

    from sns.web.display import post_url

    name = f"web:post-{action}" if action else "web:post"
    assert post_url("00000000000000AB", action) == reverse(name, args=["00000000000000AB"])


def test_profile_url_filter_gives_the_same_path_as_the_url_pattern():
    from django.urls import reverse

    from sns.web.display import profile_url

    assert profile_url("00000000000000AB") == reverse("web:profile", args=["00000000000000AB"])
