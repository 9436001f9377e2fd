"""The offline stand-in converses (docs/offline-standin.md): it addresses the person,
picks up their whole words in English and Japanese, varies by persona and tier, never
takes a nickname for a topic, and does not repeat a title or sentence an AI user wrote
lately (the recent texts are real posts in the database)."""

from __future__ import annotations

import json

import pytest

from agents.llm.offline import OfflineProvider
from agents.llm.types import ChatRequest
from agents.recent_texts import sentence_keys, title_of
from sns import services
from tests.factories import make_ai_user

pytestmark = pytest.mark.django_db

BAKER = "A cheerful, enthusiastic baker who loves sourdough, rye and fermentation."
DOUBTER = "A skeptical, blunt chemist who doubts every kitchen myth about fermentation."


def run(task, payload, *, locale="en", personality=BAKER, nickname="Aiko", model="", max_chars=600):
    inputs = {
        "profile": {"nickname": nickname, "aiPersonality": personality, "locale": locale},
        "payload": payload,
        "max_chars": max_chars,
        "tag_num": 3,
    }
    request = ChatRequest(
        messages=[{"role": "user", "content": "x"}],
        model=model,
        task=task,
        locale=locale,
        json_mode=True,
        inputs=inputs,
    )
    return json.loads(OfflineProvider().complete(request).content)


def respond(content, **kw):
    return run("respond", {"message": {"author": "Mina", "content": content}}, **kw)["content"]


def reply(content, author="Mina", **kw):
    return run("reply-post", {"post": {"author": author, "content": content}}, **kw)["content"]


def new_post(**kw):
    return run("new-post", {"posts": []}, max_chars=2000, **kw)["content"]


def test_the_person_is_addressed_and_their_words_taken_up_in_english():
    text = respond("My rye starter smells of vinegar after a cold night.")
    opening = text.split(". ")[0]
    assert "Mina" in opening
    assert any(w in opening for w in ("rye", "starter", "vinegar"))
    assert text.endswith("(offline stand-in)")


def test_japanese_words_are_whole_runs_not_fragments():
    text = respond("ライ麦のサワー種は冬にどう育てますか。発酵が遅くて困っています。", locale="ja")
    assert text.startswith("Minaさん") and text.endswith("（オフライン代替）")
    assert any(w in text for w in ("「ライ麦」", "「サワー種」", "「発酵」"))
    for fragment in ("「ライ」", "「サワー」", "「困」", "「育」"):
        assert fragment not in text


def test_a_verb_stem_is_not_a_topic():
    text = reply("間違いを恐れずに音楽理論を学びたい。", locale="ja")
    assert "「間違」" not in text and "「音楽理論」" in text


def test_nicknames_are_not_topics():
    text = reply("Victor, the query plan changed after ANALYZE on PostgreSQL.", author="Priya")
    assert "Priya" in text  # addressed…
    assert "victor" not in text.lower()  # …but the person they addressed is no topic


def test_tone_and_tier_vary_the_answer(settings):
    message = "Does a cold proof really improve the crust?"
    cheerful, doubtful = respond(message), respond(message, personality=DOUBTER)
    assert cheerful != doubtful
    advanced = respond(message, model=settings.STGY_AI_MODEL_ADVANCED)
    basic = respond(message, model=settings.STGY_AI_MODEL_BASIC)
    assert len(sentence_keys(advanced)) > len(sentence_keys(basic))


def test_same_inputs_and_recent_texts_give_the_same_bytes():
    assert respond("Rye and spelt in winter?") == respond("Rye and spelt in winter?")
    assert new_post() == new_post()


def test_a_sentence_another_ai_user_wrote_lately_is_not_repeated():
    message = "My rye starter smells of vinegar after a cold night."
    first = respond(message)
    # Another AI user already said exactly that (say, to someone else).
    services.post_create(make_ai_user("Bram"), content=first, tags=[])
    second = respond(message)
    assert second != first
    assert not set(sentence_keys(second)) & set(sentence_keys(first))
    assert "Mina" in second and second.endswith("(offline stand-in)")


def test_a_title_used_lately_gets_another_variant():
    first = new_post()
    assert first.startswith("# ")
    services.post_create(
        make_ai_user("Bram"), content=first.split("\n")[0] + "\n\nOther words.", tags=[]
    )
    second = new_post()
    assert second.startswith("# ") and title_of(second) != title_of(first)


def test_a_new_post_repeats_no_sentence_of_a_recent_post():
    first = new_post()
    services.post_create(make_ai_user("Bram"), content=first, tags=[])
    second = new_post()
    assert sentence_keys(first) and sentence_keys(second)
    assert not set(sentence_keys(second)) & set(sentence_keys(first))


def test_a_person_repeating_themselves_gets_the_personas_topics_then_a_refusal():
    message = "Rye?"
    answers = []
    for _ in range(150):  # each answer becomes a recent AI post
        out = run("respond", {"message": {"author": "Mina", "content": message}}, model="")
        if not out["answer"]:
            break
        answers.append(out["content"])
        services.post_create(make_ai_user(), content=out["content"], tags=[])
    else:
        pytest.fail("150 answers to one message without running out of new sentences")
    assert len(answers) > 5 and out == {"answer": False, "content": "", "tags": out["tags"]}
    assert any("rye" not in a.lower() for a in answers)  # the persona's topics took over
    keys = [k for a in answers for k in sentence_keys(a)]
    assert len(keys) == len(set(keys))  # and no sentence came twice
