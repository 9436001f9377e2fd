"""Posts and users store the original's snippet tree (docs/data-model.md, "Snippets"):
the API returns it as the original does, notifications
carry the original's 50-pseudo-token excerpt, and migration 0005 remakes old rows."""

from __future__ import annotations

import importlib
import json

import pytest
from django.apps import apps

from sns import services
from sns.mdtree import make_snippet
from sns.models import Post, User
from tests.conftest import login_client
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db

LONG_JA = "吾輩は猫である。名前はまだ無い。" * 30


def test_created_post_returns_the_tree_in_every_post_shape(human, follower):
    body = {"content": "# Title\n\n- one\n- two\n\n![cap](/data/a.jpg)", "tags": []}
    created = login_client(human).post("/api/posts", body, format="json").json()
    tree = json.loads(created["snippet"])
    assert [n["T"] for n in tree] == ["figure", "h1", "ul"]
    assert tree[0]["CL"] == "featured-block" and tree[0]["C"][0] == {"T": "img", "SR": "/data/a.jpg"}
    listed = login_client(follower).get(f"/api/posts?ownedBy={human.hex_id}").json()
    assert listed[0]["snippet"] == created["snippet"]
    single = login_client(follower).get(f"/api/posts/{created['id']}").json()
    assert single["snippet"] == created["snippet"]


def test_editing_a_post_remakes_its_snippet(human):
    post = make_post(human, "before")
    response = login_client(human).put(f"/api/posts/{post.hex_id}", {"content": LONG_JA}, format="json")
    assert response.status_code == 200, response.content
    [para] = json.loads(response.json()["snippet"])
    # 300 weight units of full-width text: 150 characters and the ellipsis
    assert para["T"] == "p" and para["X"] == LONG_JA[:150] + "…"


def test_user_introduction_makes_the_user_snippet(human):
    response = login_client(human).put(
        f"/api/users/{human.hex_id}", {"introduction": "Hi\n---\nsecret below the rule"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["snippet"] == '[{"T":"p","X":"Hi"},{"T":"omitted"}]'
    human.refresh_from_db()
    assert human.snippet_text == "Hi\n\n…"


def test_a_user_without_introduction_has_an_empty_tree():
    assert make_user("Quiet").snippet == "[]"


def test_a_long_post_snippet_is_cut_at_ten_lines(human):
    post = make_post(human, "\n".join(f"line {i}" for i in range(30)))
    text = post.snippet_text
    # The paragraph itself costs 1 + 200 weight / 100 = 3 lines, each break one more:
    # eight lines fill the ten, and the cut shows as "…".
    assert text.splitlines() == [f"line {i}" for i in range(7)] + ["line 7…"]


def test_notification_carries_the_plain_excerpt(django_capture_on_commit_callbacks, human, follower):
    post = make_post(human, "**Loud** " + "word " * 40)
    with django_capture_on_commit_callbacks(execute=True):  # the like notifies after commit
        services.like_add(follower, post.id)
    feed = login_client(human).get("/api/notifications/feed").json()
    snippet = feed[0]["records"][0]["postSnippet"]
    assert snippet.startswith("Loud word word") and len(snippet) == 50 and "{" not in snippet


def test_migration_remakes_old_plain_snippets(human):
    post = make_post(human, "Hello **world**\n\n- a\n- b")
    Post.objects.filter(pk=post.pk).update(snippet="Hello world a b")
    User.objects.filter(pk=human.pk).update(introduction="About *me*", snippet="About me")
    migration = importlib.import_module("sns.migrations.0005_snippet_trees")
    migration.remake_snippets(apps, None)
    post.refresh_from_db()
    human.refresh_from_db()
    assert post.snippet == make_snippet(post.content)
    assert json.loads(post.snippet)[1] == {"T": "ul", "C": [{"T": "li", "X": "a"}, {"T": "li", "X": "b"}]}
    assert human.snippet == '[{"T":"p","X":"About *me*"}]'


def test_a_snippet_longer_than_the_original_column_is_stored(human):
    # Link targets do not count against the length budget; the tree can pass 4096.
    content = " ".join(f"[x](https://example.com/{'p' * 900}{i})" for i in range(8))
    post = make_post(human, content)
    post.refresh_from_db()
    assert len(post.snippet) > 4096 and json.loads(post.snippet)[0]["T"] == "p"
