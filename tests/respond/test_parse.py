"""The respond answer's parser: a literal boolean decides, never a default yes."""

import pytest

from agents.llm.parsing import ModelOutputError, parse_respond


def test_an_answer_with_content_and_tags():
    out = parse_respond('```json\n{"answer": true, "content": " Hi Mina ", "tags": ["596:Cooking", "rye", "x", "y"]}\n```', "en")
    assert out == {"answer": True, "content": "Hi Mina", "tags": ["Cooking", "rye", "x"], "stop": False}  # stored as posts store tags


def test_too_few_tags_fall_back_to_the_reply_pair():
    assert parse_respond('{"answer": true, "content": "はい"}', "ja-JP")["tags"] == ["総記", "返信"]


def test_silence():
    assert parse_respond('{"answer": false}', "en") == {"answer": False, "content": "", "tags": [], "stop": False}


@pytest.mark.parametrize(
    ("stop", "parsed"), [("true", True), ("false", False), ('"true"', False), ("1", False), ("null", False)]
)
def test_only_a_literal_true_asks_for_a_stop(stop, parsed):
    for answer in ('"answer": true, "content": "Understood"', '"answer": false'):
        assert parse_respond(f'{{{answer}, "stop": {stop}}}', "en")["stop"] is parsed


@pytest.mark.parametrize("text", [
    '{"content": "Hi"}', '{"answer": "true", "content": "Hi"}', '{"answer": 1, "content": "Hi"}',
    '{"answer": true}', '{"answer": true, "content": "   "}', '["answer"]', "no JSON here",
])
def test_anything_else_is_a_failure(text):
    with pytest.raises(ModelOutputError):
        parse_respond(text, "en")
