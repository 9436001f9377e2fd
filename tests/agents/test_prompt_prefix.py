"""The cacheable prefix (docs/prompts.md §2): every AI-user call of one user, cycle and
respond path, in any task language, starts with the same bytes (the common
instructions, then the user's profile), long enough for a provider to cache; two
users differ only after the common instructions."""

from __future__ import annotations

import os
import threading

import pytest

from agents import prompts
from bench.tokens import _encoding, count_tokens

OPENAI_MIN_CACHED = 1024  # tokens; bench/token_economy.py applies the same rule

PROFILES = {
    "en-US": {"locale": "en-US", "nickname": "Aiko", "introduction": "Owls at dawn.",
              "aiPersonality": "Dry and precise.", "currentInterest": "City owls."},
    "ja-JP": {"locale": "ja-JP", "nickname": "さくら", "introduction": "朝の野鳥。",
              "aiPersonality": "静かで几帳面。", "currentInterest": "都会のフクロウ。"},
}
POST = {"author": "Bob", "createdAt": "2026-05-01T10:00Z", "content": "Two owls in the oak.", "isSelf": False}
PAYLOADS = {
    "post-impression": {"replyChain": [], "post": POST},
    "peer-impression": {"nickname": "Bob", "introduction": "Bread.", "posts": [{"summary": "Rye."}]},
    "post-impressions": {"posts": [{"n": 1, "replyChain": [], "post": POST}]},
    "peer-impressions": {"users": [{"n": 1, "nickname": "Bob", "posts": [{"summary": "Rye."}]}]},
    "interest": {"users": [{"nickname": "Bob"}], "posts": [{"authorNickname": "Bob", "content": "Owls."}]},
    "new-post": {"posts": [{"content": "My last post about owls.", "tags": ["owls"]}]},
    "reply-post": {"replyChain": [], "post": POST, "existingReplies": []},
    "respond": {"replyChain": [{**POST, "isSelf": True}], "message": POST},
    "respond-message": {"conversation": [POST], "message": POST, "isRequest": True},
    "open-message": {"person": {"nickname": "Bob"}, "theirPosts": [POST], "conversation": []},
    "revise": {"draft": "Two owls.", "sources": [{"ref": 1, "author": "Handbook", "title": "Owls", "content": "Owls."}]},
}


@pytest.fixture(autouse=True)
def repo_prompt_dir(monkeypatch):
    monkeypatch.setattr(prompts, "prompt_dir", lambda: prompts.DEFAULT_PROMPT_DIR)


def messages(task, *, task_locale, profile, max_chars=600):
    return prompts.render_agent_messages(
        task, locale=task_locale, profile=profile, payload=PAYLOADS[task],
        max_chars=max_chars, tag_chars=20, tag_num=3,
    )


def conservative_tokens(text: str) -> int:
    """A lower bound on any common BPE tokenizer's count: five ASCII characters or two
    other characters per token (o200k_base gives about 4.4 and 1.1)."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return ascii_chars // 5 + (len(text) - ascii_chars) // 2


@pytest.mark.parametrize("user_locale", sorted(PROFILES))
def test_every_task_starts_with_the_same_bytes_for_one_user(user_locale):
    profile = PROFILES[user_locale]
    texts, systems = [], set()
    for task in prompts.AGENT_TASKS:  # the cycle's tasks and the respond path's
        for task_locale in ("en", "ja-JP"):
            for max_chars in (300, 1700):  # per-call values
                msgs = messages(task, task_locale=task_locale, profile=profile, max_chars=max_chars)
                assert [m["role"] for m in msgs] == ["system", "user"]
                systems.add(msgs[0]["content"])
                texts.append(prompts.messages_text(msgs))
    assert len(systems) == 1
    (system,) = systems
    shared = os.path.commonprefix(texts)
    assert shared.startswith(system + "\n\n")
    assert system.startswith(prompts.common_instructions(user_locale))
    assert system.endswith(prompts.prompt_json(profile))
    assert prompts.PLACEHOLDER_RE.search(system) is None


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_common_instructions_alone_are_long_enough_to_be_cached(locale):
    """Not only the user's whole prefix: the common part alone passes the provider's
    minimum, so it is cached from other users' calls too — for a user's first call of a
    cycle, and after its interest (in the profile) changed."""
    common = prompts.common_instructions(locale)
    assert conservative_tokens(common) >= OPENAI_MIN_CACHED
    assert count_tokens(common) >= OPENAI_MIN_CACHED  # the bench's counter (exact or estimate)
    # The prefix is paid at the cached price on every call (≈ 6 per cycle, and every
    # answer of the respond path), every task's instructions included: guidance, not
    # padding. Growing past this should be a decision.
    assert count_tokens(common) <= {"en": 3000, "ja": 4300}[locale]


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_cycle_tasks_are_explained_once_in_the_prefix(locale):
    """A cycle task's call carries its heading, lengths and input; its instructions are
    in the cached prefix, under the same heading, in the AI user's language."""
    profile = PROFILES["en-US" if locale == "en" else "ja-JP"]
    common = prompts.common_instructions(locale)
    for task in prompts.CATALOGUED_TASKS:
        instructions, _ = prompts.split_task(prompts.load_prompt(task, locale))
        assert common.count(instructions) == 1
        system, user = messages(task, task_locale="en", profile=profile)
        heading = instructions.split("\n", 1)[0]
        assert user["content"].startswith(heading + "\n\n") and instructions not in user["content"]
        assert prompts.locale_label("en") in user["content"]


@pytest.mark.skipif(_encoding() is None, reason="bpe-openai not installed (pip install -e .[bench])")
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_common_instructions_in_o200k_tokens(locale):
    # A margin over 1,024 for tokenizers that count a little fewer tokens than o200k.
    assert count_tokens(prompts.common_instructions(locale)) >= OPENAI_MIN_CACHED + 64


@pytest.mark.parametrize("user_locale", sorted(PROFILES))
def test_two_users_differ_only_after_the_common_instructions(user_locale):
    first = PROFILES[user_locale]
    second = {**first, "nickname": "Mina", "aiPersonality": "Loud and kind.", "currentInterest": "Bread."}
    a = messages("post-impression", task_locale="en", profile=first)[0]["content"]
    b = messages("post-impression", task_locale="en", profile=second)[0]["content"]
    common = prompts.common_instructions(user_locale)
    shared = os.path.commonprefix([a, b])
    assert shared.startswith(common)
    assert shared == common + '{"locale":"%s","nickname":"' % user_locale


def test_the_common_instructions_depend_on_the_users_language_only():
    en = messages("interest", task_locale="ja-JP", profile=PROFILES["en-US"])[0]["content"]
    ja = messages("interest", task_locale="en", profile=PROFILES["ja-JP"])[0]["content"]
    assert en.startswith(prompts.common_instructions("en")) and "scriptwriter" in en
    assert ja.startswith(prompts.common_instructions("ja")) and "脚本家" in ja
    assert prompts.common_instructions("en-GB") == prompts.common_instructions("en-US")


def test_interleaved_calls_keep_each_users_prefix():
    """Several AI users rendering at once (a worker's threads) each get their own
    prefix: rendering keeps no state between calls."""
    users = {"a": PROFILES["en-US"], "b": {**PROFILES["en-US"], "nickname": "Mina"}, "c": PROFILES["ja-JP"]}
    seen: dict[str, set[str]] = {name: set() for name in users}
    lock = threading.Lock()

    def work(name):
        for task in prompts.AGENT_TASKS * 5:
            system = messages(task, task_locale="en", profile=users[name])[0]["content"]
            with lock:
                seen[name].add(system)

    threads = [threading.Thread(target=work, args=(name,)) for name in users for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(len(systems) == 1 for systems in seen.values())
    assert len({next(iter(s)) for s in seen.values()}) == 3
    assert all(next(iter(seen[n])).endswith(prompts.prompt_json(users[n])) for n in users)


def test_the_peer_profile_goes_to_the_task_not_the_prefix():
    system, user = messages("peer-impression", task_locale="en", profile=PROFILES["en-US"])
    assert '"nickname":"Aiko"' in system["content"] and '"nickname":"Bob"' not in system["content"]
    assert '"nickname":"Bob"' in user["content"] and '"nickname":"Aiko"' not in user["content"]


def test_the_offline_stand_in_reports_the_prefix_a_provider_would_cache():
    """The demo's usage rows carry cached tokens: a user's second call shares its
    system message with the first (agents/llm/prefix_cache.py; four characters a
    token, as the stand-in estimates its prompt tokens)."""
    from agents.llm.offline import OfflineProvider
    from agents.llm.prefix_cache import provider_cacheable
    from agents.llm.types import ChatRequest

    provider = OfflineProvider()
    profile = {**PROFILES["en-US"], "nickname": "Offline-prefix-test"}  # bytes no other test sent

    def call(task):
        msgs = messages(task, task_locale="en", profile=profile)
        request = ChatRequest(messages=msgs, model="m", task=task, locale="en", json_mode=True,
                              inputs={"profile": profile, "payload": PAYLOADS[task], "max_chars": 300, "tag_num": 3})
        return msgs, provider.complete(request)

    call("post-impression")
    msgs, second = call("interest")
    system_chars = len(msgs[0]["content"]) + 2  # and the blank line joining the messages
    assert second.cached_tokens >= provider_cacheable(system_chars // 4) >= 1024
    assert second.cached_tokens < second.prompt_tokens
