"""The new-post stage's limits: root posts per AI user per hour
(STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT), the AI share of the site's root posts and no
near-duplicate of what AI users wrote lately; all are recorded refusals, never a
failed stage."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from sns import services
from sns.core.ids import min_id_at
from sns.models import Post
from tests.factories import make_ai_user

from .helpers import base_vector, give_interest, push_answers


@pytest.fixture(autouse=True)
def _no_day_rule(settings):
    settings.STGY_AI_USER_SKIP_NEW_POST_DAYS = 0  # only the hourly limit decides
    settings.STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT = 4


def _roots(ai, n, admin=None, *, age=timedelta(0)):
    for i in range(n):
        if age:
            services.post_create(
                admin,
                content=f"an older root post {i}",
                tags=[],
                owned_by=ai.id,
                post_id=min_id_at(timezone.now() - age) + i + 1,
            )
        else:
            services.post_create(ai, content=f"root post number {i} of the hour", tags=[])


def test_the_fourth_root_post_of_the_hour_is_written(ai_user):
    give_interest(ai_user, base_vector())
    _roots(ai_user, 3)
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    assert Post.objects.filter(owner=ai_user, reply_to__isnull=True).count() == 4


def test_the_fifth_root_post_of_the_hour_is_a_recorded_refusal(ai_user):
    give_interest(ai_user, base_vector())
    _roots(ai_user, 4)
    run = run_cycle_sync(ai_user.id)
    stage = run.stages["new_post"]
    assert stage["outcome"] == "skipped" and "limit 4" in stage["skipped"]
    assert run.details["newPost"] == {"refused": "hourly_root_posts", "why": "4 root posts in the last hour (limit 4)"}
    assert run.status == "done" and run.stages["follow_management"]["outcome"] != "failed"
    assert Post.objects.filter(owner=ai_user, reply_to__isnull=True).count() == 4


def test_root_posts_older_than_an_hour_do_not_count(ai_user, admin):
    give_interest(ai_user, base_vector())
    _roots(ai_user, 4, admin, age=timedelta(minutes=61))
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]


def test_zero_disables_the_hourly_limit(ai_user, settings):
    settings.STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT = 0
    give_interest(ai_user, base_vector())
    _roots(ai_user, 5)
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]


def test_a_post_repeating_what_an_ai_user_said_lately_is_refused(model_server, ai_user):
    other = make_ai_user("Bram")
    services.post_create(other, content="# Koji at Home\n\nMy own words on koji.", tags=[])
    give_interest(ai_user, base_vector())
    # The same title and one sentence of two new: half its sentences said lately.
    push_answers(model_server, content="# koji at home\n\nQuite different words, same title.")
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "skipped", run.stages["new_post"]
    assert run.details["newPost"]["refused"] == "near_duplicate"
    assert run.details["newPost"]["why"] == "1 of its 2 sentences were written lately by AI users (limit 50%)"
    assert not Post.objects.filter(owner=ai_user).exists()


def test_a_new_post_of_its_own_is_written(model_server, ai_user):
    other = make_ai_user("Bram")
    services.post_create(other, content="# Koji at Home\n\nMy own words on koji.", tags=[])
    give_interest(ai_user, base_vector())
    push_answers(model_server, content="# Miso in winter\n\nA post of its own, with words of its own.")
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    assert Post.objects.get(owner=ai_user).content.startswith("# Miso in winter")


# AI pace follows the people (STGY_AI_ROOT_POSTS_SHARE over the window, past a floor).


def _people_roots(n, *, age=timedelta(0)):
    from tests.factories import make_user

    person = make_user("Mina")
    base = min_id_at(timezone.now() - age)
    for i in range(n):
        Post.objects.create(id=base + i, owner=person, content=f"a person's root post {i}")


@pytest.fixture
def share(settings):
    settings.STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT = 0
    settings.STGY_AI_ROOT_POSTS_SHARE = 0.5
    settings.STGY_AI_ROOT_POSTS_SHARE_FLOOR = 2
    settings.STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS = 24


@pytest.mark.parametrize(("people", "written"), [(4, True), (3, False), (0, False)])
def test_ai_root_posts_stay_within_their_share_of_the_site(share, ai_user, people, written):
    """3 AI root posts (past the floor of 2) beside `people` people's: a fourth keeps
    the AI share at or under half only when people wrote at least four."""
    give_interest(ai_user, base_vector())
    _roots(make_ai_user("Bram"), 3)
    _people_roots(people)
    run = run_cycle_sync(ai_user.id)
    if written:
        assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    else:
        assert run.details["newPost"]["refused"] == "root_share"
        assert run.details["newPost"]["why"] == (
            f"3 of the {3 + people} root posts of the last 24 hours are AI users' (share limit 50%, floor 2)"
        )
        assert run.stages["new_post"]["outcome"] == "skipped"
        assert not Post.objects.filter(owner=ai_user).exists()


def test_a_quiet_site_still_wakes_up_below_the_floor(share, ai_user):
    give_interest(ai_user, base_vector())
    _roots(make_ai_user("Bram"), 1)  # no person wrote: the floor lets a second one through
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]


def test_the_share_counts_only_the_window_and_only_root_posts(share, ai_user, admin):
    give_interest(ai_user, base_vector())
    bram = make_ai_user("Bram")
    _roots(bram, 3, admin, age=timedelta(hours=25))  # outside the window
    _roots(bram, 1)
    parent = Post.objects.filter(owner=bram).first()
    for i in range(3):  # replies are not held back and do not count
        services.post_create(bram, content=f"a reply of Bram's {i}", tags=[], reply_to=parent.id)
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]


def test_a_share_of_one_lifts_the_rule(share, settings, ai_user):
    settings.STGY_AI_ROOT_POSTS_SHARE = 1
    give_interest(ai_user, base_vector())
    _roots(make_ai_user("Bram"), 5)
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
