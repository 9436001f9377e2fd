"""The offline stand-in's answer (task `respond`): the person by nickname, their own
words in a sentence of their language, the persona's tone, labelled, deterministic."""

import json

import pytest

from agents.llm.offline import OfflineProvider
from agents.llm.types import ChatRequest


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
    assert text.startswith(("Thanks for this, Mina!", "Mina, great to hear from you!"))
    assert '"proof"' in text or '"crust"' in text or '"cold"' in text
    assert text.endswith("(offline stand-in)") and len(text) <= 500
    assert len(out["tags"]) >= 2 and ":" in out["tags"][0]


def test_japanese_answer_reads_as_japanese():
    out = answer("ja-JP", "ライ麦のサワー種は冬にどう育てますか", CHEERFUL)
    text = out["content"]
    assert text.startswith("Minaさん") and "「" in text and text.endswith("（オフライン代替）")
    assert "「ライ」" in text and "「サワー」" in text  # their katakana words, quoted


def test_the_persona_changes_the_answer():
    message = "Does a cold proof really improve the crust?"
    cheerful, grumpy = answer("en", message, CHEERFUL)["content"], answer("en", message, GRUMPY)["content"]
    assert cheerful != grumpy
    assert any(p in grumpy for p in ("hear me out", "not so sure", "needs more evidence"))


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_same_inputs_same_bytes(locale):
    assert answer(locale, "Rye and spelt?", CHEERFUL) == answer(locale, "Rye and spelt?", CHEERFUL)


def test_a_message_without_content_words_still_gets_a_sentence():
    text = answer("en", "?!", CHEERFUL)["content"]
    assert "Mina" in text and "not sure what to add" in text
