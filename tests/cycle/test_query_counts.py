"""The cost of a cycle in SQL queries does not grow with the site (docs/architecture.md, convention 20): the same
number with 20 posts as with 200, and within a fixed bound."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from agents.cycle import STAGES
from agents.cycle.run import cycle_begin, cycle_end, stage_execute
from agents.models import LlmUsage
from agents.runs.knowledge import admin_sources
from sns import services
from sns.models import User
from tests.factories import make_ai_user, make_post, make_user

from .helpers import (
    base_vector,
    give_interest,
    push_answers,
    row_counts,
    summarise,
    vector_with_cosine,
)

pytestmark = pytest.mark.django_db

# Counted as CaptureQueriesContext counts them (BEGIN, COMMIT and savepoints included),
# for this site: 10 posts read, 5 peers judged, 2 likes, 1 repost, 2 replies, a new post.
# Every stage reads its run record (one query) and saves it with the lease's renewal
# (one statement on PostgreSQL, a data-modifying CTE; two on SQLite): the stage tasks
# carry ids only, so each stage saves its own record; and on PostgreSQL every stage's
# LLM usage rows go in with its record's save (agents/runs/usage_held.py), not in an
# INSERT of their own. PostgreSQL shares
# other round trips SQLite cannot too (UNION ALL of limited parts, both tag tables in one
# statement, followees' posts straight from the followee subquery, the newest
# followers with their newest posts in one LATERAL join). Each reply's check of its
# target also locks it, then the AI user's earlier replies to it are read (one query
# more), so a cycle never answers where the respond path already has; the reply's row,
# its tags, the author's and the parent's counters and its summary row are one
# statement on PostgreSQL (sns/services/post_insert.py), five on SQLite, and the reply and new-post prompts'
# tags ride on their posts' reads (agents/runs/inputs.py `tags_json`); before the replies are
# generated, the back-off rule reads the newest replies and messages between the AI
# user and every candidate's author (one UNION ALL on PostgreSQL whatever their number,
# two queries per candidate on SQLite; the authors' AI boundaries ride on the posts'
# query), and the hourly caps read what AI users wrote in the last hour (one query:
# posts and messages in a UNION ALL). The new post costs two
# more: its caps and the recent AI titles it must not repeat (whether this run already
# wrote it rides on its read of the AI user's own posts). Each writing stage takes
# the writing turn and gives it back with its record: on PostgreSQL the claim rides on
# the stage's read of the record (agents/cycle/run_read.py) and the release and "are
# events owed?" on the record's statement (agents/runs/record.py); on SQLite they are
# three more. The interest is saved in one statement, without a read after it, and the
# stage's record (with the lease's renewal) in the same transaction as its last write
# (agents/cycle/context.py `record_now`). On PostgreSQL cycle_end is one statement
# (agents/cycle/run_end.py). Follow
# management then looks for a friend to write to (one query when there is none);
# unfollows, had there been any, cost two statements for the lot. One repost of the
# best post costs four: the post with its checks, and the insert in a savepoint (its
# hourly cap rides on the stage's read of its posts). Notifications are written after
# the commit, which a test's transaction
# never reaches, so they are not counted here (bench/cycle_overhead counts them).
QUERY_BOUNDS = {
    # The writing stages read what AI users wrote lately once (the near-duplicate check,
    # agents/runs/near_duplicate.py) and record the embedder's usage row per text checked;
    # the new post counts the site's root posts of the window (the AI share).
    "postgresql": {
        "cycle": 83,
        "select_posts": 7,
        # One more each: who asked AI users not to remember them (agents/memory.py, and
        # the peer stage's own check before it judges anyone).
        "post_impressions": 7,
        "peer_impressions": 9,
        "likes_and_replies": 27,
        "interest_update": 8,
        "new_post": 13,
        "follow_management": 5,
    },
    # On SQLite a memory write and its versions are two statements in one transaction
    # (agents/memory_versions.py upsert_with_versions), and the near-duplicate read one
    # query per kind.
    "sqlite": {
        "cycle": 141,
        "select_posts": 13,
        "post_impressions": 11,
        "peer_impressions": 13,
        "likes_and_replies": 47,
        "interest_update": 14,
        "new_post": 24,
        "follow_management": 9,
    },
}


def build_site(total_posts: int):
    """Five authors posting in turn: A (followed by the AI user, opposite to its
    interest) and B–E (on its interest; B follows the AI user). Whatever the size,
    the cycle reads 2 posts of each author, judges 5 peers, likes and replies to 2."""
    ai = make_ai_user("Aiko")
    authors = [make_user(name) for name in "ABCDE"]
    services.follow_add(ai, authors[0].id)
    services.follow_add(authors[1], ai.id)
    with override_settings(STGY_AI_PROVIDER="none"):
        posts = [
            make_post(authors[i % 5], f"Post {i} about sourdough bread") for i in range(total_posts)
        ]
    for post in posts:
        summarise(post, vector_with_cosine(-100 if post.owner_id == authors[0].id else 100))
    give_interest(ai, base_vector())
    return ai


def measure(ai) -> dict:
    calls_before = LlmUsage.objects.count()
    # The knowledge sources marked in Django admin are read once and cached until one
    # changes (agents/runs/knowledge.py): warm, as on a running site.
    admin_sources()
    with CaptureQueriesContext(connection) as whole:
        run = cycle_begin(ai.id)
        per_stage = {}
        for stage in STAGES:  # as the Celery chain runs them (agents/cycle/tasks.py)
            with CaptureQueriesContext(connection) as one:
                stage_execute(run.pk, stage)
            per_stage[stage] = len(one.captured_queries)
        run = cycle_end(run.pk)
    assert run.status == "done"
    # cycle_end's totals (read with the run, as subqueries) are the usage rows' sums.
    rows = LlmUsage.objects.filter(run_id=run.pk)
    assert run.llm_calls == rows.count() > 0
    assert run.prompt_tokens == sum(rows.values_list("prompt_tokens", flat=True)) > 0
    assert run.completion_tokens == sum(rows.values_list("completion_tokens", flat=True))
    assert run.cost == sum(rows.values_list("cost", flat=True))
    assert all(record["outcome"] in ("ok", "skipped") for record in run.stages.values()), run.stages
    return {
        "cycle": len(whole.captured_queries),
        "stages": per_stage,
        "reads": len(run.details["reads"]),
        "llm_calls": LlmUsage.objects.count() - calls_before,
        "rows": row_counts(ai),
    }


def test_a_cycle_costs_the_same_queries_with_20_or_200_posts(model_server, settings):
    settings.STGY_AI_USER_STAGE_CONCURRENCY = 1  # queries of one connection are counted
    settings.STGY_AI_USER_OUTREACH_PROBABILITY = 1.0  # every run looks for a friend to write to
    # No budget: a budget costs one query before each model call (agents/budget.py), the
    # same whatever the site's size; without this the local server's `openai` provider
    # gets the default site budget.
    settings.STGY_AI_SITE_DAILY_BUDGET = "0"
    push_answers(model_server, count=200)

    small = measure(build_site(20))
    User.objects.all().delete()
    large = measure(build_site(200))

    print(
        f"\ncycle queries: 20 posts → {small['cycle']}, 200 posts → {large['cycle']}; per stage {large['stages']}"
    )
    assert small["reads"] == large["reads"] == 10
    assert small["rows"] == large["rows"]
    assert (
        small["rows"]["likes"] == 2
        and small["rows"]["replies"] == 2
        and small["rows"]["peer_impressions"] == 5
    )
    assert small["llm_calls"] == large["llm_calls"]
    assert small["stages"] == large["stages"]
    bounds = QUERY_BOUNDS[connection.vendor]
    for stage in STAGES:
        assert large["stages"][stage] <= bounds[stage], (stage, large["stages"][stage])
    assert small["cycle"] == large["cycle"] <= bounds["cycle"]
