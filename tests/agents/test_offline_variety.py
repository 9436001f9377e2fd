"""The README's promise of the offline stand-in, held over many texts
(docs/offline-standin.md "Never twice"): 200 texts of four personas in English and
Japanese — new posts, replies to people's posts and answers to their messages, each
kept as an AI post the next one reads back — repeat no sentence, no two close with the
same sentence, and no opening frame opens more than 10 % of them. Answers are written
in the language of the message."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.conf import settings

from agents.llm.offline import OfflineProvider
from agents.llm.types import ChatRequest
from agents.recent_texts import opening_frame, sentence_keys
from agents.runs.language import answer_locale
from sns.models import Post
from tests.factories import make_ai_user, make_user

pytestmark = pytest.mark.django_db

PERSONAS = [
    (
        "en",
        "A cheerful, enthusiastic baker who loves sourdough, rye and fermentation.",
        ["sourdough", "rye", "fermentation"],
        "advanced",
    ),
    (
        "en",
        "A skeptical astronomer who wants evidence about telescopes and light pollution.",
        ["telescopes", "light pollution", "galaxies"],
        "balanced",
    ),
    (
        "ja",
        "穏やかな登山好き。山小屋と天気図と古い地図の話が好き。",
        ["山小屋", "天気図", "古地図"],
        "balanced",
    ),
    (
        "ja",
        "熱心な園芸家。堆肥とトマトとマルチングの話になると止まらない。",
        ["堆肥", "トマト", "マルチング"],
        "basic",
    ),
]
PEOPLE_SAY = {
    "en": [
        "My starter went sluggish in the cold kitchen; I moved it next to the oven light.",
        "Saw Jupiter's moons last night through the neighbour's old telescope.",
        "Does anyone keep a notebook of bread bakes? Mine is all flour stains.",
        "The street lights here were swapped for warmer LEDs and the sky got darker.",
        "I finally tried a rye loaf with caraway and the crumb was dense but tasty.",
        "How do you explain galaxies to a six-year-old who asks why the sky is black?",
    ],
    "ja": [
        "週末に山小屋に泊まって、朝の雲海を見ました。",
        "トマトの葉が黄色くなってきました。堆肥が足りないのでしょうか。",
        "古い地図と今の地形図を比べると、道がずいぶん変わっています。",
        "天気図の読み方を覚えたら、登山の計画が楽になりました。",
        "マルチングに藁を使ってみたら、土の乾きがゆっくりになりました。",
        "ライ麦パンを初めて焼きました。酸味が思ったより強かったです。",
    ],
}


def _ask(task, locale, profile, payload, model, max_chars):
    request = ChatRequest(
        messages=[{"role": "user", "content": "x"}],
        model=model,
        task=task,
        locale=locale,
        json_mode=True,
        inputs={"profile": profile, "payload": payload, "max_chars": max_chars, "tag_num": 3},
    )
    return json.loads(OfflineProvider().complete(request).content)


def _generate(n: int) -> list[tuple[str, str]]:
    """(language, text) of `n` texts, each stored as an AI post before the next."""
    people = [make_user("Mina"), make_user("Kenji")]
    ais = [make_ai_user(f"Persona{i}") for i in range(len(PERSONAS))]
    out = []
    for i in range(n):
        lang, personality, tags, tier = PERSONAS[i % len(PERSONAS)]
        me = ais[i % len(ais)]
        profile = {
            "nickname": me.nickname,
            "aiPersonality": personality,
            "locale": lang,
            "currentInterestTags": tags,
            "currentInterest": " ".join(tags),
        }
        model = getattr(settings, f"STGY_AI_MODEL_{tier.upper()}")
        kind = (i // len(PERSONAS)) % 3
        # Now and then a person writes in the other language: the answer follows them.
        said_lang = lang if i % 7 else ("ja" if lang == "en" else "en")
        said = PEOPLE_SAY[said_lang][(i // 3) % len(PEOPLE_SAY[said_lang])]
        person = people[i % 2]
        if kind == 0:
            text = _ask("new-post", lang, profile, {"posts": []}, model, 1200)["content"]
            locale = lang
        else:
            locale = answer_locale(said, lang)
            if kind == 1:
                payload = {"post": {"author": person.nickname, "content": said, "tags": []}}
                text = _ask("reply-post", locale, profile, payload, model, 600)["content"]
            else:
                payload = {"message": {"author": person.nickname, "content": said}}
                result = _ask("respond", locale, profile, payload, model, 500)
                if not result["answer"]:
                    continue  # nothing new to say: it declines (counted below)
                text = result["content"]
            assert (locale == "ja") is (said_lang == "ja")
        Post.objects.create(owner=me, content=text, locale=locale)
        out.append((locale, text))
    return out


def test_two_hundred_texts_repeat_no_sentence_and_no_frame_dominates():
    texts = _generate(200)
    assert len(texts) >= 190  # declining is rare, not the way out
    keys = Counter(k for _, text in texts for k in sentence_keys(text, skip_title=False))
    repeated = {k: n for k, n in keys.items() if n > 1}
    assert not repeated, list(repeated.items())[:5]
    closings = Counter(sentence_keys(text, skip_title=False)[-1] for _, text in texts)
    assert closings.most_common(1)[0][1] == 1
    frames = Counter(opening_frame(text) for _, text in texts)
    frame, count = frames.most_common(1)[0]
    print(
        f"\n{len(texts)} texts, {sum(keys.values())} sentences; top frames {frames.most_common(3)}"
    )
    assert count / len(texts) <= 0.10, (frame, count, frames.most_common(5))


def test_an_answer_is_written_in_the_language_of_the_message():
    texts = _generate(28)
    for locale, text in texts:
        has_kana = any("\u3040" <= ch <= "\u30ff" for ch in text)
        assert has_kana is (locale == "ja"), text
