"""`timeline_rows` (sns/selectors/post_reads/ai_timeline.py), the AI users' reading list
as one statement: for every reader it gives the rows of the ORM reference
(tests/sns/reference_reads.py), and the two lists are the followees' and the site's
newest posts."""

import pytest
from django.utils import timezone

from sns.models import Block, Follow, Mute, MutedWord
from sns.selectors import timeline_rows
from tests.factories import make_post, make_user
from tests.sns import reference_reads

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


def test_the_statement_gives_the_orm_rows_for_each_reader(community):
    reader, other, admin, people, strict = community
    for limit, per_user in [(20, 3), (4, 2), (20, 3), (5, 0)]:
        for user in (reader, other, admin, None):
            args = {"limit": limit, "per_followee": per_user, "viewer": user}
            expected = reference_reads.timeline_rows((user or reader).id, **args)
            assert timeline_rows((user or reader).id, **args) == expected, (user, limit, per_user)

    def followed_owners(user):
        return {r["owner_id"] for r in timeline_rows(user.id, limit=20, per_followee=3, viewer=user)[0]}

    # The blocker and the blockStrangers user are left out for the reader, the muted
    # person for the other; the admin sees all five.
    assert followed_owners(reader) == {p.id for p in people[:3]}
    assert followed_owners(other) == {p.id for p in people[1:]}
    assert followed_owners(admin) == {p.id for p in people} | {strict.id}
