"""The respond path through a real Redis broker and a real Celery worker: a person
replies to an AI user's post through the API, and the answer is committed within
seconds, written by the worker against the local OpenAI-compatible server."""

from __future__ import annotations

import time

import pytest

from agents.models import AttentionEvent, CycleRun, LlmUsage
from sns.models import Post
from tests.conftest import login_client, requires_postgres, requires_redis
from tests.factories import make_ai_user, make_user
from tests.integration.worker import RESPOND_QUEUE, celery_worker, sending_to, wait_for
from tests.respond.helpers import PERSONA, answer_json, post_quietly

pytestmark = [
    requires_postgres,
    requires_redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

ANSWER_WITHIN_SECONDS = 10


def test_a_reply_through_the_api_is_answered_by_the_worker_within_seconds(tmp_path, llm_server):
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    root = post_quietly(ai, "My rye sourdough starter finally doubled overnight.")
    # The worker also summarises the reply; whichever call comes first, every answer is
    # one the respond parser accepts (the summary parser refuses it, which is harmless).
    for _ in range(4):
        llm_server.push_chat(answer_json(), prompt_tokens=700, completion_tokens=20)
    env = {
        "STGY_AI_PROVIDER": "openai",
        "OPENAI_BASE_URL": llm_server.url + "/v1",
        "OPENAI_API_KEY": "test",
        "STGY_AI_MAX_RETRIES": "0",
        "STGY_AI_RPC_TIMEOUT_MS": "10000",
    }
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
