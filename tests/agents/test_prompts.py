"""Prompt files, locale fallback and deterministic rendering (agents/prompts.py)."""

from __future__ import annotations

import json
import os
import re
from types import SimpleNamespace

import pytest

from agents import prompts

_real_prompt_dir = prompts.prompt_dir
PLACEHOLDER = re.compile(r"\{\{[A-Z_]+\}\}")
TASK_PLACEHOLDERS = {
    "common-profile": {"{{PROFILE_JSON}}", "{{TASKS}}"},
    "post-impression": {"{{POST_JSON}}"},
    "peer-impression": {"{{PROFILE_JSON}}"},
    "post-impressions": {"{{POSTS_JSON}}"},
    "peer-impressions": {"{{USERS_JSON}}"},
    "interest": {"{{POSTS_JSON}}"},
    "new-post": {"{{POST_JSON}}"},
    "reply-post": {"{{POST_JSON}}"},
    "respond": {"{{POST_JSON}}"},
    "respond-message": {"{{POST_JSON}}"},
    "open-message": {"{{POST_JSON}}"},
    "revise": {"{{POST_JSON}}"},
    "post-summary": {"{{POST_JSON}}"},
}
LENGTH_PLACEHOLDERS = {"{{MAX_CHARS}}", "{{TAG_CHARS}}", "{{TAG_NUM}}", "{{LOCALE}}"}
OUTPUT_KEYS = {
    "post-impression": ("impression", "tags", "shouldLike", "shouldReply"),
    "peer-impression": ("impression", "tags", "shouldFollow"),
    # Several items in one call: a list of the one-item answers, each with its "n".
    "post-impressions": ("n", "impression", "tags", "shouldLike", "shouldReply"),
    "peer-impressions": ("n", "impression", "tags", "shouldFollow"),
    "interest": ("interest", "tags"),
    "new-post": ("content", "tags"),
    "reply-post": ("content", "tags"),
    "respond": ("answer", "content", "tags"),
    "respond-message": ("answer", "content", "tags"),
    "open-message": ("answer", "content", "tags"),
    "revise": ("content", "tags"),
}
EXPLAINED_INPUT_KEYS = {
    "post-impression": ("replyChain", "isSelf", "content", "summary", "peerImpression", "peerTags"),
    "peer-impression": ("lastImpression", "posts"),
    "post-impressions": ("replyChain", "isSelf", "peerImpression", "peerTags"),
    "peer-impressions": ("lastImpression", "posts"),
    "interest": ("impression", "tags", "currentInterest", "summary"),
    "new-post": (),
    "reply-post": ("replyChain", "existingReplies", "isSelf", "impression", "impressionTags",
                   "peerImpression", "tags"),
    "respond": ("message", "replyChain", "existingReplies", "isSelf", "peerImpression", "relationship"),
    "respond-message": ("message", "conversation", "isSelf", "peerImpression", "isRequest", "relationship"),
    "open-message": ("person", "theirPosts", "conversation", "isSelf", "peerImpression", "relationship"),
    "revise": ("draft", "sources", "ref", "author", "title", "content"),
}
REQUIRED_OUTPUT_KEY = {
    "post-impression": "impression",
    "peer-impression": "impression",
    "post-impressions": "impression",
    "peer-impressions": "impression",
    "interest": "interest",
    "new-post": "content",
    "reply-post": "content",
    "respond": "content",
    "respond-message": "content",
    "open-message": "content",
    "revise": "content",
    "post-summary": "summary",
}


@pytest.fixture(autouse=True)
def repo_prompt_dir(monkeypatch):
    """Pin the lookup to the repository's prompts/ whatever the settings say."""
    monkeypatch.setattr(prompts, "prompt_dir", lambda: prompts.DEFAULT_PROMPT_DIR)


def profile(nickname="Aiko", introduction="I photograph birds at dawn."):
    return {
        "userId": "0001",
        "locale": "en-US",
        "nickname": nickname,
        "introduction": introduction,
        "aiPersonality": "Patient, precise, a little dry.",
        "currentInterest": "Owls in city parks.",
        "currentInterestTags": ["owls", "parks"],
    }


def payload_for(task, text="Two owls nested in the old oak this spring."):
    if task in ("post-impressions", "peer-impressions"):
        one = payload_for(task[:-1], text)
        return {"posts" if task == "post-impressions" else "users": [{"n": 1, **one}]}
    post = {"locale": "en", "author": "Bob", "createdAt": "2025-05-01T10:00:00Z", "content": text}
    if task == "peer-impression":
        return {
            "userId": "0002",
            "locale": "en",
            "nickname": "Peer Bob",
            "introduction": text,
            "lastImpression": "",
            "posts": [{"locale": "en", "summary": "owls", "impression": "", "tags": []}],
        }
    if task == "interest":
        return {"users": [], "posts": [{**post, "authorId": "0002", "authorNickname": "Bob"}]}
    if task == "new-post":
        return {"posts": [{**post, "tags": ["owls"], "summary": "", "replyChain": [],
                           "existingReplies": []}]}
    if task == "post-summary":
        return {"locale": "en", "author": "Bob", "content": text}
    if task == "respond":
        return {"replyChain": [{**post, "isSelf": True}], "message": post, "peerImpression": "kind"}
    if task == "respond-message":
        return {"conversation": [{**post, "isSelf": False}], "message": post, "isRequest": False}
    return {"replyChain": [], "post": {**post, "summary": "", "isSelf": False}}


def example_of(template):
    """The example answer: the line after the "Example:" / "例:" label; of a task
    judging several items, its first item's."""
    lines = template.strip().splitlines()
    example = json.loads(lines[lines.index("例:" if "例:" in lines else "Example:") + 1])
    if set(example) == {"impressions"}:
        return example["impressions"][0]
    return example


def render(task, locale="en", prof=None, payload=None, max_chars=1000, tag_chars=40, tag_num=5):
    return prompts.render_agent_prompt(
        task,
        locale=locale,
        profile=prof or profile(),
        payload=payload or payload_for(task),
        max_chars=max_chars,
        tag_chars=tag_chars,
        tag_num=tag_num,
    )


# --- locale fallback -------------------------------------------------------------------

@pytest.mark.parametrize(
    ("locale", "default", "expected"),
    [
        ("ja_JP", "en", "test-ja-JP.txt"),
        ("ja-JP", "en", "test-ja-JP.txt"),
        ("ja", "en", "test-ja.txt"),
        ("ja_KR", "en", "test-ja.txt"),
        ("fr_FR", "en", "test-en.txt"),
        ("fr_FR", "ja", "test-ja.txt"),
        ("fr", "ja_JP", "test-ja-JP.txt"),
        ("", "en", "test-en.txt"),
    ],
)
def test_find_prompt_file_fallback(locale, default, expected):
    assert prompts.find_prompt_file("test", locale, default=default).name == expected


def test_fallback_files_hold_distinct_contents():
    assert prompts.load_prompt("test", "ja_JP").strip() == "TEST PROMPT ja-JP"
    assert prompts.load_prompt("test", "fr_FR").strip() == "TEST PROMPT en"


def test_every_underscore_is_normalised(tmp_path, monkeypatch):
    (tmp_path / "x-ja-JP-osaka.txt").write_text("osaka", encoding="utf-8")
    (tmp_path / "x-ja.txt").write_text("ja", encoding="utf-8")
    monkeypatch.setattr(prompts, "prompt_dir", lambda: tmp_path)
    assert prompts.find_prompt_file("x", "ja_JP_osaka").name == "x-ja-JP-osaka.txt"
    assert prompts.normalize_locale(" ja_JP_osaka ") == "ja-JP-osaka"


def test_missing_prompt_lists_each_candidate_once():
    with pytest.raises(FileNotFoundError, match="prompt file not found") as err:
        prompts.find_prompt_file("no-such-task", "en_US", default="en")
    message = str(err.value)
    assert message.count("no-such-task-en.txt") == 1
    assert "no-such-task-en-US.txt" in message


def test_file_contents_are_cached_by_path(tmp_path, monkeypatch):
    path = tmp_path / "cached-en.txt"
    path.write_text("first", encoding="utf-8")
    monkeypatch.setattr(prompts, "prompt_dir", lambda: tmp_path)
    assert prompts.load_prompt("cached", "en") == "first"
    path.write_text("second", encoding="utf-8")
    assert prompts.load_prompt("cached", "en") == "first"


def test_prompt_dir_uses_setting_when_present(tmp_path, monkeypatch):
    monkeypatch.setattr("django.conf.settings", SimpleNamespace(STGY_PROMPT_DIR=str(tmp_path)))
    assert _real_prompt_dir() == tmp_path
    monkeypatch.setattr("django.conf.settings", SimpleNamespace())
    assert _real_prompt_dir() == prompts.DEFAULT_PROMPT_DIR


def test_prompt_dir_without_configured_django(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    class Unconfigured:
        def __getattr__(self, name):
            raise ImproperlyConfigured("settings are not configured")

    monkeypatch.setattr("django.conf.settings", Unconfigured())
    assert _real_prompt_dir() == prompts.DEFAULT_PROMPT_DIR
    assert (prompts.DEFAULT_PROMPT_DIR / "common-profile-en.txt").is_file()


# --- the template files ----------------------------------------------------------------

@pytest.mark.parametrize("task", prompts.TASKS)
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_each_task_exists_with_its_placeholders(task, locale):
    path = prompts.find_prompt_file(task, locale)
    assert path.name == f"{task}-{locale}.txt"
    text = path.read_text(encoding="utf-8")
    found = set(PLACEHOLDER.findall(text))
    expected = TASK_PLACEHOLDERS[task] | (set() if task == "common-profile" else LENGTH_PLACEHOLDERS)
    assert found == expected
    if locale == "ja":
        assert re.search(r"[\u3040-\u309f]", text), "the ja file is written in Japanese"


@pytest.mark.parametrize("task", [t for t in prompts.TASKS if t != "common-profile"])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_each_task_has_an_ndc_example_and_ends_with_its_input(task, locale):
    text = prompts.load_prompt(task, locale)
    # The NDC rule itself is stated once, in the common profile; each task sets the
    # tag count and length, and its example shows an NDC tag.
    assert "{{TAG_NUM}}" in text and "{{TAG_CHARS}}" in text
    # Example and instructions come first and the input last: everything up to the
    # input is the same for every call of the task, so a provider can cache it.
    assert text.strip().splitlines()[-1] == next(iter(TASK_PLACEHOLDERS[task]))
    example = example_of(text)
    assert isinstance(example[REQUIRED_OUTPUT_KEY[task]], str)
    assert re.fullmatch(r"\d{3}(\.\d+)?:\S.*", example["tags"][0])


# Characters of a task's own instructions (the user message before its input). The
# common instructions before them are the provider-cached prefix, measured in tokens by
# tests/agents/test_prompt_prefix.py; these are paid in full on the first call of each
# task in a cycle, so a template growing past them should be a decision.
TASK_CHARS_BUDGET = {"en": 1300, "ja": 750}
SUMMARY_CHARS_BUDGET = {"en": 1500, "ja": 850}


@pytest.mark.parametrize("task", prompts.AGENT_TASKS)
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_task_instructions_stay_within_their_budget(task, locale):
    template = prompts.load_prompt(task, locale).strip()
    assert 300 <= len(template) <= TASK_CHARS_BUDGET[locale]  # a real task description, not a stub


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_summary_template_stays_within_its_budget(locale):
    assert 300 <= len(prompts.load_prompt("post-summary", locale)) <= SUMMARY_CHARS_BUDGET[locale]


@pytest.mark.parametrize("task", prompts.AGENT_TASKS)
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_each_task_keeps_its_behavioural_keys(task, locale):
    """The shortened templates still name every output key and every input key the
    task explains (docs/prompts.md §3)."""
    text = prompts.load_prompt(task, locale)
    example = example_of(text)
    assert set(example) == set(OUTPUT_KEYS[task])
    for key in EXPLAINED_INPUT_KEYS[task]:
        assert key in text, key


def test_the_common_profile_carries_the_shared_tag_and_output_rules():
    for locale in ("en", "ja"):
        text = prompts.load_prompt("common-profile", locale)
        assert "NDC" in text and "007.63:" in text and "JSON" in text
        for key in ("locale", "introduction", "aiPersonality", "currentInterest"):
            assert key in text
    summary = prompts.load_prompt("post-summary", "en")  # no common profile in front of it
    assert "NDC" in summary and "Dewey" in summary and "JSON" in summary


def test_common_profile_frames_a_scriptwriter():
    assert "scriptwriter" in prompts.load_prompt("common-profile", "en")
    assert "脚本家" in prompts.load_prompt("common-profile", "ja")


# --- rendering -------------------------------------------------------------------------

@pytest.mark.parametrize("task", prompts.AGENT_TASKS)
@pytest.mark.parametrize("locale", ["en-US", "ja_JP"])
def test_rendering_leaves_no_placeholder_and_starts_with_the_profile(task, locale):
    text = render(task, locale=locale, max_chars=500, tag_chars=20, tag_num=3)
    assert PLACEHOLDER.search(text) is None
    # The common profile follows the AI user's locale (en-US here), not the task's.
    common = prompts.load_prompt("common-profile", "en-US").strip()
    common = common.replace("{{TASKS}}", prompts.task_catalogue("en-US"))
    common = common.replace("{{PROFILE_JSON}}", prompts.prompt_json(profile()))
    assert text.startswith(common + "\n\n")
    assert not text.endswith("\n")
    system, user = prompts.render_agent_messages(
        task, locale=locale, profile=profile(), payload=payload_for(task), max_chars=500, tag_chars=20, tag_num=3
    )
    assert (system["role"], user["role"]) == ("system", "user")
    assert system["content"] == common and text == f"{common}\n\n{user['content']}"
    assert prompts.locale_label(locale) in text
    assert prompts.prompt_json(payload_for(task)) in text
    assert "500" in text and "500.0" not in text


def test_rendering_is_byte_stable_and_shares_the_profile_prefix():
    first = {task: render(task) for task in prompts.AGENT_TASKS}
    again = {task: render(task) for task in prompts.AGENT_TASKS}
    assert first == again
    shared = os.path.commonprefix(list(first.values()))
    assert shared.startswith("You are a scriptwriter")
    assert prompts.prompt_json(profile()) + "\n\n" in shared


def test_json_is_compact_ordered_and_keeps_non_ascii():
    assert prompts.prompt_json({"b": 1, "a": "日本語", "c": [1, {"d": "x y"}]}) == (
        '{"b":1,"a":"日本語","c":[1,{"d":"x y"}]}'
    )


def test_empty_members_and_false_flags_are_left_out_at_any_depth():
    doc = {"a": "", "b": [], "c": {}, "d": None, "e": False, "f": 0, "g": True,
           "h": [{"isSelf": False, "content": "x", "tags": []}, "", []],
           "i": {"j": {"k": ""}}}
    assert prompts.drop_empty(doc) == {"f": 0, "g": True, "h": [{"content": "x"}, "", []]}
    assert prompts.prompt_json(doc) == '{"f":0,"g":true,"h":[{"content":"x"},"",[]]}'


def test_locales_equal_to_the_tasks_are_left_out_of_the_payload_only():
    payload = {"replyChain": [{"locale": "ja_JP", "content": "a"}, {"locale": "en", "content": "b"}],
               "post": {"locale": "ja-JP", "content": "c"}}
    text = render("post-impression", locale="ja-JP", payload=payload)
    assert '{"replyChain":[{"content":"a"},{"locale":"en","content":"b"}],"post":{"content":"c"}}' in text
    assert '"locale":"en-US"' in text  # the AI user's own profile keeps its locale


def test_a_user_gets_the_same_prefix_in_every_task_language():
    """An English user reading a Japanese post still starts with its English profile,
    so its calls share the prefix whatever the posts' languages."""
    en_task = render("post-impression", locale="en")
    ja_task = render("post-impression", locale="ja")
    heading_ja = prompts.load_prompt("post-impression", "ja").splitlines()[0]
    shared = os.path.commonprefix([en_task, ja_task])
    assert shared.startswith("You are a scriptwriter")
    assert prompts.prompt_json(profile()) + "\n\n" in shared
    assert heading_ja in ja_task and "日本語（ja）" in ja_task  # the task itself stays Japanese
    japanese_user = dict(profile(), locale="ja-JP")
    text = render("post-impression", locale="en", prof=japanese_user)
    assert text.startswith(prompts.load_prompt("common-profile", "ja").split("\n", 1)[0])
    assert "## Task: post impression" in text and "English (en)" in text


def test_an_explicit_profile_locale_wins_over_the_profile_key():
    text = prompts.render_agent_prompt(
        "interest", locale="en", profile=profile(), payload=payload_for("interest"),
        max_chars=100, tag_chars=40, tag_num=5, profile_locale="ja_JP",
    )
    assert "脚本家" in text and "scriptwriter" not in text


def test_placeholders_in_user_text_are_stripped():
    assert prompts.prompt_json({"a": "x{{TAG_NUM}}y{not} {{lower}}"}) == (
        '{"a":"xy{not} {{lower}}"}'
    )
    # A placeholder rebuilt by deleting an inner one must not survive either.
    assert "{{" not in prompts.prompt_json({"a": "{{MAX{{X}}_CHARS}}"})
    evil = profile(introduction="hi {{POST_JSON}} {{MAX{{X}}_CHARS}} {{LOCALE}}")
    payload = payload_for("post-impression", text="UNIQUE-MARK {{PROFILE_JSON}} {{TAG_NUM}}")
    text = render("post-impression", prof=evil, payload=payload, max_chars=777)
    assert text.count("UNIQUE-MARK") == 1
    assert text.count('"nickname":"Aiko"') == 1
    assert '"introduction":"hi   "' in text
    assert '"content":"UNIQUE-MARK  "' in text
    assert PLACEHOLDER.search(text) is None


def test_peer_impression_fills_profile_and_peer_separately():
    me = profile(nickname="Aiko")
    peer = payload_for("peer-impression")
    text = render("peer-impression", prof=me, payload=peer)
    me_json, peer_json = prompts.prompt_json(me), prompts.prompt_json(prompts.drop_locale(peer, "en"))
    assert text.count(me_json) == 1 and text.count(peer_json) == 1
    task_part = prompts.load_prompt("peer-impression", "en").strip()
    task_start = text.index(task_part.splitlines()[0])
    assert text.index(me_json) < task_start < text.index(peer_json)


def test_summary_prompt_is_the_template_alone_untrimmed():
    payload = payload_for("post-summary")
    text = prompts.render_summary_prompt(
        locale="ja_JP", payload=payload, max_chars=240, tag_chars=20, tag_num=5
    )
    template = prompts.load_prompt("post-summary", "ja")
    assert "脚本家" not in text and "scriptwriter" not in text
    assert text.endswith("\n") and template.endswith("\n")
    assert len(text) == len(template) + sum(
        len(new) - len(old)
        for old, new in [
            ("{{POST_JSON}}", prompts.prompt_json(payload)),
            ("{{MAX_CHARS}}", "240"),
            ("{{TAG_CHARS}}", "20"),
            ("{{TAG_NUM}}", "5"),
            ("{{LOCALE}}", "日本語（ja-JP）"),
        ]
        for _ in range(template.count(old))
    )
    assert PLACEHOLDER.search(text) is None


@pytest.mark.parametrize("task", ["post-summary", "common-profile", "chat"])
def test_render_agent_prompt_rejects_other_tasks(task):
    with pytest.raises(ValueError):
        render(task, payload={})


# --- locale helpers --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("locale", "label"),
    [
        ("en", "English (en)"),
        ("en-US", "English (en-US)"),
        ("en_GB", "English (en-GB)"),
        ("ja", "日本語（ja）"),
        ("ja-JP", "日本語（ja-JP）"),
        ("fr-FR", "fr-FR"),
        ("english", "english"),
        ("jav", "jav"),
    ],
)
def test_locale_label(locale, label):
    assert prompts.locale_label(locale) == label


@pytest.mark.parametrize(
    ("locale", "lengths", "expected"),
    [
        ("ja", (1000, 40), (500, 20)),
        ("ja_JP", (1000, 40), (500, 20)),
        ("zh-TW", (1001, 41), (501, 21)),
        ("ko", (2000, 40), (1000, 20)),
        ("en", (1001, 41), (1001, 41)),
        ("jav", (1000, 40), (1000, 40)),
        ("kok", (1000, 40), (1000, 40)),
    ],
)
def test_cjk_halving_rounds_up(locale, lengths, expected):
    assert prompts.scaled_lengths(locale, *lengths) == expected


def test_is_cjk():
    assert prompts.is_cjk("ja") and prompts.is_cjk("zh_CN") and prompts.is_cjk("ko-KR")
    assert not prompts.is_cjk("en") and not prompts.is_cjk("jav") and not prompts.is_cjk("")
