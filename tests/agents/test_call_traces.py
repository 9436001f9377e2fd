"""What each model call was shown (docs/prompts.md §5): the trace of every call with
its layers as the prompt builder reported them, the unaccounted check, the run page,
an admin's replay, and the retention."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from agents.llm import gateway
from agents.llm.trace import layers_read, trace_content, trace_layers
from agents.models import (
    CycleRun,
    Interest,
    LlmCallTrace,
    LlmUsage,
    PeerImpression,
    PostImpression,
    Relationship,
)
from agents.prompt_layers import PromptBuilder, input_parts
from agents.prompts import (
    AGENT_TASKS,
    agent_prompt,
    common_instructions,
    drop_locale,
    prompt_json,
    summary_prompt,
)
from agents.tasks import prune_call_traces
from sns.models import Post

PROFILE = {"locale": "en", "nickname": "Aiko", "aiPersonality": "A chef.", "currentInterest": "miso"}
CHAIN = [{"author": "Bob", "content": "Koji {{LOCALE}} first", "isSelf": True}]
PAYLOADS = [
    {"replyChain": CHAIN, "post": {"author": "Ann", "content": "日本語の{{MAX{{X}}_CHARS}}投稿", "peerTags": []},
     "existingReplies": [], "relationship": "friend"},
    {"posts": [{"n": 1, "replyChain": CHAIN, "post": {"content": "a"}}, {"n": 2, "post": {"content": "b"}}]},
    {"users": [{"n": 1, "nickname": "Bob", "posts": [{"summary": "s", "impression": ""}]}]},
    {"posts": []},
    {},
]

from tests.conftest import login_client

from .conftest import logged_in


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_input_parts_are_the_input_s_bytes(payload):
    parts = input_parts(payload)
    assert "".join(text for _, text in parts) == prompt_json(payload)
    assert "{{" not in prompt_json(payload)


def test_a_batched_input_is_cut_at_the_members_of_its_items():
    names = [name for name, _ in input_parts(PAYLOADS[1])]
    assert set(names) == {"posts", "posts.n", "posts.replyChain", "posts.post"}


@pytest.mark.parametrize("task", AGENT_TASKS)
def test_every_byte_of_every_task_s_prompt_is_in_a_layer(task):
    payload = PAYLOADS[0]
    prompt = agent_prompt(
        task, locale="ja", profile=PROFILE, payload=payload, max_chars=500, tag_chars=20, tag_num=5
    )
    # The bytes the renderer always sent: the common part and the profile's JSON, then
    # the task's input as prompt_json writes it.
    assert prompt.messages[0]["content"] == common_instructions("en") + prompt_json(PROFILE)
    assert prompt_json(drop_locale(payload, "ja")) in prompt.messages[1]["content"]
    layers, size, unaccounted = trace_layers(prompt.messages, prompt.spans)
    assert unaccounted == 0 and size == sum(len(m["content"].encode()) for m in prompt.messages)
    kinds = [layer["kind"] for layer in layers]
    assert kinds[:3] == ["common", "profile", "task"]
    assert {layer["name"] for layer in layers if layer["kind"] == "input"} >= {"replyChain", "post", "relationship"}
    assert all(layer["tokens"] > 0 for layer in layers_read(layers, prompt.messages))


def test_the_summary_prompt_is_layered_too():
    prompt = summary_prompt(locale="en", payload={"author": "Ann", "content": "Miso"}, max_chars=100,
                            tag_chars=40, tag_num=5)
    layers, _, unaccounted = trace_layers(prompt.messages, prompt.spans)
    assert unaccounted == 0
    assert [(layer["kind"], layer["name"]) for layer in layers] == [("task", "post-summary"), ("input", "post")]


@pytest.mark.django_db
def test_a_cycle_traces_every_call_with_nothing_unaccounted(finished_run):
    usage = LlmUsage.objects.filter(run=finished_run)
    traces = list(LlmCallTrace.objects.filter(run=finished_run).order_by("id"))
    assert len(traces) == usage.count() >= 4
    assert [t.stage for t in traces] == list(usage.order_by("id").values_list("stage", flat=True))
    for trace in traces:
        assert trace.unaccounted_bytes == 0, (trace.task, trace.layers)
        content = trace_content(trace)
        assert trace.prompt_bytes == sum(len(m["content"].encode()) for m in content["messages"])
        assert sum(layer["bytes"] for layer in trace.layers) == trace.prompt_bytes
        assert content["answer"].startswith("{")
    batched = next(t for t in traces if t.task == "post-impressions")
    assert {"posts.post", "posts.n"} <= {layer["name"] for layer in batched.layers}
    # The summaries of the two posts were traced as well, without a run.
    summaries = LlmCallTrace.objects.filter(stage="summary", run=None)
    assert summaries.count() >= 2
    assert all(t.unaccounted_bytes == 0 for t in summaries)


@pytest.mark.django_db
def test_text_that_escaped_the_builder_is_caught_and_flagged(finished_run, admin, settings):
    settings.STGY_AI_PROVIDER = "offline"
    prompt = agent_prompt("reply-post", locale="en", profile=PROFILE, payload=PAYLOADS[0], max_chars=300,
                          tag_chars=40, tag_num=3)
    # A test-only injection point: a note put into the user message by plain string
    # concatenation, as a template change that bypassed the builder would.
    smuggled = "\nAlso consider: the poster's private notes."
    messages = [dict(m) for m in prompt.messages]
    messages[1]["content"] = messages[1]["content"].replace("\n", smuggled + "\n", 1)
    gateway.chat(messages=messages, spans=prompt.spans, tier="basic", task="reply-post", json_mode=True,
                 run_id=finished_run.pk, stage="new_post")
    trace = LlmCallTrace.objects.filter(run=finished_run).latest("id")
    assert trace.unaccounted_bytes == len(smuggled.encode())
    page = logged_in(admin).get(f"/agents/runs/{finished_run.pk}").content.decode()
    assert 'data-testid="unaccounted-flag"' in page
    assert f"unaccounted {len(smuggled.encode())} bytes" in page


@pytest.mark.django_db
def test_a_call_without_layers_is_all_unaccounted(ai_user, settings):
    settings.STGY_AI_PROVIDER = "offline"
    gateway.chat(messages=[{"role": "user", "content": "Say hi"}], tier="basic", task="chat", user_id=ai_user.id)
    trace = LlmCallTrace.objects.latest("id")
    assert trace.unaccounted_bytes == trace.prompt_bytes == len(b"Say hi")


@pytest.mark.django_db
def test_the_run_page_shows_each_call_s_layers_and_answer(finished_run, admin):
    page = logged_in(admin).get(f"/agents/runs/{finished_run.pk}").content.decode()
    traces = LlmCallTrace.objects.filter(run=finished_run)
    assert page.count('data-testid="call-trace"') == traces.count()
    assert 'data-testid="unaccounted-flag"' not in page and "every byte in a layer" in page
    trace = traces.get(task="interest")
    profile = next(
        layer for layer in layers_read(trace.layers, trace_content(trace)["messages"]) if layer["kind"] == "profile"
    )
    assert f"<td>profile</td><td>profile</td><td>{profile['bytes']}</td><td>{profile['tokens']}</td>" in page
    assert "Replay with the current model" in page


def _memory_counts() -> dict[str, int]:
    return {
        "posts": Post.objects.count(),
        "interests": Interest.objects.count(),
        "peer impressions": PeerImpression.objects.count(),
        "post impressions": PostImpression.objects.count(),
        "relationships": Relationship.objects.count(),
        "runs": CycleRun.objects.count(),
        "traces": LlmCallTrace.objects.count(),
    }


@pytest.mark.django_db
def test_a_replay_sends_the_same_messages_and_writes_only_its_answer(finished_run, admin, llm_server):
    trace = LlmCallTrace.objects.filter(run=finished_run, task="interest").get()
    sent = trace_content(trace)["messages"]
    before = _memory_counts()
    run_fields = CycleRun.objects.filter(pk=finished_run.pk).values().get()
    usage_before = LlmUsage.objects.count()
    llm_server.push_chat('{"interest":"A new answer","tags":["miso"]}')
    response = logged_in(admin).post(f"/agents/calls/{trace.pk}/replay")
    assert response.status_code == 302 and response["Location"].endswith(f"/agents/runs/{finished_run.pk}#call-{trace.pk}")
    (request,) = llm_server.chat_requests()
    assert request.body["messages"] == sent
    trace.refresh_from_db()
    assert trace.replay_status == "done" and trace.replay_answer == '{"interest":"A new answer","tags":["miso"]}'
    # The model the call's tier names now (the interest is a judging task: the cascade's tier).
    assert trace.tier == "basic" and trace.replay_model == django_settings.STGY_AI_MODEL_BASIC
    assert _memory_counts() == before
    assert CycleRun.objects.filter(pk=finished_run.pk).values().get() == run_fields
    assert LlmUsage.objects.count() == usage_before + 1
    assert LlmUsage.objects.latest("id").stage == "replay"
    polled = logged_in(admin).get(f"/agents/calls/{trace.pk}").json()
    assert polled["replay"]["status"] == "done" and polled["answer"] == trace_content(trace)["answer"]
    assert polled["unaccountedBytes"] == 0 and all(layer["tokens"] > 0 for layer in polled["layers"])
    page = logged_in(admin).get(f"/agents/runs/{finished_run.pk}").content.decode()
    assert "A new answer" in page


@pytest.mark.django_db
def test_a_failed_replay_is_shown_and_changes_nothing(finished_run, admin, llm_server, settings):
    settings.STGY_AI_MAX_RETRIES = 0
    trace = LlmCallTrace.objects.filter(run=finished_run).first()
    llm_server.push_chat(status=400, body={"error": {"message": "bad model", "type": "invalid_request_error"}})
    logged_in(admin).post(f"/agents/calls/{trace.pk}/replay")
    trace.refresh_from_db()
    assert trace.replay_status == "failed" and trace.replay_error


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["human", "ai_user"])
def test_only_admins_see_or_replay_traces(request, who, finished_run):
    user = request.getfixturevalue(who)
    trace = LlmCallTrace.objects.filter(run=finished_run).first()
    got = logged_in(user).get(f"/agents/calls/{trace.pk}")
    assert got.status_code == 403 and got.json() == {"error": "admin only"}
    assert Client().get(f"/agents/calls/{trace.pk}").status_code == 401
    assert logged_in(user).post(f"/agents/calls/{trace.pk}/replay").status_code == 403
    trace.refresh_from_db()
    assert trace.replay_status == ""


@pytest.mark.django_db
def test_an_unknown_trace_is_404(admin):
    got = logged_in(admin).get("/agents/calls/999999")
    assert got.status_code == 404 and "error" in got.json()
    assert logged_in(admin).post("/agents/calls/999999/replay").status_code == 404


@pytest.mark.django_db
def test_the_beat_task_prunes_traces_past_the_retention(finished_run, settings):
    settings.STGY_AI_TRACE_RETENTION_DAYS = 7
    old = LlmCallTrace.objects.filter(run=finished_run).first()
    LlmCallTrace.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=8))
    kept = LlmCallTrace.objects.count() - 1
    assert prune_call_traces.apply().get() == 1
    assert LlmCallTrace.objects.count() == kept and not LlmCallTrace.objects.filter(pk=old.pk).exists()
    entries = [e for e in django_settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "agents.prune_call_traces"]
    assert entries


@pytest.mark.django_db
def test_no_traces_are_written_with_a_retention_of_zero(ai_user, settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_AI_TRACE_RETENTION_DAYS = 0
    gateway.chat(messages=[{"role": "user", "content": "Say hi"}], tier="basic", user_id=ai_user.id)
    assert not LlmCallTrace.objects.exists() and LlmUsage.objects.count() == 1


@pytest.mark.django_db
def test_the_chat_proxy_is_not_traced(ai_user, settings):
    settings.STGY_AI_PROVIDER = "offline"
    got = login_client(ai_user).post(
        "/api/ai-users/chat", {"messages": [{"role": "user", "content": "hi"}]}, format="json"
    )
    assert got.status_code == 200
    assert LlmUsage.objects.filter(stage="api").count() == 1 and not LlmCallTrace.objects.exists()


def test_a_builder_piece_needs_a_layer_kind():
    with pytest.raises(ValueError):
        PromptBuilder().message("user").add("nowhere", "x", "text")
