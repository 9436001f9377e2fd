"""Reposts by AI users in stage 4 (docs/agent-cycle.md §6, "Reposts"): the like
gate's judgement under stricter numbers, a cap per cycle, an hourly cap, the reason in
the run record, and run it twice → same rows."""

from __future__ import annotations

import pytest

from agents.cycle.reposts import repost_wanted, reposts_write
from sns import services
from sns.models import Post, Repost
from sns.selectors.boundaries import ai_contact_annotations
from sns.services import boundaries
from tests.factories import make_post, make_user

pytestmark = pytest.mark.django_db


def item(post, *, rank=1, sim=0.9, like=True, ai=None):
    """A planned post as plan_actions gives it: with the author's AI boundary facts."""
    if ai is not None:
        post = (
            Post.objects.select_related("owner")
            .annotate(**ai_contact_annotations(ai, "owner_id", "reply"))
            .get(pk=post.pk)
        )
    return {"post": post, "rank": rank, "sim": sim, "decision": {"shouldLike": like}}


@pytest.fixture
def alice(db):
    return make_user("Alice")


@pytest.mark.parametrize(
    ("rank", "sim", "like", "wanted"),
    [
        (1, 0.9, True, True),
        (1, 0.7, True, True),
        (1, 0.6999, True, False),
        (2, 0.9, True, False),
        (1, 0.9, False, False),
        (1, 0.9, None, False),  # no judgement (a failed impression) is never a yes
    ],
)
def test_the_gate_at_its_boundaries(ai_user, alice, rank, sim, like, wanted):
    post = make_post(alice, "a root post")
    assert repost_wanted(item(post, rank=rank, sim=sim, like=like), ai_user.id) is wanted


def test_no_reposts_of_replies_or_own_posts(ai_user, alice):
    root = make_post(alice, "root")
    reply = make_post(alice, "reply", reply_to=root.id)
    own = make_post(ai_user, "mine")
    assert not repost_wanted(item(reply), ai_user.id)
    assert not repost_wanted(item(own), ai_user.id)


def test_settings_move_the_gate(settings, ai_user, alice):
    settings.STGY_AI_USER_REPOST_MAX_INTEREST_RANK = 2
    settings.STGY_AI_USER_REPOST_MIN_SIMILARITY = 0.5
    assert repost_wanted(item(make_post(alice), rank=2, sim=0.5), ai_user.id)


def test_cap_per_cycle_and_reasons_recorded(settings, ai_user, alice):
    settings.STGY_AI_USER_REPOSTS_PER_CYCLE = 1
    settings.STGY_AI_USER_REPOST_MAX_INTEREST_RANK = 3
    posts = [make_post(alice, f"p{i}") for i in range(3)]
    records = reposts_write(ai_user, [item(p, rank=i + 1, ai=ai_user) for i, p in enumerate(posts)])
    assert [r["result"] for r in records] == ["reposted", "capped: 1 repost(s) per cycle", "capped: 1 repost(s) per cycle"]
    assert records[0] == {"postId": posts[0].hex_id, "rank": 1, "sim": 0.9, "judgement": "shouldLike", "result": "reposted"}
    assert list(Repost.objects.filter(user=ai_user).values_list("post_id", flat=True)) == [posts[0].id]


def test_hourly_cap_counts_earlier_reposts(settings, ai_user, alice):
    settings.STGY_AI_USER_HOURLY_REPOSTS_LIMIT = 1
    first, second = make_post(alice, "first"), make_post(alice, "second")
    services.repost_add(ai_user, first.id)
    records = reposts_write(ai_user, [item(second, ai=ai_user)])
    assert records[0]["result"] == "capped: 1 reposts in the last hour (limit 1)"
    assert Repost.objects.filter(user=ai_user).count() == 1


def test_rulebook_refusals_are_recorded(ai_user, alice):
    post = make_post(alice)
    services.block_add(alice, ai_user.id)
    assert reposts_write(ai_user, [item(post, ai=ai_user)])[0]["result"] == "refused: blocked by the owner"
    assert not Repost.objects.exists()


def test_run_it_twice_same_rows(ai_user, alice):
    post = make_post(alice)
    first = reposts_write(ai_user, [item(post, ai=ai_user)])
    second = reposts_write(ai_user, [item(post, ai=ai_user)])
    assert first[0]["result"] == "reposted" and second[0]["result"] == "already reposted"
    assert Repost.objects.filter(user=ai_user).count() == 1


def test_the_run_detail_lists_reposts_with_their_reason(ai_user, alice, admin):
    from django.test import Client

    from agents.cycle.run import cycle_begin

    post = make_post(alice, "Rye and patience")
    run = cycle_begin(ai_user.id)
    run.details["reposts"] = reposts_write(ai_user, [item(post, ai=ai_user)])
    run.save(update_fields=["details"])
    client = Client()
    client.force_login(admin)
    body = client.get(f"/agents/runs/{run.pk}").content.decode()
    line = body[body.index("<li>repost ") :]
    line = line[: line.index("</li>")]
    assert f'title="{post.hex_id}"' in line and "rank 1, similarity 0.9, model said shouldLike: reposted" in line


def test_a_person_who_stopped_the_ai_user_is_not_reposted_by_it(ai_user, alice):
    post = make_post(alice, "Please, no AI attention")
    boundaries.ai_stop_add(alice, ai_user.id)
    record = reposts_write(ai_user, [item(post, ai=ai_user)])[0]
    assert record["result"] == "refused: boundaries: the user asked this AI user to stop"
    assert not Repost.objects.exists()


def test_the_hourly_count_read_with_the_posts_is_the_one_read_alone(settings, ai_user, alice):
    """likes_and_replies reads the hourly count as a subquery of its posts' read
    (agents/cycle/actions.py `_stage_posts`); reposts_write takes it from there, with no query."""
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from agents.cycle.actions import _stage_posts
    from agents.rate_limits import hour_before, hourly_reposts

    settings.STGY_AI_USER_HOURLY_REPOSTS_LIMIT = 2
    old, recent, target = make_post(alice, "old"), make_post(alice, "recent"), make_post(alice, "target")
    services.repost_add(ai_user, old.id)
    Repost.objects.filter(post=old).update(created_at=timezone.now() - timedelta(hours=2))
    read = lambda: _stage_posts(ai_user, timezone.now(), hour_before(), [target.pk])[0]
    assert read().my_reposts_last_hour == hourly_reposts(ai_user.id) == 0
    services.repost_add(ai_user, recent.id)
    assert read().my_reposts_last_hour == hourly_reposts(ai_user.id) == 1
    services.repost_add(alice, target.id)  # someone else's repost does not count
    post = read()
    assert post.my_reposts_last_hour == 1
    post.my_reposts_last_hour = 2  # as if two were made meanwhile: the cap is taken from the read
    with CaptureQueriesContext(connection) as queries:
        records = reposts_write(ai_user, [item(post)])
    assert records[0]["result"] == "capped: 2 reposts in the last hour (limit 2)"
    assert not queries.captured_queries
