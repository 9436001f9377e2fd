"""Plain SQL statements (sns/reads/sql_statements.py and their users): the INSERT writes what
bulk_create writes, the stage record's saves write their fields and the lease, and the
hourly writes and back-off reads agree with their ORM references below."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.models import BigIntegerField, Case, Count, F, Q, Value, When

from agents.models import AgentState, CycleRun, LlmUsage
from sns.models import Post
from sns.models.messages import Message
from sns.reads.sql_statements import fetch, ids_in, insert_rows_sql
from tests.factories import make_post

pytestmark = pytest.mark.django_db


def test_the_insert_writes_what_bulk_create_writes(ai_user):
    run = CycleRun.objects.create(user=ai_user, started_at=datetime(2026, 12, 4, tzinfo=UTC), details={})

    def usage(n):
        return LlmUsage(
            user=ai_user, run=run, stage="select_posts", provider="offline", model="m", prompt_tokens=n, completion_tokens=n + 1,
            cached_tokens=0, cost=0, outcome=next(iter(LlmUsage.Outcome)), created_at=datetime(2026, 12, 4, 10, n, tzinfo=UTC),
        )

    sql, params = insert_rows_sql(LlmUsage, [usage(1), usage(2)], ["id"])
    ids = [row[0] for row in fetch(sql, params)]
    LlmUsage.objects.bulk_create([usage(3)])
    rows = list(LlmUsage.objects.filter(run=run).order_by("id").values("prompt_tokens", "completion_tokens", "created_at"))
    assert len(ids) == 2 and [r["prompt_tokens"] for r in rows] == [1, 2, 3]
    assert rows[1] == {"prompt_tokens": 2, "completion_tokens": 3, "created_at": datetime(2026, 12, 4, 10, 2, tzinfo=UTC)}


def test_ids_in_finds_the_listed_ids(human):
    posts = [make_post(human, f"post {n}") for n in range(3)]
    where, params = ids_in('"id"', [posts[0].id, posts[2].id, 10**12])
    assert sorted(fetch(f'SELECT "id" FROM "sns_post" WHERE {where}', params)) == sorted(
        [(posts[0].id,), (posts[2].id,)]
    )


def test_the_record_save_runs_its_statement_twice(ai_user):
    from agents.cycle.run import cycle_begin
    from agents.runs.lease import respond_lease_claim
    from agents.runs.record import turn_give_with_record

    run = cycle_begin(ai_user.id)
    for n in range(2):
        assert respond_lease_claim(ai_user.id, run.pk)
        run.details = {"round": n}
        run.stages = {"select_posts": {"outcome": "ok", "n": n}}
        assert turn_give_with_record(run, ["stages", "details"])
        saved = CycleRun.objects.get(pk=run.pk)
        assert saved.details == {"round": n} and saved.stages["select_posts"]["n"] == n
    assert AgentState.objects.get(user_id=ai_user.id).respond_lease_run is None


def test_the_stage_record_save_writes_its_fields_and_renews_the_lease(ai_user):
    from agents.cycle.run import cycle_begin
    from agents.runs.record import run_save_with_lease

    run = cycle_begin(ai_user.id)
    before = AgentState.objects.get(user_id=ai_user.id).lease_until
    run.stages, run.details = {"select_posts": {"outcome": "ok"}}, {"tier": "balanced"}
    assert run_save_with_lease(run, ["stages", "details"])
    saved = CycleRun.objects.get(pk=run.pk)
    assert (saved.stages, saved.details) == (run.stages, run.details)
    assert AgentState.objects.get(user_id=ai_user.id).lease_until >= before
    assert run_save_with_lease(run, ["stages"], release=True)
    state = AgentState.objects.get(user_id=ai_user.id)
    assert (state.lease_until, state.lease_run) == (None, None)
    assert not run_save_with_lease(run, ["stages"])  # the lease is no longer the run's


def _hourly_writes_reference(since: int, ai_id: int):
    mine = Q(owner_id=ai_id)
    posts = (
        Post.objects.filter(id__gte=since, owner__ai_model__isnull=False)
        .annotate(part=Value(0), to=Value(None, output_field=BigIntegerField()))
        .values("part", "to")
        .annotate(
            n=Count("id"),
            replies=Count("id", filter=mine & Q(reply_to__isnull=False)),
            roots=Count("id", filter=mine & Q(reply_to__isnull=True)),
        )
        .values_list("part", "to", "n", "replies", "roots")
    )
    my_recipient = Case(
        When(sender_id=ai_id, conversation__user_low_id=ai_id, then=F("conversation__user_high_id")),
        When(sender_id=ai_id, then=F("conversation__user_low_id")),
        default=None,
    )
    messages = (
        Message.objects.filter(id__gte=since, sender__ai_model__isnull=False)
        .annotate(part=Value(1), to=my_recipient)
        .values("part", "to")
        .annotate(n=Count("id"), replies=Value(0), roots=Value(0))
        .values_list("part", "to", "n", "replies", "roots")
    )
    return sorted(posts.union(messages, all=True), key=repr)


def test_the_hourly_writes_read_is_that_of_the_reference(ai_user, human):
    from agents.rate_limits import _LOAD

    root = make_post(ai_user, "a root post")
    make_post(ai_user, "a reply", reply_to=root.id)
    make_post(human, "a person's post")
    for since, ai_id in [(0, ai_user.id), (0, human.id), (root.id + 1, ai_user.id), (7_000_000_000_000_000, 1)]:
        got = sorted(fetch(_LOAD, [ai_id, ai_id, since, ai_id, ai_id, ai_id, since]), key=repr)
        assert got == _hourly_writes_reference(since, ai_id)


@pytest.mark.skipif(
    not connection.features.supports_slicing_ordering_in_compound, reason="the batch read is PostgreSQL's"
)
def test_the_back_off_batch_agrees_with_the_single_reads(ai_user, human, follower):
    from agents.runs.contact import BACKOFF_WRITES, backoff_refusal, backoff_refusals

    root = make_post(human, "a root post")
    for n in range(BACKOFF_WRITES):
        make_post(ai_user, f"reply {n}", reply_to=root.id)
    mine = make_post(ai_user, "mine")
    make_post(follower, "an answer", reply_to=mine.id)
    people = [human.id, follower.id, ai_user.id]
    batch = backoff_refusals(ai_user.id, people)
    assert batch == {p: backoff_refusal(ai_user.id, p) for p in people}
    assert batch[human.id] is not None and batch[follower.id] is None
