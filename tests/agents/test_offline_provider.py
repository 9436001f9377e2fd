"""The deterministic `offline` LLM stand-in (agents/llm/offline.py)."""

from __future__ import annotations

import json
import re

import pytest

from agents.llm.offline import OfflineProvider
from agents.llm.types import ChatRequest

# The stand-in reads the recent AI texts from the database (an empty one here).
pytestmark = pytest.mark.django_db


HIRAGANA = re.compile(r"[\u3040-\u309f]")
NDC_TAG = re.compile(r"^\d{3}(\.\d+)?:\S")
MARKER = {"en": "(offline stand-in)", "ja": "（オフライン代替）"}

GARDENER = {
    "en": {
        "userId": "a1",
        "locale": "en",
        "nickname": "Greta",
        "introduction": "I grow vegetables on a small allotment and write about compost and soil.",
        "aiPersonality": "A cheerful gardener obsessed with compost, soil health and tomatoes.",
        "currentInterest": "Keeping soil moist through dry summers with mulch and compost.",
        "currentInterestTags": ["compost", "mulch", "tomatoes"],
    },
    "ja": {
        "userId": "a3",
        "locale": "ja-JP",
        "nickname": "みどり",
        "introduction": "家庭菜園でトマトを育て、堆肥づくりをしています。",
        "aiPersonality": "陽気な園芸好き。土壌と堆肥の話になると止まらない。",
        "currentInterest": "夏の乾燥から菜園の土壌を守るマルチングと堆肥。",
        "currentInterestTags": ["堆肥", "マルチング", "トマト"],
    },
}
CODER = {
    "userId": "a2",
    "locale": "en",
    "nickname": "Rex",
    "introduction": "Backend developer. Python, PostgreSQL, query plans.",
    "aiPersonality": "A skeptical software engineer who distrusts hype and wants benchmarks.",
    "currentInterest": "Database indexes and query performance in PostgreSQL.",
    "currentInterestTags": ["postgresql", "indexes"],
}
ON_TOPIC = {
    "en": "My tomatoes split after the storm. Thicker mulch and more compost in the soil "
    "should keep the moisture steady for the tomatoes.",
    "ja": "嵐のあとトマトが割れた。堆肥を増やしてマルチングを厚くすれば、土壌の水分が安定するかもしれない。",
}
OFF_TOPIC = {
    "en": "The new jazz album by the quartet has a wonderful piano solo on the third track.",
    "ja": "新しいジャズのアルバムは、三曲目のピアノ独奏が素晴らしい。",
}
SCHEMA = {
    "post-impression": {"impression": str, "tags": list, "shouldLike": bool, "shouldReply": bool},
    "peer-impression": {"impression": str, "tags": list, "shouldFollow": bool},
    "interest": {"interest": str, "tags": list},
    "new-post": {"content": str, "tags": list},
    "reply-post": {"content": str, "tags": list},
    "post-summary": {"summary": str, "tags": list, "keywords": list},
}
TEXT_KEY = {
    "post-impression": "impression",
    "peer-impression": "impression",
    "interest": "interest",
    "new-post": "content",
    "reply-post": "content",
    "post-summary": "summary",
}


def ctx_post(text, locale, *, is_self=False):
    return {"locale": locale, "author": "Bob", "isSelf": is_self,
            "createdAt": "2025-05-01T10:00:00Z", "content": text, "summary": ""}


def payload_for(task, locale="en", text=None):
    text = ON_TOPIC[locale] if text is None else text
    base = {"locale": locale, "author": "Bob", "createdAt": "2025-05-01T10:00:00Z"}
    if task == "post-impression":
        return {"replyChain": [], "post": {**base, "content": text, "summary": "",
                                           "peerImpression": "", "peerTags": [], "isSelf": False}}
    if task == "peer-impression":
        return {"userId": "b1", "locale": locale, "nickname": "Bob", "introduction": text,
                "lastImpression": "",
                "posts": [{"locale": locale, "summary": text, "impression": "", "tags": []}]}
    if task == "interest":
        return {"users": [{"userId": "b1", "locale": locale, "nickname": "Bob",
                           "introduction": text, "impression": "", "tags": []}],
                "posts": [{"locale": locale, "authorId": "b1", "authorNickname": "Bob",
                           "content": text, "summary": "", "impression": "", "tags": []}]}
    if task == "new-post":
        return {"posts": [{"locale": locale, "createdAt": "2025-05-01T10:00:00Z", "content": text,
                           "tags": [], "summary": "", "replyChain": [], "existingReplies": []}]}
    if task == "reply-post":
        return {"replyChain": [], "post": {**base, "content": text, "tags": [], "summary": "",
                                           "impression": "", "impressionTags": [],
                                           "peerImpression": "", "isSelf": False},
                "existingReplies": []}
    return {"locale": locale, "author": "Bob", "content": text}


def ask(task, *, locale="en", profile=None, payload=None, max_chars=1000, tag_num=5):
    inputs = {"payload": payload if payload is not None else payload_for(task, locale),
              "max_chars": max_chars, "tag_num": tag_num}
    if task != "post-summary":
        inputs["profile"] = profile if profile is not None else GARDENER[locale]
    request = ChatRequest(
        messages=[{"role": "user", "content": "p" * 403}],
        model="offline-model",
        task=task,
        locale=locale,
        json_mode=task != "post-summary",
        inputs=inputs,
    )
    return OfflineProvider().complete(request)


def answer(task, **kwargs):
    return json.loads(ask(task, **kwargs).content)


@pytest.mark.parametrize("task", list(SCHEMA))
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_every_task_returns_its_schema_in_the_request_language(task, locale):
    tag_num = 3 if task in ("new-post", "reply-post") else 5
    max_chars = 400 if locale == "ja" else 800
    result = answer(task, locale=locale, max_chars=max_chars, tag_num=tag_num)
    assert isinstance(result, dict)
    for key, kind in SCHEMA[task].items():
        assert isinstance(result[key], kind), key
    text = result[TEXT_KEY[task]]
    assert text.strip() and len(text) <= max_chars
    assert MARKER[locale] in text
    assert bool(HIRAGANA.search(text)) is (locale == "ja")
    tags = result["tags"]
    assert 2 <= len(tags) <= tag_num
    assert all(isinstance(t, str) and 0 < len(t) <= (20 if locale == "ja" else 40) for t in tags)
    assert sum(bool(NDC_TAG.match(t)) for t in tags) == 1
    if task == "post-summary":
        assert len(result["keywords"]) <= 10
        assert all(isinstance(k, str) for k in result["keywords"])


def test_response_metadata_estimates_tokens():
    response = ask("post-impression")
    assert response.model == "offline-model"
    assert response.prompt_tokens == 403 // 4
    assert response.completion_tokens == len(response.content) // 4
    assert OfflineProvider.name == "offline"


@pytest.mark.parametrize("task", list(SCHEMA))
def test_same_request_gives_same_bytes(task):
    assert ask(task).content == ask(task).content


def test_on_topic_post_is_liked_and_off_topic_is_not():
    on = answer("post-impression")
    off = answer("post-impression", payload=payload_for("post-impression", text=OFF_TOPIC["en"]))
    assert on["shouldLike"] is True
    assert off["shouldLike"] is False and off["shouldReply"] is False
    assert "tomato" in on["impression"].lower()
    assert "jazz" in off["impression"].lower()


def test_likes_depend_on_the_persona():
    payload = payload_for("post-impression")
    assert answer("post-impression", profile=CODER, payload=payload)["shouldLike"] is False
    query = "Adding a PostgreSQL index fixed the slow query; the query plan now uses the index."
    coder_post = payload_for("post-impression", text=query)
    assert answer("post-impression", profile=CODER, payload=coder_post)["shouldLike"] is True
    assert answer("post-impression", payload=coder_post)["shouldLike"] is False


def test_japanese_on_topic_post_is_liked():
    on = answer("post-impression", locale="ja")
    off = answer("post-impression", locale="ja",
                 payload=payload_for("post-impression", "ja", OFF_TOPIC["ja"]))
    assert on["shouldLike"] is True and off["shouldLike"] is False


def test_follow_depends_on_overlap():
    assert answer("peer-impression")["shouldFollow"] is True
    off = payload_for("peer-impression", text=OFF_TOPIC["en"])
    assert answer("peer-impression", payload=off)["shouldFollow"] is False


def test_reply_answers_the_post_it_replies_to():
    text = "My sourdough starter doubled overnight. Sourdough bread needs a lively starter."
    en = answer("reply-post", payload=payload_for("reply-post", text=text), max_chars=500)
    assert "sourdough" in en["content"].lower() or "starter" in en["content"].lower()
    assert "?" in en["content"]
    ja = answer("reply-post", locale="ja", max_chars=250)
    assert "トマト" in ja["content"] or "堆肥" in ja["content"]


def test_a_reply_in_a_thread_it_wrote_in_has_no_fixed_lead():
    """"Picking up from what I said earlier: …" opened every such reply: a frame that
    made two AI users' exchange read as a loop."""
    payload = payload_for("reply-post")
    payload["replyChain"] = [ctx_post("Compost first, always.", "en", is_self=True)]
    content = answer("reply-post", payload=payload)["content"]
    assert "earlier" not in content.lower() and "?" in content


def test_new_posts_differ_between_personas_and_between_cycles():
    payload = {"posts": []}
    gardener = answer("new-post", payload=payload)["content"]
    coder = answer("new-post", profile=CODER, payload=payload)["content"]
    assert gardener != coder
    assert any(word in gardener.lower() for word in ("compost", "mulch", "tomatoes", "soil"))
    assert any(word in coder.lower() for word in ("postgresql", "indexes", "query", "database", "performance"))
    next_cycle = {"posts": [{"locale": "en", "createdAt": "2025-05-02T10:00:00Z",
                             "content": gardener, "tags": [], "summary": "",
                             "replyChain": [], "existingReplies": []}]}
    assert answer("new-post", payload=next_cycle)["content"] != gardener


def test_interest_evolves_from_the_previous_one():
    read = payload_for("interest", text="Rainwater tanks and drip irrigation for dry gardens.")
    result = answer("interest", payload=read)
    # The previous interest stays, and something newly read joins it.
    assert "compost" in result["interest"] and "rainwater" in result["interest"]
    assert "rainwater" in result["tags"]


def test_summary_condenses_the_first_sentences():
    content = ("# Sessions\n\nMoving the session store to **Redis** cut page time in half. "
               + "Redis restarts lose sessions unless persistence is enabled. " * 20)
    result = answer("post-summary", payload={"locale": "en", "author": "Bob", "content": content},
                    max_chars=200)
    assert result["summary"].startswith("Moving the session store to Redis cut page time")
    assert len(result["summary"]) <= 200
    labels = {t.split(":", 1)[-1].lower() for t in result["tags"]}
    assert not labels & {k.lower() for k in result["keywords"]}
    assert "Redis" in result["tags"] + result["keywords"]


def test_other_locales_fall_back_to_english():
    result = answer("post-impression", locale="fr-FR", profile=GARDENER["en"],
                    payload=payload_for("post-impression"))
    assert MARKER["en"] in result["impression"]


def test_chat_is_plain_text_or_a_reply_object():
    provider = OfflineProvider()
    messages = [{"role": "user", "content": "Tell me about compost heaps"}]
    plain = provider.complete(ChatRequest(messages=messages, model="m")).content
    assert "offline stand-in" in plain
    wrapped = provider.complete(ChatRequest(messages=messages, model="m", json_mode=True))
    assert "offline stand-in" in json.loads(wrapped.content)["reply"]
    ja = provider.complete(ChatRequest(messages=messages, model="m", locale="ja")).content
    assert "オフライン代替" in ja


def test_unknown_task_is_an_error():
    with pytest.raises(ValueError):
        ask("make-coffee")


def test_a_reply_addressed_to_the_persona_is_answered_more_often():
    """One shared word is not enough to reply to a stranger, but it is when the post
    answers the protagonist's own earlier post."""
    def decision(index, *, addressed):
        text = f"Question number {index}: how deep do you water tomatoes in July, {index} times?"
        payload = payload_for("post-impression", text=text)
        if addressed:
            payload["replyChain"] = [ctx_post("My tomatoes split after rain.", "en", is_self=True)]
        return answer("post-impression", payload=payload)["shouldReply"]

    addressed = sum(decision(i, addressed=True) for i in range(20))
    strangers = sum(decision(i, addressed=False) for i in range(20))
    assert addressed >= 10
    assert addressed > strangers


@pytest.mark.parametrize("task", ["post-impressions", "peer-impressions"])
def test_several_items_get_one_answer_each_that_ignores_the_others(task):
    """A list task answers every numbered item in the one-item schema, and an item's
    answer does not depend on the items beside it."""
    one = task[:-1]
    on, off = payload_for(one), payload_for(one, text=OFF_TOPIC["en"])
    key = "posts" if task == "post-impressions" else "users"
    both = answer(task, payload={key: [{"n": 1, **on}, {"n": 2, **off}]})["impressions"]
    assert [item["n"] for item in both] == [1, 2]
    for item in both:
        for name, kind in SCHEMA[one].items():
            assert isinstance(item[name], kind), name
    decision = "shouldLike" if one == "post-impression" else "shouldFollow"
    assert (both[0][decision], both[1][decision]) == (True, False)  # judged on its own text
    alone = answer(task, payload={key: [{"n": 1, **on}]})["impressions"]
    assert alone == both[:1]
