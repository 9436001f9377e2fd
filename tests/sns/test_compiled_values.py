"""`CompiledRead` (sns/compiled_read.py, which the selectors still use): each variant of a
read has its own statement, and its rows are those of its queryset."""

import pytest

from sns.compiled_read import CompiledRead
from sns.models import Post
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


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
