"""The pages' written-SQL post reads (sns/selectors/post_models.py) give the instances
the ORM reads give — the same fields of the post and its owner, the same per-row facts
— for readers a block, blockStrangers, a frozen owner, a mute and a muted word hide
things from; and the Following tab's reposts are the ORM's."""

from __future__ import annotations

import pytest
from django.db.models import Q

from sns import services
from sns.core.errors import DomainError
from sns.internals import model_rows
from sns.models import Follow, Post, Repost, User
from sns.selectors import Page
from sns.selectors.post_reads import instances as post_models
from sns.selectors.posts import post_queryset
from sns.selectors.visibility import viewable_q
from tests.sns.reference_reads import posts_by_followees, posts_list
from tests.sns.test_post_rows import community  # noqa: F401 (the seeded community)

pytestmark = pytest.mark.django_db

_FACTS = ("tag_names_joined", "reply_to_owner_id", "reply_to_owner_nickname",
          "is_liked_by_focus", "is_replied_by_focus", "owner_blocks_focus", "owner_follows_focus")


def _user_fields(user: User) -> dict:
    return {f.attname: getattr(user, f.attname) for f in User._meta.concrete_fields}


def _everything(post: Post) -> dict:
    data = {f.attname: getattr(post, f.attname) for f in Post._meta.concrete_fields}
    data["owner"] = _user_fields(post.owner)
    data.update({name: getattr(post, name, "absent") for name in _FACTS})
    return data


@pytest.fixture
def reposts(community):
    users, posts = community
    for i, user in enumerate(users[:6]):
        for post in posts[i * 7 : i * 7 + 4]:
            try:
                services.repost_add(user, post.id)
            except DomainError:  # hidden from this user (frozen owner, block)
                pass
    return users, posts


def test_the_followees_posts_are_the_orm_s(community):
    users, _ = community
    for reader in users[:7]:
        for page in (Page(limit=21), Page(limit=5), Page(limit=100), Page(limit=8, offset=4)):
            reference = posts_by_followees(
                user_id=reader.id, page=page, include_self=True, focus_user_id=reader.id, viewer=reader
            )
            lean = post_models.followee_posts(reader, page)
            assert reference, "the community gives every reader a timeline"
            assert [_everything(p) for p in lean] == [_everything(p) for p in reference]
            # The People / AI filter (sns/selectors/authors.py): the same rows both ways.
            for authors in ("people", "ai"):
                reference = posts_by_followees(
                    user_id=reader.id, page=page, include_self=True, focus_user_id=reader.id, viewer=reader,
                    authors=authors,
                )
                lean = post_models.followee_posts(reader, page, authors=authors)
                assert [_everything(p) for p in lean] == [_everything(p) for p in reference]
                assert all(p.owner.is_ai == (authors == "ai") for p in lean)


def test_posts_by_id_are_the_orm_s_with_the_same_rule(community):
    users, posts = community
    ids = [p.id for p in posts]
    for reader in (*users[:7], None):
        focus = reader.id if reader else None
        reference = post_queryset(focus).filter(pk__in=ids)
        if reader is not None:
            reference = reference.filter(viewable_q(reader))
        lean = post_models.posts_by_ids(reader, ids, focus_user_id=focus)
        assert {i: _everything(p) for i, p in lean.items()} == {p.id: _everything(p) for p in reference}
    assert len(post_models.posts_by_ids(users[0], ids)) < len(ids), "the rule hides some from users[0]"


def test_the_followees_reposts_are_the_orm_s(reposts):
    users, _ = reposts
    for reader in users[:7]:
        followees = Follow.objects.filter(follower_id=reader.id).values("followee_id")
        reference = (
            Repost.objects.filter(Q(user_id__in=followees) | Q(user_id=reader.id))
            .filter(viewable_q(reader, "user"))
            .select_related("user")
            .order_by("-created_at", "-id")[:7]
        )
        lean = post_models.followee_reposts(reader, 7)
        assert [(r.post_id, r.created_at, _user_fields(r.user)) for r in reference] == [
            (post_id, at, _user_fields(user)) for post_id, at, user in lean
        ]
    assert any(post_models.followee_reposts(u, 7) for u in users[:7])


def test_the_post_and_user_pages_reads_are_the_orm_s(community):
    users, posts = community
    from sns.core.errors import NotFound
    from sns.selectors import post_get

    replied = list(Post.objects.filter(pk__in=Post.objects.values("reply_to")))
    assert replied, "the community has replies"
    for reader in users[:7]:
        for post in posts:
            try:
                reference = post_get(post.id, focus_user_id=reader.id, with_neighbours=True, viewer=reader)
            except NotFound:
                with pytest.raises(NotFound):
                    post_models.post_with_neighbours(reader, post.id, focus_user_id=reader.id)
                continue
            lean = post_models.post_with_neighbours(reader, post.id, focus_user_id=reader.id)
            assert _everything(lean) | {"n": (lean.older_id, lean.newer_id)} == _everything(reference) | {
                "n": (reference.older_id, reference.newer_id)
            }
        for post in replied:
            for page in (Page(limit=51, order="asc"), Page(limit=2, offset=1, order="asc")):
                reference = posts_list(page=page, reply_to=post.id, focus_user_id=reader.id, viewer=reader)
                lean = post_models.posts_page(reader, page, focus_user_id=reader.id, reply_to=post.id)
                assert [_everything(p) for p in lean] == [_everything(p) for p in reference]
        for owner in users:
            for page in (Page(limit=21), Page(limit=3, offset=2)):
                reference = posts_list(page=page, owned_by=owner.id, focus_user_id=reader.id, viewer=reader)
                lean = post_models.posts_page(reader, page, focus_user_id=reader.id, owned_by=owner.id)
                assert [_everything(p) for p in lean] == [_everything(p) for p in reference]


def test_instances_are_those_from_db_makes(community):
    """The quick instances (model_rows.maker) are `from_db`'s: the same attributes and
    loaded state; with a pre_init or post_init listener, `from_db` itself makes them."""
    from django.db import connection
    from django.db.models.signals import post_init

    _, posts = community
    post = posts[0]
    names = [f.attname for f in Post._meta.concrete_fields]
    values = [getattr(post, name) for name in names]
    quick = model_rows.maker(Post)(connection.alias, names, values)
    reference = Post.from_db(connection.alias, names, values)
    assert model_rows.maker(Post) != Post.from_db  # the quick one, with nobody listening
    assert {k: v for k, v in vars(quick).items() if k != "_state"} == {
        k: v for k, v in vars(reference).items() if k != "_state"
    }
    assert (quick._state.adding, quick._state.db) == (reference._state.adding, reference._state.db) == (False, connection.alias)
    assert quick == reference and quick.owner == post.owner

    seen = []

    def listener(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(listener, sender=Post)
    try:
        assert model_rows.maker(Post) == Post.from_db
        post_models.posts_by_ids(None, [post.id])
    finally:
        post_init.disconnect(listener, sender=Post)
    assert seen
