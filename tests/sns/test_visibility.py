"""The one visibility rule (sns/selectors/visibility.py), case by case, in each of its
forms: the Q filter, the boolean annotation and the one-row check must agree."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from sns import services
from sns.models import Like, Post, User
from sns.selectors import hidden_user_ids, post_viewable, viewable_flag, viewable_posts, viewable_q
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    viewer = make_user("Viewer")
    admin = make_user("Admin", is_admin=True)
    owners = {
        "plain": make_user("Plain"),
        "blocks_viewer": make_user("BlocksViewer"),
        "shy": make_user("Shy", block_strangers=True),
        "shy_friend": make_user("ShyFriend", block_strangers=True),
        "blocked_by_viewer": make_user("BlockedByViewer"),
        "frozen": make_user("Frozen"),
    }
    services.block_add(owners["blocks_viewer"], viewer.id)
    services.follow_add(owners["shy_friend"], viewer.id)
    services.block_add(viewer, owners["blocked_by_viewer"].id)
    services.block_add(admin, owners["blocked_by_viewer"].id)
    services.block_add(owners["blocks_viewer"], admin.id)
    posts = {name: make_post(user, f"a post by {name}") for name, user in owners.items()}
    posts["own"] = make_post(viewer, "the viewer's own post")
    User.objects.filter(pk=owners["frozen"].pk).update(is_frozen=True)
    User.objects.filter(pk=viewer.pk).update(is_frozen=True)  # own posts stay visible even so
    viewer.refresh_from_db()
    return viewer, admin, owners, posts


def _seen(viewer, posts) -> set[str]:
    """The names of the posts `viewer` may see, by every form of the rule, which must agree."""
    by_q = set(Post.objects.filter(viewable_q(viewer)).values_list("id", flat=True))
    by_flag = {p.id for p in Post.objects.annotate(ok=viewable_flag(viewer)) if p.ok}
    by_row = {p.id for p in posts.values() if post_viewable(viewer, p.id)}
    by_qs = set(viewable_posts(viewer).values_list("id", flat=True))
    assert by_q == by_flag == by_qs
    assert by_row == by_q & {p.id for p in posts.values()}
    return {name for name, post in posts.items() if post.id in by_q}


def test_a_person_sees_neither_refusing_nor_blocked_nor_frozen_owners(cast):
    viewer, _, _, posts = cast
    assert _seen(viewer, posts) == {"plain", "shy_friend", "own"}


def test_an_admin_is_never_refused_but_their_own_blocks_hide(cast):
    _, admin, _, posts = cast
    assert _seen(admin, posts) == {"plain", "blocks_viewer", "shy", "shy_friend", "frozen", "own"}


def test_a_logged_out_visitor_misses_only_frozen_owners(cast):
    _, _, _, posts = cast
    assert _seen(AnonymousUser(), posts) == {"plain", "blocks_viewer", "shy", "shy_friend", "blocked_by_viewer"}


def test_no_viewer_means_nothing_is_hidden(cast):
    _, _, _, posts = cast
    assert {p.id for p in posts.values()} <= set(viewable_posts(None).values_list("id", flat=True))


def test_the_rule_on_users_and_on_rows_about_a_post(cast):
    viewer, _, owners, posts = cast
    hidden = {name for name, user in owners.items() if user.id in hidden_user_ids(viewer, [u.id for u in owners.values()])}
    assert hidden == {"blocks_viewer", "shy", "blocked_by_viewer", "frozen"}
    for post in posts.values():
        Like.objects.create(user=viewer, post=post, created_at=timezone.now())
    liked = set(Like.objects.filter(viewable_q(viewer, "post__owner")).values_list("post_id", flat=True))
    assert liked == {posts[n].id for n in ("plain", "shy_friend", "own")}
