"""An answer is written in the language the person wrote in (agents/runs/language.py):
detected from the text, the account's locale only when the text says nothing (only
emoji, a URL). Replies, mentions and messages alike; the prompt's locale and the
offline stand-in's language both follow it."""

from __future__ import annotations

import pytest

from agents.respond.run import respond_run
from agents.runs.language import answer_locale, text_language
from sns.models import Post, User
from sns.models.messages import Message
from tests.factories import make_user

from .helpers import answer_json, conversation, dm

pytestmark = pytest.mark.django_db

STANDIN_JA = "（オフライン代替）"
STANDIN_EN = "(offline stand-in)"


@pytest.mark.parametrize(
    ("text", "fallback", "locale"),
    [
        ("ライ麦の種は何度で育てていますか？", "en-US", "ja"),
        ("How warm do you keep it?", "ja-JP", "en"),
        ("How warm do you keep it?", "en-GB", "en-GB"),  # agreeing: the region is kept
        ("お元気ですか", "ja-JP", "ja-JP"),
        ("🍞🔥👍", "ja-JP", "ja-JP"),  # says nothing: the locale decides
        ("https://example.com/rye", "en-US", "en-US"),
        ("@Aiko 今日はパンを焼いたよ", "en-US", "ja"),  # a mention is not the language
        ("Sourdough starter を作った", "en-US", "ja"),  # Japanese grammar, English words
        ("I love 寿司", "en-US", "en-US"),  # an English sentence with a Japanese word
        ("Bonjour, ça lève bien ?", "fr-FR", "fr-FR"),  # Latin script: their locale stands
    ],
)
def test_the_detector(text, fallback, locale):
    assert answer_locale(text, fallback) == locale


def test_text_language_says_nothing_without_letters():
    assert text_language("123 😀 https://x.example/a") is None
    assert text_language(None) is None


def test_a_japanese_reply_from_an_en_us_account_is_answered_in_japanese(llm_server):
    person = make_user("Mina")
    assert person.locale == "en-US"
    ai, _, _, reply, _ = conversation(person=person, text="ライ麦のサワー種は何度で育てていますか？冬は膨らみません。")
    llm_server.push_chat(answer_json(content="だいたい24℃です、ミナさん。"))
    respond_run(ai.id)
    [request] = llm_server.chat_requests()
    # The instructions are in the AI user's own language; the answer's is named.
    task = request.body["messages"][-1]["content"]
    assert "日本語（ja）" in task and "English" not in task, task
    assert Post.objects.get(owner=ai, reply_to=reply.id).content == "だいたい24℃です、ミナさん。"


def test_the_offline_stand_in_answers_in_the_language_of_the_reply():
    ai, _, _, reply, _ = conversation(text="ライ麦のサワー種は何度で育てていますか？冬は膨らみません。")
    respond_run(ai.id)
    answer = Post.objects.get(owner=ai, reply_to=reply.id)
    assert answer.content.endswith(STANDIN_JA) and "Mina" in answer.content


def test_an_english_message_from_a_ja_jp_account_is_answered_in_english():
    person = make_user("Mina")
    User.objects.filter(pk=person.pk).update(locale="ja-JP")
    person.refresh_from_db()
    ai, _, _, _ = dm(person=person, text="Do you feed your rye starter every day?")
    respond_run(ai.id)
    [answer] = Message.objects.filter(sender=ai)
    assert answer.content.endswith(STANDIN_EN)


def test_a_message_of_only_emoji_is_answered_in_the_account_locale(llm_server):
    person = make_user("Mina")
    User.objects.filter(pk=person.pk).update(locale="ja-JP")
    person.refresh_from_db()
    ai, _, _, _ = dm(person=person, text="🍞🍞🔥")
    llm_server.push_chat(answer_json(content="パンですね！"))
    respond_run(ai.id)
    [request] = llm_server.chat_requests()
    task = request.body["messages"][-1]["content"]
    assert "日本語（ja-JP）" in task and "English" not in task, task
