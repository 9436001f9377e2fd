"""A model endpoint that hangs — it answers a byte now and then — against real Celery
workers laid out as compose.yaml lays them out: the cycles' pool is held by a hanging
call no longer than STGY_AI_CALL_DEADLINE_MS, the call ends in a recorded failure, and an
answer to a person, on its own pool, is written while the cycles' pool is still held."""

from __future__ import annotations

import contextlib
import json
import time

from agents.models import LlmUsage
from agents.tasks import summarize_post
from sns.models import Post
from tests.conftest import login_client
from tests.factories import make_ai_user, make_user
from tests.integration.worker import (
    WORKER_TEST_MARKS,
    celery_worker,
    model_server_env,
    sending_to,
    wait_for,
)
from tests.respond.helpers import PERSONA, answer_json, post_quietly

pytestmark = WORKER_TEST_MARKS

DRIBBLE = 0.05  # seconds between bytes: an "ok" answer takes ~17 s to arrive


def _answers_a_person(body) -> bool:
    return "replyChain" in json.dumps(body)  # the respond prompt's thread (docs/respond-path.md)


def hanging_model_run(
    tmp_path, llm_server, *, deadline_ms: int, split_pools: bool, hanging: int
) -> dict:
    """`hanging` summary calls (the cycles' kind of work, on the default queue) hang on
    the model; then a person replies to the AI user. Figures: how long a hanging call held
    its worker process, how long the answer took, and how many of the hanging calls had
    ended when it came."""
    ai, person = make_ai_user("Aiko", personality=PERSONA), make_user("Mina")
    # Written before the model hangs; in this test their summaries are made at once, here.
    posts = [
        post_quietly(ai, f"Sourdough note {i}: the rye starter doubled overnight.")
        for i in range(hanging)
    ]
    before = LlmUsage.objects.order_by("-id").values_list("id", flat=True).first() or 0
    llm_server.hang_chat_unless(_answers_a_person, content=answer_json(), dribble=DRIBBLE)
    env = model_server_env(
        llm_server,
        STGY_AI_CALL_DEADLINE_MS=str(deadline_ms),
        STGY_AI_BREAKER_FAILURES="0",  # every hanging call reaches the model
    )
    one_process = ("--pool=prefork", "--concurrency=1")
    summaries = LlmUsage.objects.filter(task="post-summary", id__gt=before)
    with contextlib.ExitStack() as stack:
        if split_pools:  # compose.yaml: `worker` -Q stgy-stages,celery; `respond` -Q stgy-respond
            stack.enter_context(
                celery_worker(tmp_path / "cycles.log", *one_process, queues="stages,default", **env)
            )
            stack.enter_context(
                celery_worker(tmp_path / "respond.log", *one_process, queues="respond", **env)
            )
        else:  # one worker for every queue, the respond queue polled first
            stack.enter_context(celery_worker(tmp_path / "worker.log", *one_process, **env))
        stack.enter_context(sending_to())
        for post in posts:
            summarize_post.delay(post.id)
        wait_for(lambda: llm_server.dribbling, 30, "a summary call to reach the hanging model")
        started = time.monotonic()
        response = login_client(person).post(
            "/api/posts",
            {"content": "How warm do you keep it?", "tags": [], "replyTo": posts[0].hex_id},
            format="json",
        )
        assert response.status_code == 201, response.content
        reply = Post.objects.get(owner=person)
        wait_for(
            lambda: Post.objects.filter(owner=ai, reply_to=reply.id).exists(), 300, "the answer"
        )
        answered_after = time.monotonic() - started
        ended_before_the_answer = summaries.count()
        usage = wait_for(lambda: summaries.order_by("id").first(), 300, "a hanging call to end")
    figures = {
        "worker process held by one call (s)": round(usage.latency_ms / 1000, 1),
        "hanging call's outcome": usage.outcome,
        "its error": usage.error,
        "answer to the person after (s)": round(answered_after, 1),
        "hanging calls ended before the answer": f"{ended_before_the_answer} of {hanging}",
    }
    print(f"\nhanging model, deadline {deadline_ms} ms, split pools {split_pools}: {figures}")
    return figures


def test_a_hanging_model_holds_a_worker_only_to_the_deadline_and_answers_go_past_it(
    tmp_path, llm_server
):
    figures = hanging_model_run(tmp_path, llm_server, deadline_ms=4000, split_pools=True, hanging=4)
    assert (
        figures["hanging call's outcome"] == "error"
        and "4000 ms time limit" in figures["its error"]
    )
    # The cycles' pool (one process) needs four deadlines for its queue; the answer, on
    # its own pool, did not wait for it.
    assert figures["hanging calls ended before the answer"] != "4 of 4"
