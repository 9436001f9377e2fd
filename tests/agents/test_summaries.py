"""The post-summary task: what is asked, what is stored, and when nothing is stored."""

from __future__ import annotations

import json

import pytest

from agents.embeddings import model_name
from agents.keyword_hash import fnv1a32, unpack_hashes
from agents.llm import gateway
from agents.llm.errors import LlmTransientError
from agents.models import AiPostTag, PostSummary
from agents.summaries import service
from agents.summaries.service import summary_generate, summary_lengths
from agents.tasks import summarize_post
from agents.vectors import decode_features
from sns import services
from tests.conftest import login_client
from tests.factories import make_post, make_user

ASTRONOMY = (
    "Last night I pointed my small telescope at Jupiter and counted four moons. "
    "The Great Red Spot was faint, but the cloud bands were clear through the eyepiece. "
    "Next week I want to try photographing the planet with a phone adapter."
)
BREAD = (
    "My sourdough starter finally doubled in six hours. The bread came out with an open "
    "crumb and a dark crust after baking at 250 degrees in a cast iron pot."
)


@pytest.fixture
def offline(settings):
    settings.STGY_AI_PROVIDER = "offline"
    settings.STGY_EMBEDDING_PROVIDER = "hash"


@pytest.fixture
def chat_calls(monkeypatch):
    """Records every gateway.chat call the summariser makes and passes it through."""
    calls: list[dict] = []
    real = gateway.chat

    def recording(**kwargs):
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(service.gateway, "chat", recording)
    return calls


def pending_post(settings, owner, content: str, **fields):
    """A post written while AI was off, so nothing summarised it yet."""
    provider = settings.STGY_AI_PROVIDER
    settings.STGY_AI_PROVIDER = "none"
    post = make_post(owner, content, **fields)
    settings.STGY_AI_PROVIDER = provider
    return post


def _answer(monkeypatch, content: str):
    from agents.llm.types import ChatResponse

    monkeypatch.setattr(
        service.gateway, "chat", lambda **kw: ChatResponse(content=content, model="m")
    )


@pytest.mark.parametrize(
    ("length", "locale", "expected"),
    [
        (300, "en", (250, 40)),
        (300, "ja", (240, 20)),
        (300, "ja-JP", (240, 20)),
        (2000, "en", (1000, 40)),
        (1100, "en", (880, 40)),
        (10, "en", (250, 40)),
        (700, "zh-TW", (500, 20)),
    ],
)
def test_summary_lengths_follow_cjk_and_short_post_rules(length, locale, expected):
    assert summary_lengths("a" * length, locale) == expected


def test_summary_lengths_count_utf16_units():
    # An astral character is two UTF-16 units: 150 emoji measure 300.
    assert summary_lengths("😀" * 150, "en")[0] == 250


@pytest.mark.django_db
def test_post_created_through_api_gets_summary_tags_and_vector(
    offline, human, django_capture_on_commit_callbacks
):
    client = login_client(human)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/api/posts", {"content": ASTRONOMY, "tags": ["Stargazing"]}, format="json"
        )
    assert response.status_code == 201, response.content
    post_id = int(response.json()["id"], 16)
    row = PostSummary.objects.get(post_id=post_id)
    assert row.summary and "telescope" in row.summary.lower()
    assert len(bytes(row.features)) == 512
    assert decode_features(bytes(row.features)).any()
    assert row.embedding_model == model_name()
    assert row.summarized_at is not None and row.attempts == 0
    tags = list(AiPostTag.objects.filter(post_id=post_id).values_list("name", flat=True))
    assert tags and all(t == t.lower() for t in tags)
    assert not any(":" in t for t in tags)  # NDC codes are never stored
    hashes = unpack_hashes(bytes(row.hashes))
    assert fnv1a32("stargazing") in hashes  # author tags lead the keywords


@pytest.mark.django_db
def test_prompt_inputs_use_post_locale_short_rule_and_summary_tier(
    offline, human, chat_calls, settings
):
    post = make_post(human, "日本語の投稿です。" * 30, locale="ja-JP")  # summarised on commit
    (call,) = chat_calls
    assert call["tier"] == "basic" and call["task"] == "post-summary"
    assert call["locale"] == "ja-JP" and call["json_mode"] is True
    assert call["inputs"]["payload"] == {
        "locale": "ja-JP",
        "author": "Alice",
        "content": post.content,
    }
    assert call["inputs"]["max_chars"] == 220  # 270 UTF-16 units < 500 × 1.2 → ceil(216/10)·10
    assert call["inputs"]["tag_num"] == 5
    prompt = call["messages"][0]["content"]
    assert "日本語の投稿です" in prompt and "{{" not in prompt

    settings.STGY_AI_SUMMARY_MODEL = "my-summary-model"
    assert summary_generate(post.id, force=True) == "stored"
    assert chat_calls[-1]["model"] == "my-summary-model" and "tier" not in chat_calls[-1]


@pytest.mark.django_db
def test_locale_falls_back_to_owner_and_text_is_cut(offline, chat_calls, settings):
    owner = make_user("Kenji", locale="ja-JP")
    settings.STGY_AI_SUMMARY_POST_TEXT_LIMIT = 20
    make_post(owner, "x" * 100)
    inputs = chat_calls[0]["inputs"]
    assert chat_calls[0]["locale"] == "ja-JP"
    assert inputs["payload"]["content"] == "x" * 20 + "…"


@pytest.mark.django_db
def test_running_twice_gives_the_same_rows(offline, human, settings):
    post = pending_post(settings, human, BREAD, tags=["baking"])
    assert summary_generate(post.id) == "stored"
    first = PostSummary.objects.get(post=post)
    tags = sorted(AiPostTag.objects.filter(post=post).values_list("name", flat=True))
    assert summary_generate(post.id) == "done"
    assert summary_generate(post.id, force=True) == "stored"
    again = PostSummary.objects.get(post=post)
    assert (again.summary, bytes(again.features), bytes(again.hashes)) == (
        first.summary,
        bytes(first.features),
        bytes(first.hashes),
    )
    assert sorted(AiPostTag.objects.filter(post=post).values_list("name", flat=True)) == tags


@pytest.mark.django_db
def test_vector_of_a_retired_embedding_model_is_redone_without_the_model(
    offline, human, monkeypatch
):
    post = make_post(human, BREAD, tags=["baking"])
    row = PostSummary.objects.get(post=post)
    PostSummary.objects.filter(post=post).update(embedding_model="retired", features=b"\x01" * 8)

    def no_llm(**kwargs):
        raise AssertionError("the summary stands; only the vector is redone")

    monkeypatch.setattr(service.gateway, "chat", no_llm)
    assert summary_generate(post.id) == "reembedded"
    again = PostSummary.objects.get(post=post)
    assert again.embedding_model == model_name() and len(bytes(again.features)) == 512
    assert again.summary == row.summary and bytes(again.hashes) == bytes(row.hashes)
    assert summary_generate(post.id) == "done"


@pytest.mark.django_db
def test_edit_during_summarisation_does_not_store_stale_summary(
    offline, human, monkeypatch, settings
):
    post = pending_post(settings, human, BREAD)
    real = gateway.chat
    edited = []

    def chat_then_edit(**kwargs):
        response = real(**kwargs)
        if not edited:  # the author edits while the model is still writing
            edited.append(True)
            services.post_update(human, post.id, content=ASTRONOMY)
        return response

    monkeypatch.setattr(service.gateway, "chat", chat_then_edit)
    assert summary_generate(post.id) == "stale"
    row = PostSummary.objects.get(post=post)
    # The re-queued run (inline in tests) summarised the new content.
    assert row.summary and "telescope" in row.summary.lower()
    assert "sourdough" not in row.summary.lower()
    assert row.source_updated_at == type(post).objects.get(pk=post.id).updated_at


@pytest.mark.django_db
def test_deleted_post_is_missing(offline, human, settings):
    post = pending_post(settings, human, BREAD)
    post_id = post.id
    services.post_delete(human, post_id)
    assert summary_generate(post_id) == "missing"


@pytest.mark.django_db
def test_unusable_model_output_fails_only_that_post(offline, human, monkeypatch):
    _answer(monkeypatch, "Sorry, I cannot help with that.")
    post = make_post(human, BREAD)  # the on-commit run fails; the post itself is fine
    row = PostSummary.objects.get(post=post)
    assert row.summary is None and row.attempts == 1
    assert "invalid JSON" in row.last_error or "summary" in row.last_error
    assert summary_generate(post.id) == "failed"
    assert PostSummary.objects.get(post=post).attempts == 2


@pytest.mark.django_db
def test_model_tags_are_cleaned_before_storage(offline, human, monkeypatch, settings):
    post = pending_post(settings, human, BREAD)
    long_tag = "Bread " * 20
    answer = {
        "summary": "A loaf.",
        "tags": ["596:Cooking", " cooking ", long_tag, "Sourdough", "SOURDOUGH"],
        "keywords": ["starter", "Cooking", "crumb", 7],
    }
    _answer(monkeypatch, json.dumps(answer))
    assert summary_generate(post.id) == "stored"
    tags = sorted(AiPostTag.objects.filter(post=post).values_list("name", flat=True))
    assert tags == sorted(["cooking", long_tag.strip().lower()[:50].strip(), "sourdough"])
    hashes = unpack_hashes(bytes(PostSummary.objects.get(post=post).hashes))
    assert fnv1a32("starter") in hashes and fnv1a32("crumb") in hashes


@pytest.mark.django_db
def test_ai_off_summarises_nothing_and_posting_works(
    settings, human, django_capture_on_commit_callbacks
):
    settings.STGY_AI_PROVIDER = "none"
    with django_capture_on_commit_callbacks(execute=True):
        response = login_client(human).post(
            "/api/posts", {"content": BREAD, "tags": []}, format="json"
        )
    assert response.status_code == 201
    post_id = int(response.json()["id"], 16)
    row = PostSummary.objects.get(post_id=post_id)
    assert row.summary is None and row.attempts == 0 and row.last_error == ""
    assert summary_generate(post_id) == "disabled"
    assert summarize_post.apply(args=[post_id]).get() == "disabled"


@pytest.mark.django_db
def test_task_retries_transient_failures_then_succeeds(offline, human, monkeypatch, settings):
    post = pending_post(settings, human, BREAD)
    real = gateway.chat
    failures = [LlmTransientError("upstream 503", attempts=3)]

    def flaky(**kwargs):
        if failures:
            raise failures.pop()
        return real(**kwargs)

    monkeypatch.setattr(service.gateway, "chat", flaky)
    result = summarize_post.apply(args=[post.id])
    assert result.get() == "stored"
    row = PostSummary.objects.get(post=post)
    assert row.summary and row.attempts == 1 and row.last_error == ""


@pytest.mark.django_db
def test_task_gives_up_after_bounded_retries(offline, human, monkeypatch, settings):
    post = pending_post(settings, human, BREAD)
    calls = []

    def always_down(**kwargs):
        calls.append(1)
        raise LlmTransientError("timeout", attempts=1)

    monkeypatch.setattr(service.gateway, "chat", always_down)
    result = summarize_post.apply(args=[post.id])
    assert result.failed()
    assert len(calls) == summarize_post.max_retries + 1
    assert PostSummary.objects.get(post=post).summary is None


@pytest.mark.django_db
def test_summary_through_openai_compatible_server(llm_server, human):
    answer = {
        "summary": "Jupiter and four moons through a small telescope.",
        "tags": ["440:Astronomy", "Jupiter"],
        "keywords": ["telescope", "Great Red Spot"],
    }
    llm_server.push_chat("```json\n" + json.dumps(answer) + "\n```")
    post = make_post(human, ASTRONOMY)  # summarised on commit, through the server
    (request,) = llm_server.chat_requests()
    assert request.body["response_format"] == {"type": "json_object"}
    row = PostSummary.objects.get(post=post)
    assert row.summary == answer["summary"]
    assert sorted(AiPostTag.objects.filter(post=post).values_list("name", flat=True)) == [
        "astronomy",
        "jupiter",
    ]
