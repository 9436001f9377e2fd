"""The respond path through a real Redis broker and a real Celery worker: a person
replies to an AI user's post through the API, and the answer is committed within
seconds, written by the worker against the local OpenAI-compatible server."""

from __future__ import annotations

import time

from agents.models import AttentionEvent, CycleRun, LlmUsage
from sns.models import Post
from tests.conftest import login_client
from tests.factories import make_ai_user, make_user
from tests.integration.worker import (
    RESPOND_QUEUE,
    WORKER_TEST_MARKS,
    celery_worker,
    model_server_env,
    sending_to,
    wait_for,
)
from tests.respond.helpers import PERSONA, answer_json, post_quietly

pytestmark = WORKER_TEST_MARKS

ANSWER_WITHIN_SECONDS = 10


def test_a_reply_through_the_api_is_answered_by_the_worker_within_seconds(tmp_path, llm_server):
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    root = post_quietly(ai, "My rye sourdough starter finally doubled overnight.")
    # The worker also summarises the reply; whichever call comes first, every answer is
    # one the respond parser accepts (the summary parser refuses it, which is harmless).
    for _ in range(4):
        llm_server.push_chat(answer_json(), prompt_tokens=700, completion_tokens=20)
    env = model_server_env(
        llm_server,
        STGY_AI_MAX_RETRIES="0",
        STGY_AI_RPC_TIMEOUT_MS="10000",
    )
    log = tmp_path / "worker.log"
    with celery_worker(log, **env), sending_to():
        started = time.monotonic()
        response = login_client(person).post(
            "/api/posts",
            {"content": "How warm do you keep it? Mine sulks in winter.", "tags": [], "replyTo": root.hex_id},
            format="json",
        )
        assert response.status_code == 201, response.content
        reply = Post.objects.get(owner=person)
        answer = wait_for(
            lambda: Post.objects.filter(owner=ai, reply_to=reply.id).first(),
            30,
            lambda: "the answer\n" + log.read_text()[-3000:],
        )
        elapsed = time.monotonic() - started

    print(f"\nanswer committed {elapsed:.2f} s after the reply was posted")
    assert elapsed < ANSWER_WITHIN_SECONDS
    assert answer.content == "About 24°C, Mina; rye sulks below that."
    event = AttentionEvent.objects.get(post=reply)
    assert event.status == "answered" and event.outcome == answer.hex_id
    run = CycleRun.objects.get(pk=event.run_id)
    assert run.kind == "respond" and run.status == "done"
    usage = LlmUsage.objects.get(run=run)
    assert (usage.provider, usage.task, usage.prompt_tokens) == ("openai", "respond", 700)
    text = log.read_text()
    assert "agents.respond" in text
    assert f"{RESPOND_QUEUE} " in text.split("[tasks]")[0]  # among the queues it consumes


def test_a_worker_killed_mid_answer_leaves_one_answer_after_redelivery(tmp_path, llm_server):
    """The model takes 3 s. The worker is SIGKILLed while the respond run waits for it,
    after the event was claimed; a fresh worker gets the unacknowledged task again once
    the visibility timeout has passed, takes the dead run's event over and answers once."""
    import signal

    from tests.integration.worker import stop

    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    root = post_quietly(ai, "My rye sourdough starter finally doubled overnight.")
    for _ in range(8):
        llm_server.push_chat(answer_json(), delay=3.0, prompt_tokens=700, completion_tokens=20)
    visibility = 5
    env = model_server_env(
        llm_server,
        STGY_AI_MAX_RETRIES="0",
        STGY_AI_RPC_TIMEOUT_MS="30000",
        # The dead run's lease must have lapsed when the task comes back.
        STGY_RESPOND_LEASE_SECONDS="3",
        CELERY_VISIBILITY_TIMEOUT=str(visibility),
    )
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    with celery_worker(first_log, **env) as first:
        with sending_to():
            response = login_client(person).post(
                "/api/posts",
                {"content": "How warm do you keep it?", "tags": [], "replyTo": root.hex_id},
                format="json",
            )
        assert response.status_code == 201, response.content
        event = AttentionEvent.objects.get(user=ai)

        def claimed_and_asked():
            event.refresh_from_db()
            asked = any("answer the person" in str(r.body) for r in llm_server.chat_requests())
            return event.status == "claimed" and asked

        wait_for(claimed_and_asked, 30, lambda: "the claim\n" + first_log.read_text()[-3000:])
        stop(first, signal.SIGKILL)

    assert not Post.objects.filter(owner=ai).exclude(pk=root.pk).exists()  # killed before it
    time.sleep(visibility + 1)  # the new worker restores messages older than this at start
    with celery_worker(second_log, **env):
        answer = wait_for(
            lambda: Post.objects.filter(owner=ai, reply_to__isnull=False).first(),
            60,
            lambda: "the answer\n" + second_log.read_text()[-3000:],
        )
        time.sleep(2)  # room for a duplicate to appear, were there one
    answers = Post.objects.filter(owner=ai, reply_to__isnull=False)
    assert answers.count() == 1 and answer.idempotency_key == f"respond:{event.pk}"
    event.refresh_from_db()
    assert event.status == "answered" and event.outcome == answer.hex_id
    assert "agents.respond" in second_log.read_text()
