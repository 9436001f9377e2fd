"""The API's post rows (sns/selectors/post_reads/tuples.py, sns/api/post_rows.py) answer
exactly what the ORM reads (tests/sns/reference_reads.py) and their presenters answer, on a
seeded community with replies, tags, likes, blocks, blockStrangers, published and
edited posts; and the hot endpoints cost a pinned number of queries."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from sns import selectors, services
from sns.api.presenters import post_detail_json, post_json
from sns.core.errors import Forbidden, InvalidInput, NotFound
from sns.models import Post, User
from sns.selectors import Page
from sns.services import mutes
from tests.conftest import login_client, rows_for_the_module
from tests.factories import make_post, make_user
from tests.sns import reference_reads

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def community(django_db_setup, django_db_blocker):
    """Built once for the module (its tests only read it; a few seconds each time)."""
    yield from rows_for_the_module(django_db_blocker, _community)


def _community():
    rng = random.Random(7)
    users = [make_user(f"user{i}", locale=rng.choice(["en-US", "ja-JP"])) for i in range(8)]
    for a in users:
        for b in rng.sample(users, 3):
            if a != b:
                services.follow_add(a, b.id)
    services.user_update(users[3], users[3].id, block_strangers=True)
    services.block_add(users[1], users[0].id)
    services.block_add(users[5], users[2].id)
    posts: list[Post] = []
    for i in range(60):
        owner = rng.choice(users)
        parent = rng.choice(posts) if posts and rng.random() < 0.4 else None
        tags = rng.sample(["tea", "rust", "cats", "go_50%"], rng.randint(0, 2))
        fields = {"allow_likes": rng.random() < 0.8, "allow_replies": rng.random() < 0.8,
                  "locale": rng.choice([None, "en", "ja"])}
        content = f"post {i} with 100% _words_ {rng.random()}"
        try:
            post = make_post(owner, content, tags=tags, reply_to=parent.id if parent else None, **fields)
        except InvalidInput:  # the parent refuses replies, or its owner blocks this one
            post = make_post(owner, content, tags=tags, **fields)
        posts.append(post)
    for post in rng.sample(posts, 20):
        for liker in rng.sample(users, 2):
            try:
                services.like_add(liker, post.id)
            except (InvalidInput, Forbidden):
                pass
    for post in rng.sample(posts, 5):
        services.post_update(post.owner, post.id, content=post.content + " (edited)")
    Post.objects.filter(pk__in=[p.id for p in posts[:6]]).update(published_at=timezone.now() - timedelta(days=1))
    # What the one visibility rule hides (sns/selectors/visibility.py): a frozen owner,
    # a mute, a muted word.
    User.objects.filter(pk=users[7].id).update(is_frozen=True)
    mutes.mute_add(users[0], users[6].id)
    mutes.muted_words_set(users[0], users[0].id, ["post 13 "])
    # Two AI users, for the People / AI / All filter (sns/selectors/authors.py).
    User.objects.filter(pk__in=[users[4].id, users[5].id]).update(ai_model="balanced")
    return users, posts


def _json(data) -> str:
    return json.dumps(data, sort_keys=False, ensure_ascii=False)


def _page_cases(users):
    """(focus user id, viewer, page): the focus user is also the reader, as on our pages."""
    for reader in (None, users[0], users[2], users[3]):
        for page in (Page(limit=20), Page(limit=7, offset=3, order="asc"), Page(limit=100)):
            yield (reader.id if reader else None), reader, page


def test_lists_match_the_orm_reads(community):
    users, posts = community
    from sns.api.post_rows import post_row_json
    from sns.selectors.post_reads import tuples as post_rows

    filters = [{}, {"owned_by": users[1].id}, {"tag": "tea"}, {"tag": " Go_50% "}, {"reply_to": ""},
               {"reply_to": "*"}, {"reply_to": posts[0].id}, {"query": "100%"}, {"query": "_words_"},
               {"after": posts[30].id}, {"authors": "people"}, {"authors": "ai"}, {"authors": "all"},
               {"authors": "ai", "tag": "tea"}]
    checked = 0
    for focus, viewer, page in _page_cases(users):
        for f in filters:
            reference = [
                post_json(p, focus) for p in reference_reads.posts_list(page=page, focus_user_id=focus, viewer=viewer, **f)
            ]
            lean = [
                post_row_json(r, focus)
                for r in post_rows.post_rows_list(page=page, focus_user_id=focus, viewer=viewer, **f)
            ]
            assert _json(lean) == _json(reference), (focus, page, f)
            checked += len(reference)
    assert checked > 500


def test_by_followees_matches_the_orm_read(community):
    users, _ = community
    from sns.api.post_rows import post_row_json
    from sns.selectors.post_reads import tuples as post_rows

    for user in users:
        for focus, viewer, page in _page_cases(users):
            for options in ({}, {"include_self": True}, {"include_replies": False}, {"limit_per_user": 2},
                            {"authors": "people", "include_self": True}, {"authors": "ai", "include_self": True}):
                args = {"user_id": user.id, "page": page, "focus_user_id": focus, "viewer": viewer, **options}
                reference = reference_reads.posts_by_followees(**args)
                lean = post_rows.post_rows_by_followees(**args)
                assert _json([post_row_json(r, focus) for r in lean]) == _json([post_json(p, focus) for p in reference])


def test_one_post_matches_the_orm_read(community):
    users, posts = community
    from sns.api.post_rows import post_row_detail_json
    from sns.selectors.post_reads import tuples as post_rows

    hidden = 0
    for post in posts:
        for viewer in (None, users[0], users[3], post.owner):
            focus = viewer.id if viewer else None
            try:
                reference = selectors.post_get(post.id, focus_user_id=focus, with_neighbours=True, viewer=viewer)
            except NotFound:
                with pytest.raises(NotFound):
                    post_rows.post_row_get(post.id, focus_user_id=focus, viewer=viewer)
                hidden += 1
                continue
            expected = post_detail_json(reference, *selectors.post_neighbours(reference), focus_user_id=focus)
            lean = post_row_detail_json(post_rows.post_row_get(post.id, focus_user_id=focus, viewer=viewer), focus)
            assert _json(lean) == _json(expected)
    assert hidden > 0  # the rule had something to hide


def test_the_endpoints_answer_the_reference_json(community):
    users, posts = community
    client = login_client(users[0])
    focus = users[2]
    reader = users[0]  # the API shows what its caller may see
    reference = [
        post_json(p, focus.id)
        for p in reference_reads.posts_list(page=Page(limit=20), focus_user_id=focus.id, viewer=reader)
    ]
    assert client.get(f"/api/posts?limit=20&focusUserId={focus.hex_id}").json() == reference
    page = Page(limit=20)
    reference = [post_json(p) for p in reference_reads.posts_by_followees(user_id=users[4].id, page=page, viewer=reader)]
    assert client.get(f"/api/posts/by-followees?userId={users[4].hex_id}&limit=20").json() == reference
    shown = next(p for p in posts[10:] if selectors.post_viewable(reader, p.id))
    post = selectors.post_get(shown.id, with_neighbours=True, viewer=reader)
    assert client.get(f"/api/posts/{shown.hex_id}").json() == post_detail_json(post, *selectors.post_neighbours(post))
    hidden = next(p for p in posts if not selectors.post_viewable(reader, p.id))
    assert client.get(f"/api/posts/{hidden.hex_id}").status_code == 404
    assert client.get("/api/posts/00000000000000FF").status_code == 404


# Per request: the session (1 without Redis; cached with it) and the auth record (1,
# 0 when cached), then one statement for a list or one post; by-followees reads its
# active followees in the same statement.
@pytest.mark.parametrize(
    "path, reads",
    [
        ("/api/posts?limit=20", 1),
        ("/api/posts?limit=20&focusUserId={focus}", 1),
        ("/api/posts/by-followees?userId={user}&limit=20", 1),
        ("/api/posts/{post}", 1),
        ("/api/posts/{post}?focusUserId={focus}", 1),
    ],
)
@pytest.mark.parametrize("ttl, auth", [(0, 1), (300, 0)])
def test_hot_reads_cost_pinned_queries(community, settings, path, reads, ttl, auth):
    settings.STGY_AUTH_RECORD_TTL = ttl
    auth += 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
    users, posts = community
    client = login_client(users[0])
    shown = next(p for p in posts[10:] if selectors.post_viewable(users[0], p.id))
    path = path.format(focus=users[2].hex_id, user=users[4].hex_id, post=shown.hex_id)
    assert client.get(path).status_code == 200  # fills the cached record, if any
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    assert len(queries) == auth + reads, [q["sql"][:80] for q in queries]


def test_user_rows_are_untouched(community):
    # The lean reads never write: the users' counters stay what the services made them.
    users, _ = community
    before = list(User.objects.order_by("id").values_list("post_count", "follower_count"))
    client = login_client(users[0])
    client.get("/api/posts?limit=20")
    assert list(User.objects.order_by("id").values_list("post_count", "follower_count")) == before
