"""The offline stand-in's answer (task `respond`): the person by nickname, their own
words in a sentence of their language, the persona's tone, labelled, deterministic."""

import json

import pytest

from agents.llm.offline import OfflineProvider
from agents.llm.types import ChatRequest

# The stand-in reads the recent AI texts from the database (an empty one here).
pytestmark = pytest.mark.django_db


def answer(locale: str, content: str, personality: str, author: str = "Mina") -> dict:
    inputs = {
        "profile": {"nickname": "Aiko", "aiPersonality": personality, "locale": locale},
        "payload": {"message": {"author": author, "content": content}, "replyChain": []},
        "max_chars": 500,
        "tag_num": 3,
    }
    request = ChatRequest(messages=[{"role": "user", "content": "x"}], model="m", task="respond", locale=locale,
                          json_mode=True, inputs=inputs)
    return json.loads(OfflineProvider().complete(request).content)


CHEERFUL = "A cheerful, enthusiastic baker who loves sourdough."
GRUMPY = "A skeptical, blunt chemist who doubts every kitchen myth."


def test_english_answer_picks_up_the_persons_words():
    out = answer("en-US", "Does a cold proof really improve the crust?", CHEERFUL)
    assert out["answer"] is True
    text = out["content"]
    first = text.split(". ")[0]
    assert "Mina" in first  # addressed by nickname
    assert any(w in first for w in ("proof", "crust", "cold"))
    assert text.endswith("(offline stand-in)") and len(text) <= 500
    assert len(out["tags"]) >= 2 and ":" in out["tags"][0]


def test_japanese_answer_reads_as_japanese():
    out = answer("ja-JP", "ライ麦のサワー種は冬にどう育てますか", CHEERFUL)
    text = out["content"]
    assert text.startswith("Minaさん") and "「" in text and text.endswith("（オフライン代替）")
    # Their whole words, quoted: runs of kanji and katakana, not fragments of them.
    assert "「ライ麦」" in text or "「サワー種」" in text
    assert "「ライ」" not in text and "「サワー」" not in text


def test_the_persona_changes_the_answer():
    message = "Does a cold proof really improve the crust?"
    cheerful, grumpy = answer("en", message, CHEERFUL)["content"], answer("en", message, GRUMPY)["content"]
    assert cheerful != grumpy
    assert any(p in grumpy for p in ("not convinced", "push back", "doubt", "what makes you sure",
                                     "more evidence", "looks thin", "before I agree"))


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_same_inputs_same_bytes(locale):
    assert answer(locale, "Rye and spelt?", CHEERFUL) == answer(locale, "Rye and spelt?", CHEERFUL)


def test_a_message_without_content_words_still_gets_a_sentence():
    text = answer("en", "?!", CHEERFUL)["content"]
    assert "Mina" in text
    assert "tell me a little more" in text or "what should we talk about" in text
