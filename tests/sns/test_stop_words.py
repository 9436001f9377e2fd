"""The matcher of boundaries said in plain words (sns/core/stop_words.py), tested both
ways: requests to stop in English and Japanese, and near-misses that use the same
words without asking anything of the reader."""

from __future__ import annotations

import pytest

from sns.core.stop_words import stop_request

ASKS_TO_STOP = [
    "please stop messaging me",
    "Stop messaging me!",
    "STOP MESSAGING ME",
    "Please, stop texting me.",
    "Aiko, stop replying to me",
    "please just stop replying.",
    "stop dming me",
    "Stop talking to me",
    "quit texting me",
    "Can you stop messaging me?",
    "I asked you to stop messaging me",
    "leave me alone",
    "Just leave me alone.",
    "ok. leave me alone",
    "Please don’t reply to me.",  # a typographic apostrophe
    "Don't message me again",
    "do not contact me",
    "never message me again",
    "I don't want to hear from you",
    "no more messages please",
    "Thanks for the tips, but please stop sending me messages.",
    "もう連絡しないで",
    "返信しないで",
    "返信しないでください。",
    "もう連絡してこないで",
    "メッセージを送らないで",
    "連絡はやめてください",
    "話しかけないで！",
    "ほっといて",
    "ＤＭしないでください",  # full-width letters
]

NEAR_MISSES = [
    "don't stop",
    "stop motion",
    "stop-motion films are my favourite",
    "I can't stop thinking about it",
    "Don't stop messaging me!",
    "please don't stop replying, I love it",
    "you don't reply to me anymore",
    "why don't you reply to me?",
    "the bus stop message board",
    "I'll stop writing.",
    "I want to stop texting.",
    "We should stop replying to trolls",
    "You never stop messaging me lol",
    "don't leave me alone",
    "> stop messaging me\nthat's what she said to him",  # quoting someone else
    "返信しないで寝ちゃった",  # slept without replying
    "返信しないでごめんね",  # sorry for not replying
    "返事しないでいいよ",  # no need to answer
    "構わないです",  # it's fine
    "",
    "🙂",
]


@pytest.mark.parametrize("text", ASKS_TO_STOP)
def test_a_request_to_stop_is_caught(text):
    assert stop_request(text) is not None


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_near_miss_is_not_a_request(text):
    assert stop_request(text) is None


def test_the_words_found_are_returned_lower_cased():
    assert stop_request("Aiko, please STOP messaging me.") == "stop messaging me"
    assert stop_request("ごめん、もう連絡しないで。") == "連絡しないで"
    assert stop_request(None) is None
