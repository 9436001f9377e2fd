"""Reads compiled once (sns/compiled_read.py `compiled_values`): every call gives the rows
the same `values_list` queryset gives, converted alike."""

import pytest

from sns.compiled_read import CompiledRead, compiled_values
from sns import services
from sns.models import Post
from sns.selectors import viewable_flag
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def _newest_posts(owner_id, viewer_id):
    return (
        Post.objects.filter(owner_id=owner_id)
        .annotate(viewable=viewable_flag(_viewer(viewer_id), "owner"))
        .order_by("-id")
        .values_list("id", "content", "updated_at", "viewable", "owner__nickname")[:3]
    )


def _viewer(viewer_id):
    from sns.models import User

    return User(id=viewer_id, is_admin=False)


def test_the_rows_are_those_of_the_queryset_for_every_argument():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for owner in (alice, bob):
        for n in range(4):
            make_post(owner, f"post {n} of {owner.nickname}")
    services.block_add(alice, carol.id)
    read = compiled_values("test-newest-posts", ("id", "id"), _newest_posts)
    seen = []
    for owner, viewer in [(alice, bob), (alice, carol), (bob, carol), (carol, alice)]:
        rows = read(owner.id, viewer.id)
        assert rows == list(_newest_posts(owner.id, viewer.id))
        seen.append([row[3] for row in rows])
    assert seen == [[True] * 3, [False] * 3, [True] * 3, []]


def test_a_text_argument_is_compared_as_it_is():
    alice = make_user("alice")
    for content in ("50% off", "50_ off", "plain"):
        make_post(alice, content)

    def same_content(owner_id, content):
        return Post.objects.filter(owner_id=owner_id, content=content).values_list("content", flat=False)

    read = compiled_values("test-same-content", ("id", "text"), same_content)
    for content in ("50% off", "50_ off", "plain", "%"):
        assert read(alice.id, content) == list(same_content(alice.id, content))
    assert read(alice.id, "50% off") == [("50% off",)]


def test_reads_made_anew_under_one_key_share_the_compiled_statement():
    alice = make_user("alice")
    make_post(alice, "one")

    def own(owner_id):
        return Post.objects.filter(owner_id=owner_id).values_list("content")

    first = compiled_values("test-made-anew", ("id",), own)(alice.id)
    assert compiled_values("test-made-anew", ("id",), own)(alice.id) == first == [("one",)]


def test_each_variant_has_its_own_statement():
    alice = make_user("alice")
    for n in range(5):
        make_post(alice, f"post {n}")

    def newest(variant, owner_id):
        order, limit = variant
        return Post.objects.filter(owner_id=owner_id).order_by(order).values_list("content")[:limit]

    read = CompiledRead("test-variants", ("id",), newest)
    for variant in [("-id", 2), ("id", 2), ("-id", 3), ("-id", 2)]:
        assert read(variant, alice.id) == list(newest(variant, alice.id))
    assert read(("-id", 3), alice.id) == [("post 4",), ("post 3",), ("post 2",)]
    assert read(("id", 2), alice.id) == [("post 0",), ("post 1",)]
