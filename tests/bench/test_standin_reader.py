"""The benchmark stand-in server reads rendered prompts back: which task, which
language, and the profile and task JSON (bench/llm_standin_server.py). It must keep up
with the templates, whose headings and layout it depends on."""

from __future__ import annotations

import json

import pytest

from agents import prompts
from bench.llm_standin_server import StandIn, TaskReader

PROFILES = {
    "en": {"userId": "00A1", "locale": "en-US", "nickname": "Aiko", "introduction": "Owls at dawn.",
           "aiPersonality": "Dry and precise.", "currentInterest": "City owls.", "currentInterestTags": ["owls"]},
    "ja": {"userId": "00B2", "locale": "ja-JP", "nickname": "さくら", "introduction": "朝の野鳥。",
           "aiPersonality": "静かで几帳面。", "currentInterest": "", "currentInterestTags": []},
}
PAYLOADS = {
    "post-impression": {"replyChain": [], "post": {"locale": "ja-JP", "author": "Bob", "content": "{tricky} 実験",
                                                   "isSelf": False}},
    "peer-impression": {"userId": "00C3", "nickname": "Peer", "introduction": "Bread.",
                        "posts": [{"summary": "Rye starter notes.", "tags": ["bread"]}]},
    "post-impressions": {"posts": [
        {"n": 1, "post": {"locale": "ja-JP", "author": "Bob", "content": "{tricky} 実験"}},
        {"n": 2, "replyChain": [{"author": "Aiko", "isSelf": True, "content": "Owls?"}],
         "post": {"author": "Bob", "content": "Yes, two."}},
    ]},
    "peer-impressions": {"users": [
        {"n": 1, "nickname": "Peer", "introduction": "Bread.", "posts": [{"summary": "Rye starter notes."}]},
        {"n": 2, "nickname": "Other", "posts": [{"summary": "Owl pellets.", "tags": ["owls"]}]},
    ]},
    "interest": {"users": [{"userId": "00C3", "nickname": "Peer"}], "posts": [{"content": "Owls again."}]},
    "new-post": {"posts": [{"content": "My last post about owls.", "tags": ["owls"]}]},
    "reply-post": {"replyChain": [], "post": {"author": "Bob", "content": "Any owls here?"}, "existingReplies": []},
    "respond": {"replyChain": [{"author": "Aiko", "isSelf": True, "content": "Owls at dawn."}],
                "message": {"author": "Bob", "content": "Which owls?"}},
    "respond-message": {"conversation": [{"author": "Aiko", "isSelf": True, "content": "Owls at dawn."}],
                        "message": {"author": "Bob", "content": "Which owls?"}, "isRequest": True},
    "open-message": {"person": {"nickname": "Bob", "relationship": "friend"},
                     "theirPosts": [{"content": "Owls at dawn again."}], "conversation": []},
    "revise": {"draft": "Owls at dawn, {tricky}.",
               "sources": [{"ref": 1, "author": "Handbook", "title": "Owls", "content": "Owls hunt at dusk."}]},
}


@pytest.fixture(scope="module")
def reader():
    return TaskReader()


def render(task, *, task_locale, user_lang):
    return prompts.render_agent_prompt(
        task, locale=task_locale, profile=PROFILES[user_lang], payload=PAYLOADS[task],
        max_chars=300, tag_chars=20, tag_num=3,
    )


@pytest.mark.parametrize("task", prompts.AGENT_TASKS)
@pytest.mark.parametrize(("task_locale", "user_lang"), [("en", "en"), ("ja-JP", "ja"), ("ja-JP", "en"), ("en", "ja")])
def test_reads_task_language_profile_and_payload(reader, task, task_locale, user_lang):
    task_read, lang, inputs = reader.read(render(task, task_locale=task_locale, user_lang=user_lang))
    assert (task_read, lang) == (task, task_locale[:2])
    # The profile comes back in the user's language even when the task is in another.
    assert inputs["profile"] == prompts.drop_empty(PROFILES[user_lang])
    expected = prompts.drop_locale(PAYLOADS[task], prompts.normalize_locale(task_locale))
    assert inputs["payload"] == prompts.drop_empty(expected)


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_reads_the_summary_prompt(reader, locale):
    payload = {"locale": locale, "author": "Bob", "content": "A long note on owls."}
    text = prompts.render_summary_prompt(locale=locale, payload=payload, max_chars=200, tag_chars=20, tag_num=5)
    assert reader.read(text) == ("post-summary", locale, {"payload": payload})


def test_an_unknown_prompt_is_plain_chat(reader):
    assert reader.read("Say hello.") == ("chat", "en", {})


def test_answers_a_mixed_language_prompt_in_schema(settings):
    """End to end through the stand-in's answer(): an English user's impression of a
    Japanese post gets a schema-valid answer that uses the user's profile."""
    text = render("post-impression", task_locale="ja-JP", user_lang="en")
    body = StandIn(latency=0).answer({"messages": [{"role": "user", "content": text}], "response_format": {}})
    answer = json.loads(body["choices"][0]["message"]["content"])
    assert isinstance(answer["impression"], str) and answer["impression"]
    assert isinstance(answer["shouldLike"], bool) and isinstance(answer["shouldReply"], bool)
    assert body["usage"]["prompt_tokens"] > 0


def test_reports_the_cached_prefix_as_openai_does(settings):
    """A second call of one user shares its system message with the first: the
    stand-in reports those tokens as cached (from 1,024 on, in 128-token steps)."""
    standin = StandIn(latency=0)

    def ask(task, user_lang):
        text = render(task, task_locale="en", user_lang=user_lang)
        return standin.answer({"messages": [{"role": "user", "content": text}], "response_format": {}})["usage"]

    first = ask("post-impression", "en")
    assert first["prompt_tokens_details"]["cached_tokens"] == 0  # nothing seen before
    second = ask("interest", "en")
    cached = second["prompt_tokens_details"]["cached_tokens"]
    assert cached >= 1024 and (cached - 1024) % 128 == 0 and cached < second["prompt_tokens"]
    # A Japanese user's prompts start with other bytes: nothing of the English ones helps.
    assert ask("interest", "ja")["prompt_tokens_details"]["cached_tokens"] == 0


def test_answers_several_posts_in_one_call_item_by_item(settings):
    """Posts judged together get one answer each, numbered, that the cycle's parser
    takes item by item."""
    from agents.llm.parsing import parse_post_impressions

    text = render("post-impressions", task_locale="en", user_lang="ja")
    body = StandIn(latency=0).answer({"messages": [{"role": "user", "content": text}], "response_format": {}})
    parsed = parse_post_impressions(body["choices"][0]["message"]["content"], 2)
    assert sorted(parsed) == [1, 2]
    assert all(isinstance(parsed[n]["impression"], str) and parsed[n]["impression"] for n in (1, 2))
    assert parsed[1]["impression"] != parsed[2]["impression"]
