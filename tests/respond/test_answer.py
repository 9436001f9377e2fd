"""A person replies to an AI user's post and the respond path answers: with the offline
stand-in and with the local OpenAI-compatible server (the real openai client)."""

from __future__ import annotations

import json
import os

import pytest

from agents.models import AttentionEvent, CycleRun, LlmUsage, MemoryVersion, PostImpression
from agents.prompts import render_agent_prompt
from agents.respond.run import respond_run
from agents.runs import inputs
from sns.models import Post

from .helpers import answer_json, conversation

pytestmark = pytest.mark.django_db


def answers_to(post: Post, ai) -> list[Post]:
    return list(Post.objects.filter(owner=ai, reply_to=post.id))


def test_a_persons_reply_is_answered_with_the_stand_in():
    ai, person, _, reply, event = conversation()
    assert event.status == AttentionEvent.Status.PENDING and event.sender_id == person.id

    run = respond_run(ai.id)

    [answer] = answers_to(reply, ai)
    assert answer.idempotency_key == f"respond:{event.pk}"
    assert "Mina" in answer.content and "(offline stand-in)" in answer.content
    assert "starter" in answer.content or "warm" in answer.content  # their own words, picked up
    event.refresh_from_db()
    assert (event.status, event.run_id, event.outcome) == ("answered", run.pk, answer.hex_id)
    assert event.handled_at is not None
    impression = json.loads(PostImpression.objects.get(user=ai, post=reply).payload)
    assert impression["impression"] == answer.content and impression["shouldReply"] is False
    # Its memory writes are versions of the respond run: the impression, the new relationship.
    versions = MemoryVersion.objects.filter(user=ai).values_list("kind", "source", "run_id")
    assert set(versions) == {("post", "respond", run.pk), ("relationship", "respond", run.pk)}

    run.refresh_from_db()
    assert (run.kind, run.status) == (CycleRun.Kind.RESPOND, CycleRun.Status.DONE)
    assert run.stages["respond"]["outcome"] == "ok"
    [record] = run.details["events"]
    assert record["result"] == "answered" and record["replyId"] == answer.hex_id
    assert [g["verdict"] for g in record["gates"]] == ["pass"] * 14
    usage = LlmUsage.objects.get(run=run)
    assert (usage.task, usage.stage, usage.provider, usage.user_id) == ("respond", "respond", "offline", ai.id)
    assert record["llm"]["usageId"] == usage.pk and record["llm"]["promptTokens"] == usage.prompt_tokens > 0
    assert run.llm_calls == 1 and run.prompt_tokens == usage.prompt_tokens


def test_the_model_sees_the_thread_and_shares_the_cycles_prompt_prefix(llm_server):
    ai, _, _, reply, _ = conversation()
    llm_server.push_chat(answer_json(), prompt_tokens=900, completion_tokens=30, cached_tokens=800)

    run = respond_run(ai.id)

    [answer] = answers_to(reply, ai)
    assert answer.content == "About 24°C, Mina; rye sulks below that."
    assert answer.tag_names == ["cooking", "sourdough"]  # as the rulebook stores post tags
    [request] = llm_server.chat_requests()
    prompt = request.prompt
    assert request.body["response_format"] == {"type": "json_object"}
    # The thread as the cycle's reply input shows it: the AI user's own post marked isSelf,
    # then the person's message with its author.
    assert '"replyChain":[{"author":"Aiko","isSelf":true' in prompt
    assert '"message":{' in prompt and '"author":"Mina"' in prompt and "Mine sulks in winter" in prompt
    cycle_prompt = render_agent_prompt(
        "reply-post", locale="en-US", profile=inputs.profile_excerpt(ai, None),
        payload={"post": {"content": "x"}}, max_chars=500, tag_chars=40, tag_num=3,
    )
    shared = os.path.commonprefix([prompt, cycle_prompt])
    assert shared.startswith("You are a scriptwriter") and shared.endswith("}\n\n## Task: ")
    run.refresh_from_db()
    assert (run.prompt_tokens, run.completion_tokens, run.cached_tokens) == (900, 30, 800)
    assert run.details["events"][0]["llm"]["cachedTokens"] == 800


def test_a_malformed_answer_fails_the_event_and_writes_nothing(llm_server):
    ai, _, _, reply, event = conversation()
    llm_server.push_chat('{"content": "yes, surely", "tags": []}')  # no "answer"

    run = respond_run(ai.id)

    assert answers_to(reply, ai) == []
    assert not PostImpression.objects.filter(user=ai, post=reply).exists()
    event.refresh_from_db()
    assert event.status == "failed" and "'answer' is missing" in event.outcome
    record = run.details["events"][0]
    assert record["result"] == "failed" and record["llm"]["outcome"] == "ok"


@pytest.mark.parametrize("body", ['{"answer": "yes", "content": "Sure"}', '{"answer": true, "content": "  "}', "no json"])
def test_no_answer_is_ever_defaulted_to_yes(llm_server, body):
    ai, _, _, reply, event = conversation()
    llm_server.push_chat(body)
    respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == "failed" and answers_to(reply, ai) == []


def test_the_model_may_choose_silence(llm_server):
    ai, _, _, reply, event = conversation()
    llm_server.push_chat(answer_json(answer=False, content=""))
    respond_run(ai.id)
    event.refresh_from_db()
    assert (event.status, event.outcome) == ("refused", "model: chose not to answer")
    assert answers_to(reply, ai) == []


def test_a_japanese_reply_is_answered_in_japanese():
    ai, _, _, reply, _ = conversation(text="ライ麦のサワー種は冬にどう育てていますか？", person=None)
    Post.objects.filter(pk=reply.pk).update(locale="ja-JP")
    respond_run(ai.id)
    [answer] = answers_to(reply, ai)
    assert "Minaさん" in answer.content and "（オフライン代替）" in answer.content
    assert "サワー" in answer.content or "ライ麦" in answer.content


def test_an_answer_repeating_what_the_ai_user_wrote_lately_is_refused(llm_server):
    """Near-duplicates (agents/runs/near_duplicate.py): the model's answer says again
    what the AI user wrote in another thread; the event is refused, nothing written."""
    from sns import services

    ai, _, _, reply, event = conversation()
    said = "About 24 degrees, Mina; rye sulks below that. Keep it near the oven light."
    services.post_create(ai, content=said, tags=[])
    llm_server.push_chat(answer_json(content=said))
    run = respond_run(ai.id)
    event.refresh_from_db()
    assert event.status == "refused"
    assert event.outcome == "near_duplicate: 2 of its 2 sentences were written lately by AI users (limit 50%)"
    assert answers_to(reply, ai) == []
    [record] = run.details["events"]
    assert record["result"] == "refused" and record["llm"]["usageId"]
