"""`timeline_rows` on PostgreSQL runs its union compiled once per viewer kind and
limits (sns/selectors/timelines.py): for every reader it gives the rows the union's
queryset gives, and the two lists are the followees' and the site's newest posts."""

import pytest
from django.db import connection
from django.utils import timezone

from sns.compiled_read import viewer_variant
from sns.models import Block, Follow, Mute, MutedWord
from sns.selectors import timelines
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def community():
    now = timezone.now()
    reader, other, admin = make_user("Reader"), make_user("Other"), make_user("Admin", is_admin=True)
    people = [make_user(f"Person {i}") for i in range(4)]
    strict = make_user("Strict", block_strangers=True)
    for person in [*people, strict]:
        for reader_ in (reader, other, admin):
            Follow.objects.create(follower=reader_, followee=person, created_at=now)
    Block.objects.create(blocker=people[3], blockee=reader, created_at=now)
    Mute.objects.create(user=other, target=people[0], created_at=now)
    MutedWord.objects.create(user=reader, word="secret", created_at=now)
    for i, person in enumerate([*people, strict]):
        for n in range(3):
            post = make_post(person, f"post {n} of {i}" + (" secret" if n == 1 else ""))
        make_post(person, "a reply", reply_to=post.id)
    make_post(make_user("Stranger"), "not followed")
    return reader, other, admin, people, strict


def _expected(user, limit, per_user):
    variant = (viewer_variant(user), limit, per_user)
    rows = list(timelines._timeline_union_query(variant, user.id, user.id))
    parts = {0: [], 1: []}
    for row in rows:
        parts[row.pop("src")].append(row)
    return tuple(sorted(parts[src], key=lambda r: r["id"], reverse=True) for src in (1, 0))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="compiled once on PostgreSQL only")
def test_the_compiled_union_gives_the_querysets_rows_for_each_reader(community):
    reader, other, admin, people, strict = community
    for limit, per_user in [(20, 3), (4, 2), (20, 3)]:
        for user in (reader, other, admin):
            followed, latest = timelines.timeline_rows(user.id, limit=limit, per_followee=per_user, viewer=user)
            assert (followed, latest) == _expected(user, limit, per_user)

    def followed_owners(user):
        return {r["owner_id"] for r in timelines.timeline_rows(user.id, limit=20, per_followee=3, viewer=user)[0]}

    # The blocker and the blockStrangers user are left out for the reader, the muted
    # person for the other; the admin sees all five.
    assert followed_owners(reader) == {p.id for p in people[:3]}
    assert followed_owners(other) == {p.id for p in people[1:]}
    assert followed_owners(admin) == {p.id for p in people} | {strict.id}
