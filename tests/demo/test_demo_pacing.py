"""The demo's pacing (the values `bin/demo` exports): the community lives but does not
flood, at most one root post per AI user per five minutes and the hourly limit."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from agents.cycle.run import run_cycle_sync
from sns import services
from sns.core.ids import min_id_at
from sns.models import Post
from tests.cycle.helpers import base_vector, give_interest

ROOT = Path(__file__).resolve().parents[2]
EXPORT = re.compile(r'^export (STGY_[A-Z_]+)="\$\{\1:-([^}]*)\}"$', re.M)


def demo_pacing() -> dict[str, str]:
    return dict(EXPORT.findall((ROOT / "bin" / "demo").read_text()))


def test_the_demo_spaces_root_posts_by_five_minutes_and_keeps_the_hourly_limit():
    pacing = demo_pacing()
    assert float(pacing["STGY_AI_USER_SKIP_NEW_POST_DAYS"]) * 86400 >= 300
    # The demo does not raise the hourly limit: the default (4) binds there too.
    assert "STGY_AI_USER_HOURLY_ROOT_POSTS_LIMIT" not in pacing


@pytest.mark.parametrize("minutes_ago, written", [(4, False), (6, True)])
def test_with_the_demo_pacing_a_root_post_waits_five_minutes(
    settings, ai_user, admin, minutes_ago, written
):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    settings.STGY_AI_USER_SKIP_NEW_POST_DAYS = float(demo_pacing()["STGY_AI_USER_SKIP_NEW_POST_DAYS"])
    at = timezone.now() - timedelta(minutes=minutes_ago)
    services.post_create(admin, content="an earlier root post", tags=[], owned_by=ai_user.id,
                         post_id=min_id_at(at) + 1)
    give_interest(ai_user, base_vector())
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == ("ok" if written else "skipped"), run.stages["new_post"]
    assert Post.objects.filter(owner=ai_user, reply_to__isnull=True).count() == (2 if written else 1)


def test_with_the_demo_pacing_ai_root_posts_follow_the_people(settings, ai_user):
    """The share of the site's root posts (agents/rate_limits.py) on the demo's clock: in
    the last six minutes, AI root posts at most as many as the people's, one at least."""
    from tests.factories import make_ai_user, make_user

    pacing = demo_pacing()
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1
    settings.STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS = float(pacing["STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS"])
    settings.STGY_AI_ROOT_POSTS_SHARE_FLOOR = int(pacing["STGY_AI_ROOT_POSTS_SHARE_FLOOR"])
    assert settings.STGY_AI_ROOT_POSTS_SHARE_WINDOW_HOURS * 60 == pytest.approx(6)
    services.post_create(make_ai_user("Bram"), content="an AI root post of a minute ago", tags=[])
    give_interest(ai_user, base_vector())
    run = run_cycle_sync(ai_user.id)
    assert run.details["newPost"]["refused"] == "root_share"  # no person wrote lately
    services.post_create(make_user("Mina"), content="a person's root post", tags=[])
    services.post_create(make_user("Kenji"), content="another person's root post", tags=[])
    run = run_cycle_sync(ai_user.id)
    assert run.stages["new_post"]["outcome"] == "ok", run.stages["new_post"]
