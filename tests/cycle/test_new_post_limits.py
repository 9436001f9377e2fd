"""The new-post stage's limits: root posts per AI user per hour
(STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT) and no title an AI user used lately; both are
recorded refusals, never a failed stage."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from sns import services
from sns.ids import min_id_at
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


def test_a_title_another_ai_user_used_lately_is_skipped(model_server, ai_user):
    other = make_ai_user("Bram")
    services.post_create(other, content="# Koji at Home\n\nMy own words on koji.", tags=[])
    give_interest(ai_user, base_vector())
    push_answers(model_server, content="# koji at home\n\nQuite different words, same title.")
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "skipped", run.stages["new_post"]
    assert run.details["newPost"]["refused"] == "duplicate_title"
    assert run.details["newPost"]["title"] == "koji at home"
    assert not Post.objects.filter(owner=ai_user).exists()


def test_a_new_title_is_written(model_server, ai_user):
    other = make_ai_user("Bram")
    services.post_create(other, content="# Koji at Home\n\nMy own words on koji.", tags=[])
    give_interest(ai_user, base_vector())
    push_answers(model_server, content="# Miso in winter\n\nA post of its own.")
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
    assert Post.objects.get(owner=ai_user).content.startswith("# Miso in winter")
